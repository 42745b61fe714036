import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { failure, jsonResponse, mockFetch, success } from '../../../test/fixtures';
import { buildCharacter, pageMeta } from '../../../test/party-fixtures';
import { renderRoutes } from '../../../test/render';
import { buildContainer } from '../../inventory/test/inventory-fixtures';
import { buildShopInstance, buildStockItem } from '../test/shop-fixtures';
import { ShopInstancePage } from './shop-instance-page';

const shop = (() => {
  const base = buildShopInstance();
  const arrows = buildStockItem({ id: 'stock-arrow', name: 'Arrow', quantity: 20, buy_price_cp: 5 });
  return { ...base, can_trade: true, container: { ...base.container, item_instances: [arrows] } };
})();

const aria = buildCharacter({
  id: 'ch-aria',
  name: 'Aria',
  party_id: 'party-1',
  primary_container_id: 'c-pack',
});
const backpack = buildContainer({
  id: 'c-pack',
  name: 'Backpack',
  owner: { type: 'character', id: 'ch-aria', name: 'Aria' },
  character_id: 'ch-aria',
  party_id: 'party-1',
});

type Handler = (pathname: string, method: string) => Response | Promise<Response> | null;

/** The shop, Aria (my character in its party) and her backpack at the network boundary. */
function mockShopPage(extra: Handler = () => null) {
  return mockFetch(({ url, init }) => {
    const { pathname, searchParams } = new URL(url, 'http://test');
    const method = init.method ?? 'GET';
    const answer = extra(pathname, method);
    if (answer) return answer;
    if (method === 'GET' && pathname === '/api/v1/shop_instances/shop-1') return success(shop);
    if (pathname === '/api/v1/characters' && searchParams.get('party_id') === 'party-1') {
      return jsonResponse(200, { status: 'success', data: [aria], meta: pageMeta(1, 100) });
    }
    if (pathname === '/api/v1/characters/ch-aria/containers') return success([backpack]);
    if (pathname === '/api/v1/containers/c-pack/items') {
      return jsonResponse(200, { status: 'success', data: [], meta: pageMeta(0, 100) });
    }
    return failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${method} ${pathname}`);
  });
}

function renderPage() {
  return renderRoutes(
    [{ path: '/shops/instances/:id', element: <ShopInstancePage /> }],
    '/shops/instances/shop-1',
  );
}

// A shared, busy machine: the page chains the shop, my characters and their containers.
describe('ShopInstancePage', { timeout: 20_000 }, () => {
  it('keeps Buy off, saying why, until my containers arrive, and lets it trade as soon as they do', async () => {
    const user = userEvent.setup();
    let release: (() => void) | undefined;
    const containersHeld = new Promise<void>((resolve) => {
      release = resolve;
    });
    const fetchMock = mockShopPage((pathname) =>
      pathname === '/api/v1/characters/ch-aria/containers'
        ? containersHeld.then(() => success([backpack]))
        : null,
    );
    renderPage();
    // My character is known; her containers are still on their way.
    await waitFor(() =>
      expect(fetchMock.mock.calls.map(([url]) => String(url))).toContainEqual(
        expect.stringContaining('/characters/ch-aria/containers'),
      ),
    );
    expect(screen.getByRole('button', { name: 'Buy Arrow' })).toBeDisabled();
    expect(screen.getByTestId('trader-loading')).toHaveTextContent('Loading your containers…');

    release?.();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Buy Arrow' })).toBeEnabled());
    expect(screen.queryByTestId('trader-loading')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Buy Arrow' }));
    const dialog = await screen.findByRole('dialog', { name: 'Buy Arrow' });
    expect(within(dialog).getByText(/has 20 in stock/)).toBeInTheDocument();
  });
});
