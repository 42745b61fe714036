import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { failure, jsonResponse, mockFetch, success } from '../../../test/fixtures';
import { buildCharacter, buildParty, pageMeta } from '../../../test/party-fixtures';
import { renderRoutes } from '../../../test/render';
import { inventoryKeys } from '../../inventory/api/inventory-api';
import { buildContainer, buildItem } from '../../inventory/test/inventory-fixtures';
import { shopKeys } from '../api/shops-api';
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

/** What Aria carries to sell: a dagger and a torch, one stack each (the shop pays half their value). */
const dagger = buildItem({
  id: 'item-dagger',
  name: 'Dagger',
  item_template_id: 'template-dagger',
  quantity: 1,
  value_cp: 200,
  container_id: 'c-pack',
});
const torch = buildItem({
  id: 'item-torch',
  name: 'Torch',
  item_template_id: 'template-torch',
  quantity: 1,
  value_cp: 2,
  container_id: 'c-pack',
});

const itemsPage = (items: ReturnType<typeof buildItem>[]) =>
  jsonResponse(200, { status: 'success', data: items, meta: pageMeta(items.length, 100) });

const sale = (item: ReturnType<typeof buildItem>) =>
  success({
    kind: 'sale',
    message: 'Sale complete',
    quantity: 1,
    unit_price_cp: item.value_cp / 2,
    total_price_cp: item.value_cp / 2,
    paid: { cp: 0, sp: 0, ep: 0, gp: 0, pp: 0 },
    change: { cp: 0, sp: 0, ep: 0, gp: 0, pp: 0 },
    received: { cp: 0, sp: 0, ep: 0, gp: 1, pp: 0 },
    item_instances: [],
    transaction_ids: ['ledger-1'],
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
    if (pathname === '/api/v1/containers/c-pack/items') return itemsPage([]);
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
  it('puts its trail in a Breadcrumb landmark that ends at the shop, marked the current page', async () => {
    mockShopPage();
    renderPage();
    const trail = await screen.findByRole('navigation', { name: 'Breadcrumb' });
    expect(within(trail).getByRole('link', { name: 'Shops' })).toHaveAttribute('href', '/shops/instances');
    expect(within(trail).getByText(shop.name)).toHaveAttribute('aria-current', 'page');
  });

  it.each([
    ['observer', 'Observers cannot trade in shops.'],
    ['player', 'You need a character in this party to trade here.'],
  ] as const)('says to a member (%s) who may not trade why, as the server does', async (role, said) => {
    // DESIGN §4: observers only read, whether or not they have a character in the party.
    mockShopPage((pathname, method) => {
      if (method === 'GET' && pathname === '/api/v1/shop_instances/shop-1')
        return success({ ...shop, can_trade: false, can_manage: false });
      if (pathname === '/api/v1/parties/party-1')
        return success(buildParty({ id: 'party-1', user_role: role, is_gm: false }));
      return null;
    });
    renderPage();
    expect(await screen.findByRole('heading', { level: 1, name: shop.name })).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('cannot-trade')).toHaveTextContent(said));
  });

  it.each([
    [
      'player',
      false,
      'This party is archived: nothing in it can change until its Game Master unarchives it.',
    ],
    ['gm', true, 'This party is archived. Unarchive it to make changes.'],
  ] as const)(
    'says to a member (%s) of an archived party that it is archived, not that they lack a character',
    async (role, isGm, said) => {
      // The live review: a player with a character there was told to add one, under a green "Open".
      mockShopPage((pathname, method) => {
        if (method === 'GET' && pathname === '/api/v1/shop_instances/shop-1')
          return success({ ...shop, can_trade: !isGm, can_manage: isGm });
        if (pathname === '/api/v1/characters/ch-aria/containers')
          return success([{ ...backpack, can_act: false }]);
        if (pathname === '/api/v1/parties/party-1')
          return success(buildParty({ id: 'party-1', user_role: role, is_gm: isGm, is_archived: true }));
        return null;
      });
      renderPage();
      expect(await screen.findByRole('heading', { level: 1, name: shop.name })).toBeInTheDocument();
      await waitFor(() => expect(screen.getByTestId('shop-party-archived')).toHaveTextContent(said));
      expect(screen.queryByTestId('cannot-trade')).not.toBeInTheDocument();
      expect(screen.queryByText('You need a character in this party to trade here.')).not.toBeInTheDocument();
      expect(screen.getByTestId('shop-open-badge')).toHaveTextContent('Archived');
      expect(screen.getByRole('button', { name: 'Buy Arrow' })).toBeDisabled();
    },
  );

  it('tells the GM who runs a closed shop so in notes, and alerts only when the shop closes while open', async () => {
    let served = { ...shop, can_trade: false, can_manage: true, is_active: false };
    mockShopPage((pathname, method) => {
      if (method === 'GET' && pathname === '/api/v1/shop_instances/shop-1') return success(served);
      if (pathname === '/api/v1/parties/party-1')
        return success(buildParty({ id: 'party-1', user_role: 'gm', is_gm: true }));
      return null;
    });
    const { queryClient } = renderPage();
    expect(await screen.findByRole('heading', { level: 1, name: shop.name })).toBeInTheDocument();
    // Standing notes, there as the page opens: read in their place, not spoken over everything else.
    await waitFor(() =>
      expect(screen.getByTestId('cannot-trade')).toHaveTextContent(
        'You run this shop. Add a character to the party to trade here yourself.',
      ),
    );
    expect(screen.getByTestId('cannot-trade')).toHaveAttribute('role', 'note');
    expect(screen.getByTestId('shop-closed')).toHaveAttribute('role', 'note');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();

    // Opened, then closed while the GM looks at it: that closing is news, and an alert.
    served = { ...served, is_active: true };
    await queryClient.invalidateQueries({ queryKey: shopKeys.instance('shop-1') });
    await waitFor(() => expect(screen.queryByTestId('shop-closed')).not.toBeInTheDocument());
    served = { ...served, is_active: false };
    await queryClient.invalidateQueries({ queryKey: shopKeys.instance('shop-1') });
    expect(await screen.findByRole('alert')).toHaveTextContent('This shop is closed.');
  });

  it('sends me back to the party’s shops when the shop is deleted while I look at it', async () => {
    let deleted = false;
    mockShopPage((pathname, method) =>
      deleted && method === 'GET' && pathname === '/api/v1/shop_instances/shop-1'
        ? failure(404, 'RESOURCE_NOT_FOUND', 'Shop not found.')
        : null,
    );
    const { queryClient } = renderPage();
    expect(await screen.findByRole('heading', { level: 1, name: shop.name })).toBeInTheDocument();
    // The GM deletes it: the live event refreshes the shop, which is no longer there.
    deleted = true;
    await queryClient.invalidateQueries({ queryKey: shopKeys.instance('shop-1') });
    expect(await screen.findByRole('heading', { level: 1, name: 'Shop Not Found' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Shops' })).toHaveAttribute(
      'href',
      `/parties/${shop.party_id}?tab=shops`,
    );
  });

  it('keeps the keyboard on Save Changes and Restock Now once the shop they changed comes back', async () => {
    let current = { ...shop, can_manage: true };
    mockShopPage((pathname, method) => {
      if (method === 'GET' && pathname === '/api/v1/shop_instances/shop-1') return success(current);
      if (method === 'PATCH' && pathname === '/api/v1/shop_instances/shop-1') {
        current = {
          ...current,
          name: 'The Gilded Anvil',
          updated_at: new Date(Date.now() + 1_000).toISOString(),
        };
        return success(current);
      }
      if (method === 'POST' && pathname === '/api/v1/shop_instances/shop-1/restock') {
        current = { ...current, updated_at: new Date(Date.now() + 2_000).toISOString() };
        return success({ shop_instance_id: 'shop-1', added: [], next_restock_at: null });
      }
      if (pathname === '/api/v1/shop_instances/shop-1/restock_schedule') {
        return success({
          shop_instance_id: 'shop-1',
          restock_days: null,
          label: 'Never',
          next_restock_at: null,
          last_restock_at: null,
        });
      }
      return null;
    });
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('tab', { name: 'Manage' }));
    const name = await screen.findByLabelText(/Shop name/);
    await user.clear(name);
    await user.type(name, 'The Gilded Anvil');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    await screen.findByRole('heading', { level: 1, name: 'The Gilded Anvil' });
    await waitFor(() => expect(screen.getByRole('button', { name: 'Save Changes' })).toHaveFocus());
    expect(screen.getByLabelText(/Shop name/)).toHaveValue('The Gilded Anvil');

    const updated = current.updated_at;
    await user.click(screen.getByRole('button', { name: 'Restock Now' }));
    await waitFor(() => expect(current.updated_at).not.toBe(updated));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Restock Now' })).toHaveFocus());
  });

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

  it('pays from the container that holds my coins until I choose another', async () => {
    const user = userEvent.setup();
    const pouch = buildContainer({
      id: 'c-pouch',
      name: 'Belt Pouch',
      is_primary: false,
      owner: { type: 'character', id: 'ch-aria', name: 'Aria' },
      character_id: 'ch-aria',
      party_id: 'party-1',
    });
    const gold = buildItem({
      id: 'coins-gp',
      name: 'Gold piece',
      quantity: 52,
      value_cp: 100,
      container_id: 'c-pouch',
      item_template: { name: 'Gold piece', stack_size: 0, tags: ['currency'], metadata: {}, coin: 'gp' },
    });
    let pouchGold = 52;
    mockShopPage((pathname) => {
      if (pathname === '/api/v1/characters/ch-aria/containers')
        return success([{ ...backpack, is_primary: true }, pouch]);
      if (pathname === '/api/v1/containers/c-pouch/items')
        return itemsPage([{ ...gold, quantity: pouchGold }]);
      if (pathname === '/api/v1/containers/c-pack/items')
        return itemsPage(pouchGold < 52 ? [{ ...gold, id: 'coins-pack', quantity: 100 }] : []);
      return null;
    });
    const first = renderPage();
    const chooser = await screen.findByRole('combobox', { name: 'Pay from and carry into' });
    expect(chooser).toHaveValue('Belt Pouch (Aria)');
    await waitFor(() => expect(screen.getByTestId('my-coins')).toHaveTextContent('Your coins: 52 gp'));

    // A purchase spends most of the pouch and the backpack is now richer: the choice stays where it was.
    pouchGold = 2;
    await first.queryClient.invalidateQueries();
    await waitFor(() => expect(screen.getByTestId('my-coins')).toHaveTextContent('Your coins: 2 gp'));
    expect(chooser).toHaveValue('Belt Pouch (Aria)');

    await user.click(chooser);
    await user.click(await screen.findByRole('option', { name: 'Backpack (Aria)' }));
    await waitFor(() => expect(screen.getByTestId('my-coins')).toHaveTextContent('Your coins: 100 gp'));
    // The next visit to this party's shops starts from the container I chose.
    first.unmount();
    pouchGold = 52;
    renderPage();
    await waitFor(() =>
      expect(screen.getByRole('combobox', { name: 'Pay from and carry into' })).toHaveValue(
        'Backpack (Aria)',
      ),
    );
  });

  it('waits for a fresh count of my purses before choosing the one to pay from', async () => {
    // At the table: the pouch was counted empty, then coins were added to it (which marks the count
    // stale); the shop must not settle on the backpack from that old count.
    const pouch = buildContainer({
      id: 'c-pouch',
      name: 'Belt Pouch',
      is_primary: false,
      owner: { type: 'character', id: 'ch-aria', name: 'Aria' },
      character_id: 'ch-aria',
      party_id: 'party-1',
    });
    const gold = buildItem({
      id: 'coins-gp',
      name: 'Gold piece',
      quantity: 100,
      value_cp: 100,
      container_id: 'c-pouch',
      item_template: { name: 'Gold piece', stack_size: 0, tags: ['currency'], metadata: {}, coin: 'gp' },
    });
    mockShopPage((pathname) => {
      if (pathname === '/api/v1/characters/ch-aria/containers')
        return success([{ ...backpack, is_primary: true }, pouch]);
      if (pathname === '/api/v1/containers/c-pouch/items') return itemsPage([gold]);
      return null;
    });
    const view = renderRoutes(
      [
        { path: '/start', element: <p>Start</p> },
        { path: '/shops/instances/:id', element: <ShopInstancePage /> },
      ],
      '/start',
    );
    view.queryClient.setQueryData(inventoryKeys.coins('c-pouch'), {});
    view.queryClient.setQueryData(inventoryKeys.coins('c-pack'), {});
    await view.queryClient.invalidateQueries({ queryKey: inventoryKeys.coins('c-pouch') });
    await view.router.navigate('/shops/instances/shop-1');
    await waitFor(() => expect(screen.getByTestId('my-coins')).toHaveTextContent('Your coins: 100 gp'));
    expect(screen.getByRole('combobox', { name: 'Pay from and carry into' })).toHaveValue(
      'Belt Pouch (Aria)',
    );
  });

  it('keeps focus in my items after a sale takes a whole stack away', async () => {
    const user = userEvent.setup();
    let carried = [dagger, torch];
    mockShopPage((pathname, method) => {
      if (pathname === '/api/v1/containers/c-pack/items') return itemsPage(carried);
      if (pathname.includes('/calculate_sell_price/')) {
        const item = pathname.includes(dagger.id) ? dagger : torch;
        return success({
          item_instance_id: item.id,
          name: item.name,
          quantity: 1,
          unit_price_cp: item.value_cp / 2,
          total_price_cp: item.value_cp / 2,
          formatted: '',
          has_own_price: false,
          discount_rate: 0,
          modifier: 0.5,
        });
      }
      if (method === 'POST' && pathname === '/api/v1/shop_instances/shop-1/sell') {
        const sold = carried[0] ?? dagger;
        carried = carried.slice(1);
        return sale(sold);
      }
      return null;
    });
    renderPage();
    await user.click(await screen.findByRole('tab', { name: 'Sell' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Sell Dagger' })).toBeEnabled());

    // The whole dagger goes: focus moves to the Sell button now in its place.
    await user.click(screen.getByRole('button', { name: 'Sell Dagger' }));
    const sellDagger = await screen.findByRole('dialog', { name: 'Sell Dagger' });
    await user.click(await within(sellDagger).findByRole('button', { name: 'Sell for 1 gp' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() =>
      expect(screen.queryByRole('button', { name: 'Sell Dagger' })).not.toBeInTheDocument(),
    );
    await waitFor(() => expect(screen.getByRole('button', { name: 'Sell Torch' })).toHaveFocus());

    // The last stack goes: the list, now empty, keeps it.
    await user.click(screen.getByRole('button', { name: 'Sell Torch' }));
    const sellTorch = await screen.findByRole('dialog', { name: 'Sell Torch' });
    await user.click(await within(sellTorch).findByRole('button', { name: /^Sell for/ }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(screen.getByTestId('sell-list-empty')).toHaveFocus());
  });
});

describe('ShopInstancePage: the shelves as lists', { timeout: 20_000 }, () => {
  it('reads the stock and what I can sell as named lists, a line an item', async () => {
    mockShopPage((pathname) =>
      pathname === '/api/v1/containers/c-pack/items' ? itemsPage([dagger, torch]) : null,
    );
    const user = userEvent.setup();
    renderPage();
    const stock = await screen.findByRole('list', { name: `${shop.name} stock` });
    const wares = within(stock).getAllByRole('listitem');
    expect(wares).toHaveLength(1);
    expect(within(wares[0] as HTMLElement).getByRole('button', { name: 'Buy Arrow' })).toBeInTheDocument();

    await user.click(await screen.findByRole('tab', { name: 'Sell' }));
    const mine = await screen.findByRole('list', { name: 'Your items to sell' });
    await waitFor(() => expect(within(mine).getAllByRole('listitem')).toHaveLength(2));
    expect(
      within(mine)
        .getAllByRole('listitem')
        .map((line) => line.textContent),
    ).toEqual([expect.stringContaining('Dagger'), expect.stringContaining('Torch')]);
  });
});

describe('ShopInstancePage: selling several of an item that does not stack', () => {
  it('lists three daggers, a stack each, as one line of 3 and sells them in one sale', async () => {
    const daggers = ['a', 'b', 'c'].map((id) => ({ ...dagger, id: `item-dagger-${id}` }));
    const equipped = { ...dagger, id: 'item-dagger-worn', instance_data: { is_equipped: true } };
    const fetchMock = mockShopPage((pathname, method) => {
      if (pathname === '/api/v1/containers/c-pack/items') return itemsPage([...daggers, equipped, torch]);
      if (method === 'GET' && pathname.includes('/calculate_sell_price/'))
        return success({
          item_instance_id: 'item-dagger-a',
          name: 'Dagger',
          quantity: 3,
          unit_price_cp: 100,
          total_price_cp: 300,
          formatted: '',
          has_own_price: false,
          discount_rate: 0,
          modifier: 0.5,
        });
      if (method === 'POST' && pathname === '/api/v1/shop_instances/shop-1/sell') return sale(dagger);
      return null;
    });
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('tab', { name: 'Sell' }));
    const rows = await screen.findAllByTestId('sell-item');
    // The worn dagger is a line of its own: the shop never buys it along with the others.
    expect(rows.map((row) => row.textContent)).toEqual([
      expect.stringContaining('You have 3'),
      expect.stringContaining('You have 1'),
      expect.stringContaining('Torch'),
    ]);
    await waitFor(() => expect(screen.getAllByRole('button', { name: 'Sell Dagger' })[0]).toBeEnabled());
    await user.click(screen.getAllByRole('button', { name: 'Sell Dagger' })[0] as HTMLElement);
    const dialog = await screen.findByRole('dialog', { name: 'Sell Dagger' });
    expect(within(dialog).getByText(/You have 3\./)).toBeInTheDocument();
    await user.clear(within(dialog).getByRole('textbox', { name: /Quantity/ }));
    await user.type(within(dialog).getByRole('textbox', { name: /Quantity/ }), '3');
    await user.click(await within(dialog).findByRole('button', { name: 'Sell for 3 gp' }));
    await waitFor(() =>
      expect(
        fetchMock.mock.calls.some(
          ([url, init]) =>
            init?.method === 'POST' &&
            String(url).endsWith('/sell') &&
            String(init.body).includes('"quantity":3') &&
            String(init.body).includes('"item_instance_id":"item-dagger-a"'),
        ),
      ).toBe(true),
    );
  });

  it('shows on the sell list the price the shop quotes and pays, capped at what it asks', async () => {
    // The GM sells daggers (2 gp) at their own price of 1 gp 5 sp and buys at full value: the server
    // quotes 1 gp 5 sp each, never 2 gp (shops.buyback.test.ts), and so does the list.
    const capped = { ...shop, sell_modifier: 1, own_prices_cp: { 'template-dagger': 150 } };
    mockShopPage((pathname, method) => {
      if (method === 'GET' && pathname === '/api/v1/shop_instances/shop-1') return success(capped);
      if (pathname === '/api/v1/containers/c-pack/items') return itemsPage([dagger]);
      if (method === 'GET' && pathname.includes('/calculate_sell_price/'))
        return success({
          item_instance_id: 'item-dagger',
          name: 'Dagger',
          quantity: 1,
          unit_price_cp: 150,
          total_price_cp: 150,
          formatted: '1 gp 5 sp',
          has_own_price: false,
          discount_rate: 0,
          modifier: 1,
        });
      return null;
    });
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('tab', { name: 'Sell' }));
    const row = await screen.findByTestId('sell-item');
    expect(within(row).getByTestId('sell-price')).toHaveTextContent(/^1 gp 5 sp$/);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Sell Dagger' })).toBeEnabled());
    await user.click(screen.getByRole('button', { name: 'Sell Dagger' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sell Dagger' });
    expect(await within(dialog).findByRole('button', { name: 'Sell for 1 gp 5 sp' })).toBeInTheDocument();
  });
});

describe('ShopInstancePage on a slow or dropped connection', { timeout: 20_000 }, () => {
  it('keeps the shop on screen when its refresh fails, with a note', async () => {
    let connected = true;
    mockShopPage((pathname, method) => {
      if (!connected && method === 'GET' && pathname === '/api/v1/shop_instances/shop-1')
        throw new TypeError('Failed to fetch');
      return null;
    });
    const { queryClient } = renderPage();
    expect(await screen.findByRole('heading', { level: 1, name: shop.name })).toBeInTheDocument();
    connected = false;
    await queryClient.refetchQueries({ queryKey: shopKeys.instance('shop-1') });
    await waitFor(() => expect(screen.getByTestId('refresh-failed-note')).toBeVisible(), { timeout: 5_000 });
    expect(screen.getByRole('heading', { level: 1, name: shop.name })).toBeInTheDocument();
    expect(screen.queryByText('Failed to load shop')).not.toBeInTheDocument();
  });

  it('keeps my items to sell when their refresh fails, with a note', async () => {
    let connected = true;
    mockShopPage((pathname) => {
      if (pathname !== '/api/v1/containers/c-pack/items') return null;
      if (!connected) throw new TypeError('Failed to fetch');
      return itemsPage([dagger]);
    });
    const user = userEvent.setup();
    const { queryClient } = renderPage();
    await user.click(await screen.findByRole('tab', { name: 'Sell' }));
    expect(await screen.findByRole('button', { name: 'Sell Dagger' })).toBeInTheDocument();
    connected = false;
    await queryClient.refetchQueries({ queryKey: inventoryKeys.container('c-pack') });
    const list = screen.getByTestId('sell-list');
    await waitFor(() => expect(within(list).getByTestId('refresh-failed-note')).toBeVisible(), {
      timeout: 5_000,
    });
    expect(screen.getByRole('button', { name: 'Sell Dagger' })).toBeInTheDocument();
  });
});
