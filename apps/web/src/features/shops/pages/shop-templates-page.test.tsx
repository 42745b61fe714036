import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { failure, jsonResponse, mockFetch, success } from '../../../test/fixtures';
import { buildParty, pageMeta } from '../../../test/party-fixtures';
import { renderRoutes } from '../../../test/render';
import { stubPhoneWidth } from '../../../test/viewport';
import { buildCurrentAtUsage } from '../../subscription/plan-limit-test-server';
import { buildShopTemplate } from '../test/shop-fixtures';
import { ShopTemplatesPage } from './shop-templates-page';

const routes = [{ path: '/shops', element: <ShopTemplatesPage /> }];

const listQuery = (fetchMock: ReturnType<typeof mockFetch>) => {
  const call = fetchMock.mock.calls.filter(([url]) => String(url).includes('/shop_templates?')).at(-1);
  return Object.fromEntries(new URL(String(call?.[0]), 'http://test').searchParams);
};

describe('ShopTemplatesPage', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('on a phone keeps the search and the sort above the shops and folds the other filters away', async () => {
    stubPhoneWidth();
    const fetchMock = mockFetch(() =>
      jsonResponse(200, {
        status: 'success',
        data: [buildShopTemplate({ name: 'Ironhand Forge' })],
        meta: pageMeta(1, 12),
      }),
    );
    const user = userEvent.setup();
    renderRoutes(routes, '/shops');
    expect(await screen.findByRole('heading', { name: 'Ironhand Forge' })).toBeInTheDocument();
    // At 375 px the eight filters stood a whole screen above the first shop.
    const filters = screen.getByRole('region', { name: 'Shop filters' });
    expect(within(filters).getByRole('textbox', { name: 'Search shops' })).toBeVisible();
    expect(within(filters).getByRole('combobox', { name: 'Sort by' })).toBeVisible();
    for (const name of ['Shop type', 'Location', 'Minimum rating', 'Visibility', 'Order', 'Tags']) {
      expect(within(filters).getByRole('combobox', { name, hidden: true })).not.toBeVisible();
    }
    const more = within(filters).getByRole('button', { name: 'More filters' });
    expect(more).toHaveAttribute('aria-expanded', 'false');

    await user.click(more);
    await user.click(within(filters).getByRole('combobox', { name: 'Shop type' }));
    await user.click(await screen.findByRole('option', { name: 'Blacksmith' }));
    await vi.waitFor(() => expect(listQuery(fetchMock).shop_type).toBe('blacksmith'));
    await user.click(within(filters).getByRole('button', { name: 'Fewer filters (1 on)' }));
    expect(within(filters).getByRole('button', { name: 'More filters (1 on)' })).toBeInTheDocument();
  });

  it('shows every filter on a wider screen, with nothing to unfold', async () => {
    mockFetch(() =>
      jsonResponse(200, {
        status: 'success',
        data: [buildShopTemplate({ name: 'Ironhand Forge' })],
        meta: pageMeta(1, 12),
      }),
    );
    renderRoutes(routes, '/shops');
    expect(await screen.findByRole('heading', { name: 'Ironhand Forge' })).toBeInTheDocument();
    const filters = screen.getByRole('region', { name: 'Shop filters' });
    for (const name of ['Shop type', 'Location', 'Minimum rating', 'Visibility', 'Sort by', 'Order']) {
      expect(within(filters).getByRole('combobox', { name })).toBeVisible();
    }
    expect(within(filters).queryByRole('button', { name: /^(More|Fewer) filters/ })).toBeNull();
  });

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

  describe('what a user who cannot deploy or create is offered', { timeout: 30_000 }, () => {
    const server = (options: {
      parties: ReturnType<typeof buildParty>[];
      shopTemplatesLimit: number | null;
    }) =>
      mockFetch(({ url }) => {
        const path = new URL(url, 'http://test').pathname;
        if (path.endsWith('/parties')) {
          return jsonResponse(200, {
            status: 'success',
            data: options.parties,
            meta: pageMeta(options.parties.length, 100),
          });
        }
        if (path.endsWith('/subscription/current')) {
          return success(buildCurrentAtUsage('shop_templates', 0, options.shopTemplatesLimit ?? 0));
        }
        return jsonResponse(200, {
          status: 'success',
          data: [buildShopTemplate({ id: 'a', name: 'Ironhand Forge' })],
          meta: pageMeta(1, 12),
        });
      });

    it('disables Deploy, saying why, when I am the GM or a manager of no active party', async () => {
      server({ parties: [buildParty({ user_role: 'player', is_gm: false })], shopTemplatesLimit: 5 });
      renderRoutes(routes, '/shops');
      const card = await screen.findByTestId('shop-card');
      const deploy = within(card).getByRole('button', { name: 'Deploy Ironhand Forge' });
      await vi.waitFor(() => expect(deploy).toBeDisabled());
      expect(deploy).toHaveAccessibleDescription(
        'You are not the GM or a manager of any active party. Only the GM or a manager of a party can deploy a shop into it.',
      );
      expect(screen.getByText('You are not the GM or a manager of any active party.')).toBeVisible();
    });

    it('keeps Deploy for the GM or a manager of a party', async () => {
      server({ parties: [buildParty({ user_role: 'manager', is_gm: false })], shopTemplatesLimit: 5 });
      renderRoutes(routes, '/shops');
      const card = await screen.findByTestId('shop-card');
      // Once my parties are in (the plan's query is its neighbour), Deploy is still there to use.
      await screen.findByRole('link', { name: 'New Shop' });
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(within(card).getByRole('button', { name: 'Deploy Ironhand Forge' })).toBeEnabled();
      expect(
        screen.queryByText('You are not the GM or a manager of any active party.'),
      ).not.toBeInTheDocument();
    });

    it('leads to the upgrade, not to the form, when my plan has no shop templates', async () => {
      server({ parties: [], shopTemplatesLimit: 0 });
      renderRoutes(routes, '/shops');
      const hint = await screen.findByTestId('plan-limit-hint');
      expect(hint).toHaveTextContent('Your plan does not include shop templates.');
      expect(within(hint).getByRole('link', { name: 'See upgrade options' })).toHaveAttribute(
        'href',
        '/subscription/upgrade?resource=shop_templates',
      );
      expect(screen.queryByRole('link', { name: 'New Shop' })).not.toBeInTheDocument();
    });
  });
});
