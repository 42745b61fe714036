import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { failure, jsonResponse, mockFetch } from '../../../test/fixtures';
import { pageMeta } from '../../../test/party-fixtures';
import { renderWithProviders } from '../../inventory/test/inventory-fixtures';
import { buildShopInstance } from '../test/shop-fixtures';
import { PartyShopsTab } from './party-shops-tab';

function instances(count: number) {
  const shops = Array.from({ length: count }, (_, index) =>
    buildShopInstance({
      id: `shop-${index}`,
      name: `Shop ${index}`,
      is_active: index === 0,
      discount_rate: 0.15,
    }),
  );
  return jsonResponse(200, {
    status: 'success',
    data: { instances: shops },
    meta: { ...pageMeta(count, 100), total: count },
  });
}

describe('PartyShopsTab', () => {
  it('asks for this party’s shops and shows "Party Shops (count)" with a card per shop', async () => {
    const fetchMock = mockFetch(() => instances(2));
    renderWithProviders(<PartyShopsTab partyId="party-1" canDeploy />);
    expect(await screen.findByRole('heading', { name: 'Party Shops (2)' })).toBeInTheDocument();
    const url = new URL(String(fetchMock.mock.calls[0]?.[0]), 'http://test');
    expect(url.pathname).toBe('/api/v1/shop_instances');
    expect(url.searchParams.get('party_id')).toBe('party-1');
    expect(screen.getByRole('link', { name: 'Deploy New Shop' })).toHaveAttribute('href', '/shops');
    const cards = screen.getAllByTestId('shop-card');
    expect(cards).toHaveLength(2);
    expect(within(cards[0] as HTMLElement).getByText('Open')).toBeInTheDocument();
    expect(within(cards[1] as HTMLElement).getByText('Closed')).toBeInTheDocument();
    expect(within(cards[0] as HTMLElement).getByText('15% OFF')).toBeInTheDocument();
    expect(within(cards[0] as HTMLElement).getByText('The Lantern Bearers')).toBeInTheDocument();
    expect(within(cards[0] as HTMLElement).getByRole('link', { name: 'Enter Shop Shop 0' })).toHaveAttribute(
      'href',
      '/shops/instances/shop-0',
    );
  });

  it('says there are no shops yet, and offers Deploy Shop Template to the GM only', async () => {
    mockFetch(() => instances(0));
    const { unmount } = renderWithProviders(<PartyShopsTab partyId="party-1" canDeploy />);
    const empty = await screen.findByTestId('empty-state');
    expect(
      within(empty).getByText('No active shops in your party yet. Deploy a shop template to get started.'),
    ).toBeInTheDocument();
    expect(within(empty).getByRole('link', { name: 'Deploy Shop Template' })).toHaveAttribute(
      'href',
      '/shops',
    );
    unmount();

    renderWithProviders(<PartyShopsTab partyId="party-1" canDeploy={false} />);
    const playerView = await screen.findByTestId('empty-state');
    expect(within(playerView).queryByRole('link', { name: 'Deploy Shop Template' })).not.toBeInTheDocument();
    // Nor told to deploy one (live review): only that shops appear here once one is.
    expect(
      within(playerView).getByText(
        'No active shops in your party yet. They appear here once one is deployed.',
      ),
    ).toBeInTheDocument();
  });

  it('offers Deploy New Shop to the GM or a manager only, not to a player', async () => {
    mockFetch(() => instances(1));
    renderWithProviders(<PartyShopsTab partyId="party-1" canDeploy={false} />);
    expect(await screen.findByRole('heading', { name: 'Party Shops (1)' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Deploy New Shop' })).not.toBeInTheDocument();
  });

  it('goes back to the last page left when the one shown was emptied meanwhile', async () => {
    // Page 1 counted 21 shops; by the time page 2 is asked for, its only shop was deleted elsewhere.
    const fetchMock = mockFetch(({ url }) => {
      const page = Number(new URL(url, 'http://test').searchParams.get('page') ?? '1');
      if (page === 1)
        return jsonResponse(200, {
          status: 'success',
          data: {
            instances: Array.from({ length: 20 }, (_, i) =>
              buildShopInstance({ id: `s${i}`, name: `Shop ${i}` }),
            ),
          },
          meta: { ...pageMeta(21, 20), total: 21 },
        });
      return jsonResponse(200, {
        status: 'success',
        data: { instances: [] },
        meta: { ...pageMeta(20, 20, page), total: 20 },
      });
    });
    renderWithProviders(<PartyShopsTab partyId="party-1" canDeploy />);
    await userEvent.click(await screen.findByRole('button', { name: 'Page 2' }));
    await vi.waitFor(() =>
      expect(fetchMock.mock.calls.some(([url]) => String(url).includes('page=2'))).toBe(true),
    );
    expect(await screen.findByText('Shop 0')).toBeInTheDocument();
    expect(screen.queryByTestId('empty-state')).not.toBeInTheDocument();
  });

  it('shows "Unable to Load Shops" with Try Again when the list fails', async () => {
    mockFetch(() => failure(403, 'FORBIDDEN', 'Access forbidden'));
    renderWithProviders(<PartyShopsTab partyId="party-1" canDeploy />);
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Unable to Load Shops')).toBeInTheDocument();
    expect(within(alert).getByRole('button', { name: 'Try Again' })).toBeInTheDocument();
  });

  it('shows a page of 12 shops with the count of all and a pager to the others', async () => {
    const fetchMock = mockFetch(({ url }) => {
      const params = new URL(url, 'http://test').searchParams;
      const current = Number(params.get('page'));
      const shops = Array.from({ length: current === 9 ? 4 : 12 }, (_, index) =>
        buildShopInstance({ id: `shop-${current}-${index}`, name: `Shop ${current}-${index}` }),
      );
      return jsonResponse(200, {
        status: 'success',
        data: { instances: shops },
        meta: { ...pageMeta(100, 12, current), total: 100 },
      });
    });
    renderWithProviders(<PartyShopsTab partyId="party-1" canDeploy />);
    expect(await screen.findByRole('heading', { name: 'Party Shops (100)' })).toBeInTheDocument();
    const asked = new URL(String(fetchMock.mock.calls[0]?.[0]), 'http://test');
    expect(asked.searchParams.get('per_page')).toBe('12');
    expect(asked.searchParams.get('party_id')).toBe('party-1');
    expect(screen.getAllByTestId('shop-card')).toHaveLength(12);
    await userEvent.click(screen.getByRole('button', { name: 'Page 9' }));
    expect(await screen.findByRole('heading', { name: 'Shop 9-0' })).toBeInTheDocument();
    expect(screen.getAllByTestId('shop-card')).toHaveLength(4);
    expect(screen.getByRole('heading', { name: 'Party Shops (100)' })).toBeInTheDocument();
  });
});
