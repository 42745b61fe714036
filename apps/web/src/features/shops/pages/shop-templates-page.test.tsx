import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { failure, jsonResponse, mockFetch } from '../../../test/fixtures';
import { pageMeta } from '../../../test/party-fixtures';
import { renderRoutes } from '../../../test/render';
import { buildShopTemplate } from '../test/shop-fixtures';
import { ShopTemplatesPage } from './shop-templates-page';

const routes = [{ path: '/shops', element: <ShopTemplatesPage /> }];

const listQuery = (fetchMock: ReturnType<typeof mockFetch>) => {
  const call = fetchMock.mock.calls.filter(([url]) => String(url).includes('/shop_templates?')).at(-1);
  return Object.fromEntries(new URL(String(call?.[0]), 'http://test').searchParams);
};

describe('ShopTemplatesPage', () => {
  it('shows six skeleton cards while the templates load', async () => {
    mockFetch(() => new Promise<Response>(() => undefined));
    renderRoutes(routes, '/shops');
    expect(await screen.findByTestId('shop-skeletons')).toBeInTheDocument();
    expect(screen.getAllByTestId('shop-skeleton')).toHaveLength(6);
  });

  it('says "Unable to Load Shops" with Try Again when the list fails', async () => {
    mockFetch(() => failure(500, 'INTERNAL_SERVER_ERROR', 'boom'));
    renderRoutes(routes, '/shops');
    const panel = await screen.findByRole('alert', {}, { timeout: 10_000 });
    expect(within(panel).getByText('Unable to Load Shops')).toBeInTheDocument();
    expect(within(panel).getByText('An unexpected error occurred while loading shops.')).toBeInTheDocument();
    expect(within(panel).getByRole('button', { name: 'Try Again' })).toBeInTheDocument();
  }, 20_000);

  it('says "No Shops Found" with Clear Filters and Browse Marketplace, and Clear Filters resets them', async () => {
    const fetchMock = mockFetch(() =>
      jsonResponse(200, { status: 'success', data: [], meta: pageMeta(0, 12) }),
    );
    const user = userEvent.setup();
    renderRoutes(routes, '/shops');
    const empty = await screen.findByTestId('empty-state');
    expect(within(empty).getByText('No Shops Found')).toBeInTheDocument();
    expect(within(empty).getByRole('link', { name: 'Browse Marketplace' })).toHaveAttribute(
      'href',
      '/marketplace',
    );
    await user.click(screen.getByRole('combobox', { name: 'Shop type' }));
    await user.click(await screen.findByRole('option', { name: 'Blacksmith' }));
    await vi.waitFor(() => expect(listQuery(fetchMock).shop_type).toBe('blacksmith'));
    await user.click(
      within(screen.getByTestId('empty-state')).getByRole('button', { name: 'Clear Filters' }),
    );
    // Back to the unfiltered list (served from the cache, so the field is what shows it).
    await vi.waitFor(() => expect(screen.getByRole('combobox', { name: 'Shop type' })).toHaveValue(''));
  }, 20_000);

  it('asks name ascending by default and shows each card’s rating, popularity, badges and tags', async () => {
    const fetchMock = mockFetch(() =>
      jsonResponse(200, {
        status: 'success',
        data: [
          buildShopTemplate({
            id: 'a',
            name: 'Ironhand Forge',
            shop_type: 'blacksmith',
            average_rating: 4.6,
            ratings_count: 57,
            buy_modifier: 1.25,
            sell_modifier: 0.5,
            default_restock_days: 1,
            items_count: 3,
            tag_list: ['Weapons', 'Armor', 'Tools', 'Rare Items', 'Custom'],
          }),
        ],
        meta: pageMeta(1, 12),
      }),
    );
    renderRoutes(routes, '/shops');
    const card = await screen.findByTestId('shop-card');
    expect(listQuery(fetchMock)).toMatchObject({ sort_by: 'name', sort_order: 'asc', page: '1' });
    expect(within(card).getByRole('heading', { name: 'Ironhand Forge' })).toBeInTheDocument();
    expect(within(card).getByText('Blacksmith')).toBeInTheDocument();
    expect(within(card).getByText('4.6 · 57 reviews')).toBeInTheDocument();
    expect(within(card).getByText('Popular')).toBeInTheDocument();
    expect(within(card).getByText('3 items · Low Stock')).toBeInTheDocument();
    expect(within(card).getByText('Restock: Daily')).toBeInTheDocument();
    expect(within(card).getByText('Shop Sells: +25%')).toBeInTheDocument();
    expect(within(card).getByText('Shop Buys: -50%')).toBeInTheDocument();
    expect(within(card).getByText('Marketplace')).toBeInTheDocument();
    const tags = within(card).getByTestId('shop-tags');
    expect(within(tags).getByText('Weapons')).toBeInTheDocument();
    expect(within(tags).queryByText('Rare Items')).not.toBeInTheDocument();
    expect(within(tags).getByText('+2 more')).toBeInTheDocument();
    expect(within(card).getByRole('link', { name: 'View Template Ironhand Forge' })).toHaveAttribute(
      'href',
      '/shops/templates/a',
    );
  });
});
