import {
  type Party,
  partyMessages,
  type ShopInstance,
  shopMessages,
  shopSaleMessages,
} from '@haversack/contracts';
import { useQuery } from '@tanstack/react-query';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { tokenStorage } from '../../../lib/token-storage';
import { useUiStore } from '../../../stores/ui-store';
import { buildTokens, failure, mockFetch, success } from '../../../test/fixtures';
import { buildParty } from '../../../test/party-fixtures';
import { containerCoinsQuery } from '../../inventory/api/inventory-api';
import { buildContainer, buildItem, renderWithProviders } from '../../inventory/test/inventory-fixtures';
import { partyKeys } from '../../parties/api/parties-api';
import { saleFailed, shopKeys } from '../api/shops-api';
import { buildShopInstance, buildShopRequest, buildStockItem } from '../test/shop-fixtures';
import { shelfKey } from './shop-trading';
import { TradeDialog, type TradeOffer } from './trade-dialog';

const offer: TradeOffer = {
  side: 'buy',
  shopId: 'shop-1',
  shopName: 'General Store',
  itemId: 'stock-1',
  name: 'Arrow',
  max: 60,
  unitCp: 5,
  characterId: 'character-1',
  containerId: 'container-1',
};

const goldCoins = buildItem({
  id: 'coins-1',
  name: 'Gold piece',
  quantity: 3,
  value_cp: 100,
  item_template: { name: 'Gold piece', stack_size: 0, tags: ['currency'], metadata: {}, coin: 'gp' },
});

function quote(side: 'buy' | 'sell', quantity: number, unit: number) {
  return success({
    item_instance_id: 'stock-1',
    name: 'Arrow',
    quantity,
    unit_price_cp: unit,
    total_price_cp: unit * quantity,
    formatted: '',
    has_own_price: false,
    discount_rate: 0,
    modifier: side === 'buy' ? 1 : 0.5,
  });
}

const purse = (gp: number) => ({ cp: 0, sp: 0, ep: 0, gp, pp: 0 });

/** The shop with `quantity` arrows left in the offered stack (none: it is gone). */
const arrowShop = (quantity: number, overrides: Parameters<typeof buildShopInstance>[0] = {}) => {
  const shop = buildShopInstance(overrides);
  const arrows = quantity > 0 ? [buildStockItem({ name: 'Arrow', quantity, buy_price_cp: 5 })] : [];
  return { ...shop, container: { ...shop.container, item_instances: arrows } };
};

/** The shop at the network boundary: quotes at `unitCp` (5 cp) an arrow, 3 gp in the buyer's purse. */
function mockShop(
  purchase: () => Response,
  shop: ShopInstance | (() => ShopInstance) = arrowShop(60),
  unitCp = 5,
) {
  return mockFetch(({ url, init }) => {
    const { pathname, searchParams } = new URL(url, 'http://test');
    if (init.method !== 'POST' && pathname === '/api/v1/shop_instances/shop-1')
      return success(typeof shop === 'function' ? shop() : shop);
    if (pathname.includes('/calculate_buy_price/'))
      return quote('buy', Number(searchParams.get('quantity')), unitCp);
    if (pathname.includes('/calculate_sell_price/'))
      return quote('sell', Number(searchParams.get('quantity')), 2);
    if (pathname === '/api/v1/containers/container-1/items') return success([goldCoins]);
    if (init.method === 'POST' && pathname === '/api/v1/shop_instances/shop-1/purchase') return purchase();
    return failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${pathname}`);
  });
}

const purchaseBody = (fetchMock: ReturnType<typeof mockFetch>) => {
  const call = fetchMock.mock.calls.find(
    ([url, init]) => init?.method === 'POST' && String(url).endsWith('/purchase'),
  );
  return call?.[1]?.body === undefined ? undefined : JSON.parse(String(call[1].body));
};

const quotesAsked = (fetchMock: ReturnType<typeof mockFetch>) =>
  fetchMock.mock.calls.filter(([url]) => String(url).includes('/calculate_buy_price/')).length;

const outOfStockToasts = () =>
  useUiStore
    .getState()
    .toasts.filter((t) => t.kind === 'error' && t.message === 'This item is out of stock.');

// The UI store keeps toasts for the whole run (no toasts component here to close them, files share modules):
// a test counting them starts with none, and the next file finds none of this one's.
beforeEach(() => useUiStore.setState({ toasts: [] }));
afterEach(() => useUiStore.setState({ toasts: [] }));

/** A shop whose shelf holds one dagger per id, a line of them at 5 cp each. */
function daggers(ids: string[]) {
  const shop = buildShopInstance();
  const stock = ids.map((id) => buildStockItem({ id, name: 'Dagger', quantity: 1, buy_price_cp: 5 }));
  return { ...shop, container: { ...shop.container, item_instances: stock } };
}

/** The shelf line the daggers sit on. */
const daggerLine = shelfKey(buildStockItem({ name: 'Dagger', quantity: 1, buy_price_cp: 5 }));

describe('TradeDialog', () => {
  it('says a purchase held for approval pays once approved, and that every one waits when the threshold is 0', async () => {
    mockShop(() => failure(500, 'INTERNAL_ERROR', 'not asked'), arrowShop(60, { approval_threshold_cp: 0 }));
    renderWithProviders(<TradeDialog offer={offer} onClose={() => {}} />);
    const dialog = await screen.findByRole('dialog', { name: 'Buy Arrow' });
    expect(await within(dialog).findByTestId('trade-needs-approval')).toHaveTextContent(
      "Every purchase here waits for the GM's approval. The goods are held for you and nothing is paid until then.",
    );
    expect(await within(dialog).findByTestId('trade-change')).toHaveTextContent(
      'Once approved, you hand over 1 gp and get 9 sp 5 cp back.',
    );
  });

  it('shows the shop’s price, my coins and my change before I confirm, then buys that many', async () => {
    const fetchMock = mockShop(() =>
      success({
        kind: 'purchase',
        message: 'Purchase complete',
        quantity: 20,
        unit_price_cp: 5,
        total_price_cp: 100,
        paid: purse(1),
        change: purse(0),
        received: purse(0),
        item_instances: [],
        transaction_ids: ['t-1'],
      }),
    );
    const onClose = vi.fn();
    const user = userEvent.setup();
    renderWithProviders(<TradeDialog offer={offer} onClose={onClose} />);
    const dialog = await screen.findByRole('dialog', { name: 'Buy Arrow' });
    expect(await within(dialog).findByRole('button', { name: 'Buy for 5 cp' })).toBeInTheDocument();
    expect(await within(dialog).findByText('3 gp')).toBeInTheDocument();
    expect(within(dialog).getByTestId('trade-change')).toHaveTextContent(
      'You hand over 1 gp and get 9 sp 5 cp back.',
    );
    // Nothing is bought before I confirm.
    expect(purchaseBody(fetchMock)).toBeUndefined();

    fireEvent.change(within(dialog).getByRole('textbox', { name: /Quantity/ }), { target: { value: '20' } });
    expect(await within(dialog).findByRole('button', { name: 'Buy for 1 gp' })).toBeInTheDocument();
    expect(within(dialog).getByTestId('trade-total')).toHaveTextContent('1 gp');
    expect(within(dialog).getByTestId('trade-change')).toHaveTextContent('You hand over 1 gp.');
    await waitFor(() =>
      expect(
        fetchMock.mock.calls.some(([url]) => String(url).includes('calculate_buy_price/stock-1?quantity=20')),
      ).toBe(true),
    );

    await user.click(within(dialog).getByRole('button', { name: 'Buy for 1 gp' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(purchaseBody(fetchMock)).toEqual({
      purchase: {
        item_instance_id: 'stock-1',
        quantity: 20,
        buyer_character_id: 'character-1',
        buyer_container_id: 'container-1',
        payment_source: 'character',
        expected_unit_price_cp: 5,
      },
    });
    expect(useUiStore.getState().toasts.at(-1)).toMatchObject({
      kind: 'success',
      message: 'Purchase complete: 20 × Arrow for 1 gp. Paid 1 gp.',
    });
  }, 20_000);

  it('says when the GM changed the price while it was open, and buys only once the new price is accepted', async () => {
    let unitCp = 5;
    const fetchMock = mockFetch(({ url, init }) => {
      const { pathname, searchParams } = new URL(url, 'http://test');
      if (init.method !== 'POST' && pathname === '/api/v1/shop_instances/shop-1')
        return success(arrowShop(60));
      if (pathname.includes('/calculate_buy_price/'))
        return quote('buy', Number(searchParams.get('quantity')), unitCp);
      if (pathname === '/api/v1/containers/container-1/items') return success([goldCoins]);
      if (init.method === 'POST' && pathname.endsWith('/purchase'))
        return success({
          kind: 'purchase',
          message: 'Purchase complete',
          quantity: 2,
          unit_price_cp: 50,
          total_price_cp: 100,
          paid: purse(1),
          change: purse(0),
          received: purse(0),
          item_instances: [],
          transaction_ids: ['t-1'],
        });
      return failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${pathname}`);
    });
    const onClose = vi.fn();
    const user = userEvent.setup();
    renderWithProviders(<TradeDialog offer={offer} onClose={onClose} />);
    const dialog = await screen.findByRole('dialog', { name: 'Buy Arrow' });
    expect(await within(dialog).findByRole('button', { name: 'Buy for 5 cp' })).toBeInTheDocument();

    // The GM reprices the arrows tenfold; the next quote (two arrows) says so.
    unitCp = 50;
    fireEvent.change(within(dialog).getByRole('textbox', { name: /Quantity/ }), { target: { value: '2' } });
    expect(await within(dialog).findByTestId('trade-repriced')).toHaveTextContent(
      'The price has changed from 5 cp to 5 sp each. Accept the new price to buy at it.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Accept the new price' }));
    expect(purchaseBody(fetchMock)).toBeUndefined();
    expect(within(dialog).queryByTestId('trade-repriced')).toBeNull();

    await user.click(within(dialog).getByRole('button', { name: 'Buy for 1 gp' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(purchaseBody(fetchMock).purchase).toMatchObject({ quantity: 2, expected_unit_price_cp: 50 });
  }, 20_000);

  it('shows no total or change for a quantity out of range, and a typed number replaces the 1 it opens with', async () => {
    mockShop(() => failure(500, 'INTERNAL_SERVER_ERROR', 'boom'));
    const user = userEvent.setup();
    renderWithProviders(<TradeDialog offer={offer} onClose={() => undefined} />);
    const dialog = await screen.findByRole('dialog', { name: 'Buy Arrow' });
    expect(await within(dialog).findByRole('button', { name: 'Buy for 5 cp' })).toBeInTheDocument();
    const field = within(dialog).getByRole('textbox', { name: /Quantity/ });
    // The dialog opens with the keyboard in the field (data-autofocus).
    await waitFor(() => expect(field).toHaveFocus());
    await user.keyboard('3');
    expect(field).toHaveValue('3');
    await user.clear(field);
    await user.keyboard('999');
    // Leaving the field keeps what was typed (it was brought down to the most in stock, unsaid).
    await user.tab();
    expect(field).toHaveValue('999');
    expect(within(dialog).getByText('Enter a whole number in range')).toBeInTheDocument();
    expect(within(dialog).getByTestId('trade-total')).toHaveTextContent('—');
    expect(within(dialog).queryByTestId('trade-change')).toBeNull();
    expect(within(dialog).getByRole('button', { name: 'Buy' })).toBeDisabled();
  }, 20_000);

  it('warns when my coins do not cover the total, and offers no purchase until they do', async () => {
    mockShop(() => failure(500, 'INTERNAL_SERVER_ERROR', 'boom'), arrowShop(100));
    renderWithProviders(<TradeDialog offer={{ ...offer, max: 100 }} onClose={() => undefined} />);
    const dialog = await screen.findByRole('dialog', { name: 'Buy Arrow' });
    await within(dialog).findByText('3 gp');
    // 61 arrows at 5 cp are 3 gp 5 cp; the purse holds 3 gp.
    fireEvent.change(within(dialog).getByRole('textbox', { name: /Quantity/ }), { target: { value: '61' } });
    expect(await within(dialog).findByTestId('trade-short')).toHaveTextContent(
      'Not enough coins: 5 cp more is needed.',
    );
    // Nothing to send that the shop would not refuse; one arrow fewer is affordable again.
    expect(await within(dialog).findByRole('button', { name: 'Buy for 3 gp 5 cp' })).toBeDisabled();
    fireEvent.change(within(dialog).getByRole('textbox', { name: /Quantity/ }), { target: { value: '60' } });
    expect(await within(dialog).findByRole('button', { name: 'Buy for 3 gp' })).toBeEnabled();
  }, 20_000);

  /** The shop's page: its Buy opens the dialog once my coins are counted, as the trader panel shows them. */
  function ShopPage({ trade }: { trade: TradeOffer }) {
    const [open, setOpen] = useState<TradeOffer | null>(null);
    const coins = useQuery(containerCoinsQuery('container-1'));
    return (
      <>
        <button type="button" disabled={!coins.data} onClick={() => setOpen(trade)}>
          Buy on the page
        </button>
        <button type="button">Next on the page</button>
        <TradeDialog offer={open} onClose={() => setOpen(null)} />
      </>
    );
  }

  it.each([
    ['with a quantity field, on it', 60, /Quantity/],
    ['of a single item, on its first enabled control', 1, /Close/],
  ])(
    'keeps the keyboard in the dialog when my coins do not cover the price: %s',
    async (_case, max, focused) => {
      // 4 gp an arrow; the purse holds 3 gp: the buy button is disabled from the start.
      mockShop(() => failure(500, 'INTERNAL_SERVER_ERROR', 'boom'), arrowShop(max), 400);
      const user = userEvent.setup();
      renderWithProviders(<ShopPage trade={{ ...offer, max, unitCp: 400 }} />);
      const opener = screen.getByRole('button', { name: 'Buy on the page' });
      await waitFor(() => expect(opener).toBeEnabled());
      await user.click(opener);
      const dialog = await screen.findByRole('dialog', { name: 'Buy Arrow' });
      expect(within(dialog).getByTestId('trade-short')).toBeInTheDocument();
      expect(within(dialog).getByRole('button', { name: 'Buy for 4 gp' })).toBeDisabled();
      await waitFor(() => expect(dialog).toContainElement(document.activeElement as HTMLElement));
      expect(document.activeElement).toHaveAccessibleName(focused);
      for (let press = 0; press < 5; press += 1) {
        await user.tab();
        expect(dialog).toContainElement(document.activeElement as HTMLElement);
      }
    },
    20_000,
  );

  it.each([
    [
      'INSUFFICIENT_FUNDS',
      422,
      'Not enough coins: 2 gp more is needed.',
      'Not enough coins: 2 gp more is needed.',
    ],
    ['ITEM_OUT_OF_STOCK', 409, 'Only 2 left in stock.', 'Only 2 left in stock.'],
    ['SHOP_CLOSED', 409, 'This shop is closed.', 'This shop is closed.'],
    ['CAPACITY_EXCEEDED', 422, 'Item(s) would exceed weight limit', 'Item(s) would exceed weight limit'],
    // Any other refusal (4xx) says the server's own sentence: "try again" would not help.
    ['FORBIDDEN', 403, 'You cannot do that', 'You cannot do that'],
    ['INTERNAL_SERVER_ERROR', 500, 'boom', 'The purchase could not be completed. Please try again.'],
  ])(
    'a refused purchase (%s) says why in the dialog, once',
    async (code, status, serverMessage, shown) => {
      mockShop(() => failure(status, code, serverMessage));
      const onClose = vi.fn();
      const user = userEvent.setup();
      renderWithProviders(<TradeDialog offer={offer} onClose={onClose} />);
      const dialog = await screen.findByRole('dialog', { name: 'Buy Arrow' });
      await user.click(await within(dialog).findByRole('button', { name: 'Buy for 5 cp' }));
      expect(await within(dialog).findByTestId('trade-error')).toHaveTextContent(shown);
      // An error shows once: in the dialog, not in a toast as well.
      expect(useUiStore.getState().toasts.map((t) => t.message)).not.toContain(shown);
      expect(onClose).not.toHaveBeenCalled();
    },
    20_000,
  );

  it('drops a refusal for my role once the shop says I may trade again', async () => {
    // Live review: made observer, the buyer was refused; made player again, the open dialog still said so.
    let canTrade = true;
    mockShop(
      () => failure(403, 'FORBIDDEN', shopMessages.observerCannotTrade),
      () => arrowShop(60, { can_trade: canTrade }),
    );
    const user = userEvent.setup();
    const { queryClient: client } = renderWithProviders(<TradeDialog offer={offer} onClose={vi.fn()} />);
    const dialog = await screen.findByRole('dialog', { name: 'Buy Arrow' });
    await user.click(await within(dialog).findByRole('button', { name: 'Buy for 5 cp' }));
    expect(await within(dialog).findByTestId('trade-error')).toHaveTextContent(
      shopMessages.observerCannotTrade,
    );
    // The role change reaches the shop (a live event refreshes it): still an observer, the refusal stands.
    canTrade = false;
    await client.invalidateQueries({ queryKey: shopKeys.instance('shop-1') });
    await waitFor(() =>
      expect(client.getQueryData<ShopInstance>(shopKeys.instance('shop-1'))?.can_trade).toBe(false),
    );
    expect(within(dialog).getByTestId('trade-error')).toBeInTheDocument();
    // A player again: the refusal is old news.
    canTrade = true;
    await client.invalidateQueries({ queryKey: shopKeys.instance('shop-1') });
    await waitFor(() => expect(within(dialog).queryByTestId('trade-error')).not.toBeInTheDocument());
    expect(within(dialog).getByRole('button', { name: 'Buy for 5 cp' })).toBeEnabled();
  }, 20_000);

  it('drops the archived party’s refusal once the party is unarchived', async () => {
    let archived = true;
    mockFetch(({ url, init }) => {
      const { pathname, searchParams } = new URL(url, 'http://test');
      if (pathname === '/api/v1/parties/party-1')
        return success(buildParty({ id: 'party-1', is_archived: archived }));
      if (init.method !== 'POST' && pathname === '/api/v1/shop_instances/shop-1')
        return success(arrowShop(60));
      if (pathname.includes('/calculate_buy_price/'))
        return quote('buy', Number(searchParams.get('quantity')), 5);
      if (pathname === '/api/v1/containers/container-1/items') return success([goldCoins]);
      if (init.method === 'POST' && pathname === '/api/v1/shop_instances/shop-1/purchase')
        return failure(403, 'FORBIDDEN', partyMessages.archived);
      return failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${pathname}`);
    });
    const user = userEvent.setup();
    const { queryClient: client } = renderWithProviders(<TradeDialog offer={offer} onClose={vi.fn()} />);
    const dialog = await screen.findByRole('dialog', { name: 'Buy Arrow' });
    await user.click(await within(dialog).findByRole('button', { name: 'Buy for 5 cp' }));
    expect(await within(dialog).findByTestId('trade-error')).toHaveTextContent(partyMessages.archived);
    await waitFor(() =>
      expect(client.getQueryData<Party>(partyKeys.detail('party-1'))?.is_archived).toBe(true),
    );
    archived = false;
    await client.invalidateQueries({ queryKey: partyKeys.detail('party-1') });
    await waitFor(() => expect(within(dialog).queryByTestId('trade-error')).not.toBeInTheDocument());
  }, 20_000);

  it('names the container that cannot carry a purchase, and says another can be chosen', async () => {
    const pouch = buildContainer({
      id: 'container-1',
      name: 'Belt Pouch',
      owner: { type: 'character', id: 'character-1', name: 'Pip' },
      character_id: 'character-1',
    });
    mockFetch(({ url, init }) => {
      const { pathname, searchParams } = new URL(url, 'http://test');
      if (pathname === '/api/v1/characters/character-1/containers') return success([pouch]);
      if (init.method !== 'POST' && pathname === '/api/v1/shop_instances/shop-1')
        return success(arrowShop(60));
      if (pathname.includes('/calculate_buy_price/'))
        return quote('buy', Number(searchParams.get('quantity')), 5);
      if (pathname === '/api/v1/containers/container-1/items') return success([goldCoins]);
      if (init.method === 'POST' && pathname.endsWith('/purchase'))
        return failure(422, 'CAPACITY_EXCEEDED', 'Item(s) would exceed weight limit');
      return failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${pathname}`);
    });
    const user = userEvent.setup();
    renderWithProviders(<TradeDialog offer={offer} onClose={vi.fn()} />);
    const dialog = await screen.findByRole('dialog', { name: 'Buy Arrow' });
    await user.click(await within(dialog).findByRole('button', { name: 'Buy for 5 cp' }));
    const error = await within(dialog).findByTestId('trade-error');
    // The spec's message stays; the line under it says which container is full and what to do.
    expect(error).toHaveTextContent('Item(s) would exceed weight limit');
    expect(
      await within(error).findByText(
        'Belt Pouch cannot carry it: choose another container to carry it into.',
      ),
    ).toBeInTheDocument();
  });

  it('follows the stack while open: fewer in stock, then none, which closes it and says so once', async () => {
    let left = 60;
    const onClose = vi.fn();
    const fetchMock = mockShop(
      () => failure(500, 'INTERNAL_SERVER_ERROR', 'boom'),
      () => arrowShop(left),
    );
    const { queryClient: client } = renderWithProviders(<TradeDialog offer={offer} onClose={onClose} />);
    const dialog = await screen.findByRole('dialog', { name: 'Buy Arrow' });
    expect(await within(dialog).findByText('General Store has 60 in stock.')).toBeInTheDocument();
    await within(dialog).findByRole('button', { name: 'Buy for 5 cp' });
    expect(quotesAsked(fetchMock)).toBe(1);
    // Another player buys 59 (a live event refreshes the shop): its price is asked again.
    left = 1;
    await client.invalidateQueries({ queryKey: shopKeys.instance('shop-1') });
    expect(await within(dialog).findByText('General Store has 1 in stock.')).toBeInTheDocument();
    expect(within(dialog).queryByRole('textbox', { name: /Quantity/ })).not.toBeInTheDocument();
    await waitFor(() => expect(quotesAsked(fetchMock)).toBe(2));
    // And then the last one: nobody asks the price of a stack that is gone.
    left = 0;
    await client.invalidateQueries({ queryKey: shopKeys.instance('shop-1') });
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(quotesAsked(fetchMock)).toBe(2);
    expect(outOfStockToasts()).toHaveLength(1);
  }, 20_000);

  it('buys along a shelf line of items that do not stack, and follows the line when my dagger sells', async () => {
    let onShelf = ['dagger-1', 'dagger-2', 'dagger-3'];
    const fetchMock = mockShop(
      () => failure(500, 'INTERNAL_SERVER_ERROR', 'boom'),
      () => daggers(onShelf),
    );
    const user = userEvent.setup();
    const dagger = { ...offer, itemId: 'dagger-1', shelf: daggerLine, name: 'Dagger', max: 3 };
    const { queryClient: client } = renderWithProviders(
      <TradeDialog offer={dagger} onClose={() => undefined} />,
    );
    const dialog = await screen.findByRole('dialog', { name: 'Buy Dagger' });
    expect(await within(dialog).findByText('General Store has 3 in stock.')).toBeInTheDocument();
    const quantity = within(dialog).getByRole('textbox', { name: /Quantity/ });
    expect(within(dialog).getByText('1 to 3')).toBeInTheDocument();
    // Another player buys the dagger this dialog was opened on: the two left on its line stay on offer.
    onShelf = ['dagger-2', 'dagger-3'];
    await client.invalidateQueries({ queryKey: shopKeys.instance('shop-1') });
    expect(await within(dialog).findByText('General Store has 2 in stock.')).toBeInTheDocument();
    fireEvent.change(quantity, { target: { value: '2' } });
    await user.click(await within(dialog).findByRole('button', { name: 'Buy for 1 sp' }));
    await waitFor(() => expect(purchaseBody(fetchMock)).toBeDefined());
    expect(purchaseBody(fetchMock).purchase).toMatchObject({ item_instance_id: 'dagger-2', quantity: 2 });
    // Its price is asked of the dagger still there, not of the one that is gone.
    await waitFor(() =>
      expect(fetchMock.mock.calls.some(([url]) => String(url).includes('calculate_buy_price/dagger-2'))).toBe(
        true,
      ),
    );
  }, 20_000);

  it('sends an unanswered purchase again unchanged, so a dagger bought without an answer is not bought twice', async () => {
    // Signed in: changes carry an Idempotency-Key.
    tokenStorage.setTokens(buildTokens());
    let onShelf = ['dagger-1', 'dagger-2'];
    let answered = false;
    const fetchMock = mockShop(
      () => {
        // The first purchase is made, but no answer reaches the phone (nor that of its automatic resend).
        onShelf = ['dagger-2'];
        if (!answered) throw new TypeError('Failed to fetch');
        return success({
          kind: 'purchase',
          message: 'Purchase complete',
          quantity: 1,
          unit_price_cp: 5,
          total_price_cp: 5,
          paid: purse(0),
          change: purse(0),
          received: purse(0),
          item_instances: [],
          transaction_ids: ['t-1'],
        });
      },
      () => daggers(onShelf),
    );
    const onClose = vi.fn();
    const user = userEvent.setup();
    const dagger = { ...offer, itemId: 'dagger-1', shelf: daggerLine, name: 'Dagger', max: 2 };
    const { queryClient: client } = renderWithProviders(<TradeDialog offer={dagger} onClose={onClose} />);
    const dialog = await screen.findByRole('dialog', { name: 'Buy Dagger' });
    await user.click(await within(dialog).findByRole('button', { name: 'Buy for 5 cp' }));
    expect(await within(dialog).findByTestId('trade-error', {}, { timeout: 5_000 })).toHaveTextContent(
      'No answer came from the shop: the purchase may have gone through. Press Buy again to find out; it will not buy twice.',
    );
    // Live, the shelf shows the dagger gone: the next one on its line is on offer now.
    await client.invalidateQueries({ queryKey: shopKeys.instance('shop-1') });
    expect(await within(dialog).findByText('General Store has 1 in stock.')).toBeInTheDocument();
    answered = true;
    await user.click(await within(dialog).findByRole('button', { name: 'Buy for 5 cp' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const purchases = fetchMock.mock.calls
      .filter(([url, init]) => init?.method === 'POST' && String(url).endsWith('/purchase'))
      .map(([, init]) => ({
        item: JSON.parse(String(init?.body)).purchase.item_instance_id,
        key: new Headers(init?.headers).get('Idempotency-Key'),
      }));
    // The first attempt, its resend, and the press again: one purchase, one key, the same dagger.
    expect(purchases).toHaveLength(3);
    expect(new Set(purchases.map((p) => p.item))).toEqual(new Set(['dagger-1']));
    expect(new Set(purchases.map((p) => p.key)).size).toBe(1);
  }, 20_000);

  it('says so when the stock falls below the quantity asked for, and asks for what is left', async () => {
    let onShelf = ['dagger-1', 'dagger-2', 'dagger-3'];
    mockShop(
      () => failure(500, 'INTERNAL_SERVER_ERROR', 'boom'),
      () => daggers(onShelf),
    );
    const dagger = { ...offer, itemId: 'dagger-1', shelf: daggerLine, name: 'Dagger', max: 3 };
    const { queryClient: client } = renderWithProviders(
      <TradeDialog offer={dagger} onClose={() => undefined} />,
    );
    const dialog = await screen.findByRole('dialog', { name: 'Buy Dagger' });
    expect(await within(dialog).findByText('General Store has 3 in stock.')).toBeInTheDocument();
    fireEvent.change(within(dialog).getByRole('textbox', { name: /Quantity/ }), { target: { value: '3' } });
    onShelf = ['dagger-2', 'dagger-3'];
    await client.invalidateQueries({ queryKey: shopKeys.instance('shop-1') });
    expect(await within(dialog).findByTestId('trade-stock-fell')).toHaveTextContent(
      'Only 2 left now: someone else just bought some. You had asked for 3.',
    );
    expect(within(dialog).getByRole('textbox', { name: /Quantity/ })).toHaveValue('2');
    // Changing the number again is the buyer's own answer: the note goes.
    fireEvent.change(within(dialog).getByRole('textbox', { name: /Quantity/ }), { target: { value: '1' } });
    expect(within(dialog).queryByTestId('trade-stock-fell')).not.toBeInTheDocument();
  }, 20_000);

  it('opens the next offer even when the last trade bought out the stack it was for', async () => {
    const onClose = vi.fn();
    // The shop now holds only the second stack: the first (a backpack, say) was the one just bought.
    const next = buildStockItem({ id: 'stock-2', name: 'Arrow', quantity: 20, buy_price_cp: 5 });
    const shop = buildShopInstance();
    mockShop(
      () => failure(500, 'INTERNAL_SERVER_ERROR', 'boom'),
      () => ({ ...shop, container: { ...shop.container, item_instances: [next] } }),
    );
    const offers = [
      { ...offer, itemId: 'stock-gone', name: 'Backpack', max: 1 },
      null,
      { ...offer, itemId: 'stock-2', max: 20 },
    ];
    function Harness() {
      const [step, setStep] = useState(0);
      return (
        <>
          <button type="button" onClick={() => setStep((n) => n + 1)}>
            next offer
          </button>
          <TradeDialog offer={offers[step] ?? null} onClose={onClose} />
        </>
      );
    }
    renderWithProviders(<Harness />);
    await screen.findByRole('dialog', { name: 'Buy Backpack' });
    await waitFor(() => expect(screen.getByText('Buy for 5 cp')).toBeInTheDocument());
    fireEvent.click(screen.getByText('next offer'));
    onClose.mockClear();
    useUiStore.setState({ toasts: [] });
    fireEvent.click(screen.getByText('next offer'));
    const dialog = await screen.findByRole('dialog', { name: 'Buy Arrow' });
    expect(await within(dialog).findByRole('button', { name: 'Buy for 5 cp' })).toBeEnabled();
    expect(onClose).not.toHaveBeenCalled();
    expect(outOfStockToasts()).toHaveLength(0);
  }, 20_000);

  it('buys the next offer while the last purchase is still refreshing the shop', async () => {
    // CI's shops e2e: the Backpack bought, the Arrow dialog opened before the shop's refresh after that
    // purchase had come back, and its Buy sent nothing, ever after (the press waited for a trade that the
    // new offer had let go of).
    let refreshed = () => {};
    const shopAfterPurchase = new Promise<void>((resolve) => {
      refreshed = resolve;
    });
    let bought = 0;
    const fetchMock = mockShop(() => {
      bought += 1;
      return success({
        kind: 'purchase',
        message: 'Purchase complete',
        quantity: 1,
        unit_price_cp: 5,
        total_price_cp: 5,
        paid: purse(1),
        change: purse(0),
        received: purse(0),
        item_instances: [],
        transaction_ids: [`t-${bought}`],
      });
    }, arrowShop(60));
    const answer = fetchMock.getMockImplementation();
    fetchMock.mockImplementation(async (input, init = {}) => {
      const refresh =
        bought === 1 && init.method !== 'POST' && String(input).endsWith('/shop_instances/shop-1');
      if (refresh) await shopAfterPurchase;
      return answer ? answer(input, init) : failure(500, 'INTERNAL_ERROR', 'no fake');
    });
    function Page() {
      const [open, setOpen] = useState<TradeOffer | null>(offer);
      return (
        <>
          <button type="button" onClick={() => setOpen({ ...offer })}>
            Buy Arrow again
          </button>
          <TradeDialog offer={open} onClose={() => setOpen(null)} />
        </>
      );
    }
    renderWithProviders(<Page />);
    const first = await screen.findByRole('dialog', { name: 'Buy Arrow' });
    fireEvent.click(await within(first).findByRole('button', { name: 'Buy for 5 cp' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    fireEvent.click(screen.getByRole('button', { name: 'Buy Arrow again' }));
    const second = await screen.findByRole('dialog', { name: 'Buy Arrow' });
    const buy = await within(second).findByRole('button', { name: 'Buy for 5 cp' });
    await waitFor(() => expect(buy).toBeEnabled());
    fireEvent.click(buy);
    await waitFor(() => expect(bought).toBe(2));
    refreshed();
  }, 20_000);

  it('closes a purchase lost to another buyer and says why once', async () => {
    let bought = false;
    const onClose = vi.fn();
    const user = userEvent.setup();
    mockShop(
      () => {
        bought = true;
        return failure(422, 'ITEM_OUT_OF_STOCK', 'This item is out of stock.');
      },
      () => arrowShop(bought ? 0 : 1),
    );
    renderWithProviders(<TradeDialog offer={{ ...offer, max: 1 }} onClose={onClose} />);
    const dialog = await screen.findByRole('dialog', { name: 'Buy Arrow' });
    await user.click(await within(dialog).findByRole('button', { name: 'Buy for 5 cp' }));
    await waitFor(() => expect(onClose).toHaveBeenCalledTimes(1));
    expect(outOfStockToasts()).toHaveLength(1);
  }, 20_000);

  it('asks for what is left when another buyer takes some first, instead of a Buy that stays off', async () => {
    let left = 4;
    const user = userEvent.setup();
    mockShop(
      () => {
        left = 1;
        return failure(409, 'ITEM_OUT_OF_STOCK', 'Only 1 left in stock.');
      },
      () => arrowShop(left),
    );
    renderWithProviders(<TradeDialog offer={{ ...offer, max: 4 }} onClose={vi.fn()} />);
    const dialog = await screen.findByRole('dialog', { name: 'Buy Arrow' });
    const field = await within(dialog).findByRole('textbox', { name: /Quantity/ });
    await user.clear(field);
    await user.type(field, '2');
    await user.click(await within(dialog).findByRole('button', { name: 'Buy for 1 sp' }));
    expect(await within(dialog).findByTestId('trade-error')).toHaveTextContent(/^Only 1 left in stock\.$/);
    // Down to one: no field to lower the quantity, so the dialog lowers it, and the last one can be bought.
    expect(await within(dialog).findByText('General Store has 1 in stock.')).toBeInTheDocument();
    expect(await within(dialog).findByRole('button', { name: 'Buy for 5 cp' })).toBeEnabled();
  }, 20_000);

  it('says the shop closed while the dialog was open, and offers no purchase', async () => {
    let open = true;
    mockShop(
      () => failure(500, 'INTERNAL_SERVER_ERROR', 'boom'),
      () => arrowShop(60, { is_active: open }),
    );
    const { queryClient: client } = renderWithProviders(<TradeDialog offer={offer} onClose={vi.fn()} />);
    const dialog = await screen.findByRole('dialog', { name: 'Buy Arrow' });
    expect(await within(dialog).findByRole('button', { name: 'Buy for 5 cp' })).toBeEnabled();
    open = false;
    await client.invalidateQueries({ queryKey: shopKeys.instance('shop-1') });
    expect(await within(dialog).findByTestId('trade-shop-closed')).toHaveTextContent('This shop is closed.');
    expect(within(dialog).getByRole('button', { name: 'Buy for 5 cp' })).toBeDisabled();
    // Nothing left to fill in: the quantity is drawn as off, as the button is.
    expect(within(dialog).getByRole('textbox', { name: /Quantity/ })).toBeDisabled();
  }, 20_000);

  it('shows a long item name whole in its title, wrapping, not past the dialog’s edge (screen sweep)', async () => {
    // A name of one 125-letter word ran 1,100 px past the Sell dialog's right edge on a phone, and a long
    // name of many words set its lines at Mantine's line height of 1, descenders on the next line's capitals.
    const name = `Sword${'N'.repeat(120)}`;
    mockShop(() => failure(500, 'INTERNAL_SERVER_ERROR', 'boom'));
    renderWithProviders(
      <TradeDialog offer={{ ...offer, side: 'sell', name, max: 1, unitCp: 2 }} onClose={() => undefined} />,
    );
    const dialog = await screen.findByRole('dialog', { name: `Sell ${name}` });
    const title = within(dialog).getByTestId('trade-dialog-title');
    expect(title).toHaveTextContent(`Sell ${name}`);
    expect(title.style.overflowWrap).toBe('anywhere');
    expect(title.style.lineHeight).toBe('1.3');
  }, 20_000);

  it('a sale waits for the shop’s price before it can be confirmed', async () => {
    mockShop(() => failure(500, 'INTERNAL_SERVER_ERROR', 'boom'));
    renderWithProviders(
      <TradeDialog offer={{ ...offer, side: 'sell', max: 1, unitCp: null }} onClose={() => undefined} />,
    );
    const dialog = await screen.findByRole('dialog', { name: 'Sell Arrow' });
    expect(within(dialog).queryByRole('textbox', { name: /Quantity/ })).not.toBeInTheDocument();
    expect(await within(dialog).findByRole('button', { name: 'Sell for 2 cp' })).toBeEnabled();
    expect(within(dialog).queryByText('Your coins')).not.toBeInTheDocument();
  }, 20_000);

  it('says so before I sell something the shop pays nothing for, and offers no sale for 0 cp', async () => {
    // Torches at 1 cp, half price: the shop rounds down once for the line, and refuses a sale worth 0 cp.
    mockFetch(({ url }) => {
      const { pathname, searchParams } = new URL(url, 'http://test');
      if (pathname === '/api/v1/shop_instances/shop-1') return success(arrowShop(60));
      if (pathname.includes('/calculate_sell_price/')) {
        const quantity = Number(searchParams.get('quantity'));
        if (quantity < 2)
          return failure(422, 'VALIDATION_ERROR', shopSaleMessages.worthlessNoOffer, [
            { field: 'item_instance_id', message: shopSaleMessages.worthlessNoOffer },
          ]);
        return success({
          item_instance_id: 'stock-1',
          name: 'Torch',
          quantity,
          unit_price_cp: 0,
          total_price_cp: Math.floor(quantity / 2),
          formatted: '',
          has_own_price: false,
          discount_rate: 0,
          modifier: 0.5,
        });
      }
      return failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${pathname}`);
    });
    const user = userEvent.setup();
    renderWithProviders(
      <TradeDialog
        offer={{
          ...offer,
          side: 'sell',
          name: 'Torch',
          max: 3,
          unitCp: 0,
        }}
        onClose={() => undefined}
      />,
    );
    const dialog = await screen.findByRole('dialog', { name: 'Sell Torch' });
    expect(await within(dialog).findByTestId('trade-worthless')).toHaveTextContent(
      shopSaleMessages.worthlessNoOffer,
    );
    expect(within(dialog).queryByRole('button', { name: /Sell for/ })).not.toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Sell' })).toBeDisabled();
    expect(dialog).not.toHaveTextContent('could not be checked');
    // Three of them together fetch 1 cp: that sale is offered.
    const field = await within(dialog).findByRole('textbox', { name: /Quantity/ });
    await user.clear(field);
    await user.type(field, '3');
    expect(await within(dialog).findByRole('button', { name: 'Sell for 1 cp' })).toBeEnabled();
    expect(within(dialog).queryByTestId('trade-worthless')).not.toBeInTheDocument();
  }, 20_000);

  it('shows the line total of a sale, rounded down once, and says it is more than the price each times', async () => {
    mockFetch(({ url }) => {
      const { pathname, searchParams } = new URL(url, 'http://test');
      if (pathname === '/api/v1/shop_instances/shop-1') return success(arrowShop(60));
      if (pathname.includes('/calculate_sell_price/')) {
        const quantity = Number(searchParams.get('quantity'));
        return success({
          item_instance_id: 'stock-1',
          name: 'Arrow',
          quantity,
          unit_price_cp: 1,
          total_price_cp: Math.floor((quantity * 5 * 33) / 100),
          formatted: '',
          has_own_price: false,
          discount_rate: 0,
          modifier: 0.33,
        });
      }
      return failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${pathname}`);
    });
    const user = userEvent.setup();
    renderWithProviders(
      <TradeDialog offer={{ ...offer, side: 'sell', max: 20, unitCp: 1 }} onClose={() => undefined} />,
    );
    const dialog = await screen.findByRole('dialog', { name: 'Sell Arrow' });
    const field = await within(dialog).findByRole('textbox', { name: /Quantity/ });
    await user.clear(field);
    await user.type(field, '20');
    expect(await within(dialog).findByRole('button', { name: 'Sell for 3 sp 3 cp' })).toBeEnabled();
    expect(within(dialog).getByTestId('trade-total')).toHaveTextContent('3 sp 3 cp');
    expect(within(dialog).getByTestId('trade-rounded-once')).toHaveTextContent(
      'Rounded down once for all 20, not for each one: 3 sp 3 cp, not 20 × 1 cp.',
    );
  }, 20_000);

  it('says the shop offers nothing for an unpriced item, instead of 0 cp, and offers no sale', async () => {
    const fetchMock = mockFetch(({ url }) => {
      const { pathname } = new URL(url, 'http://test');
      if (pathname === '/api/v1/shop_instances/shop-1') return success(arrowShop(60));
      if (pathname.includes('/calculate_sell_price/'))
        return failure(422, 'VALIDATION_ERROR', shopMessages.unpricedNoOffer, [
          { field: 'item_instance_id', message: shopMessages.unpricedNoOffer },
        ]);
      return failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${pathname}`);
    });
    renderWithProviders(
      <TradeDialog
        offer={{ ...offer, side: 'sell', name: 'Bag of Holding', max: 2, unitCp: null }}
        onClose={() => undefined}
      />,
    );
    const dialog = await screen.findByRole('dialog', { name: 'Sell Bag of Holding' });
    expect(await within(dialog).findByTestId('trade-no-offer')).toHaveTextContent(
      shopMessages.unpricedNoOffer,
    );
    expect(dialog).not.toHaveTextContent('0 cp');
    expect(within(dialog).queryByRole('button', { name: /^Sell/ })).not.toBeInTheDocument();
    expect(within(dialog).queryByRole('textbox', { name: /Quantity/ })).not.toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toBeEnabled();
    expect(fetchMock.mock.calls.some(([url]) => String(url).endsWith('/sell'))).toBe(false);
  }, 20_000);

  it('says why a sale was refused in the server’s words, not "try again": coins are not sold', async () => {
    mockFetch(({ url, init }) => {
      const { pathname, searchParams } = new URL(url, 'http://test');
      if (init.method !== 'POST' && pathname === '/api/v1/shop_instances/shop-1')
        return success(arrowShop(60));
      if (pathname.includes('/calculate_sell_price/'))
        return quote('sell', Number(searchParams.get('quantity')), 2);
      if (init.method === 'POST' && pathname === '/api/v1/shop_instances/shop-1/sell')
        return failure(422, 'VALIDATION_ERROR', 'Please check your input and try again', [
          { field: 'item_instance_id', message: shopMessages.currencyNotSold },
        ]);
      return failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${pathname}`);
    });
    const user = userEvent.setup();
    renderWithProviders(
      <TradeDialog
        offer={{ ...offer, side: 'sell', name: 'Guild Token', max: 1, unitCp: 2 }}
        onClose={() => undefined}
      />,
    );
    const dialog = await screen.findByRole('dialog', { name: 'Sell Guild Token' });
    await user.click(await within(dialog).findByRole('button', { name: 'Sell for 2 cp' }));
    expect(await within(dialog).findByTestId('trade-error')).toHaveTextContent(shopMessages.currencyNotSold);
    expect(within(dialog).queryByText(saleFailed)).not.toBeInTheDocument();
  }, 20_000);

  it('says the shop offers nothing when the sale is refused for it while the dialog was open', async () => {
    mockFetch(({ url, init }) => {
      const { pathname, searchParams } = new URL(url, 'http://test');
      if (init.method !== 'POST' && pathname === '/api/v1/shop_instances/shop-1')
        return success(arrowShop(60));
      if (pathname.includes('/calculate_sell_price/'))
        return quote('sell', Number(searchParams.get('quantity')), 250);
      if (init.method === 'POST' && pathname === '/api/v1/shop_instances/shop-1/sell')
        return failure(422, 'VALIDATION_ERROR', shopMessages.unpricedNoOffer, [
          { field: 'item_instance_id', message: shopMessages.unpricedNoOffer },
        ]);
      return failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${pathname}`);
    });
    const user = userEvent.setup();
    renderWithProviders(
      <TradeDialog
        offer={{ ...offer, side: 'sell', name: 'Bag of Holding', max: 1, unitCp: 250 }}
        onClose={() => undefined}
      />,
    );
    const dialog = await screen.findByRole('dialog', { name: 'Sell Bag of Holding' });
    await user.click(await within(dialog).findByRole('button', { name: 'Sell for 2 gp 5 sp' }));
    expect(await within(dialog).findByTestId('trade-no-offer')).toHaveTextContent(
      shopMessages.unpricedNoOffer,
    );
    expect(within(dialog).queryByRole('button', { name: /^Sell/ })).not.toBeInTheDocument();
  }, 20_000);

  it('says the shop has no price for an unpriced item, instead of 0 cp, and offers no purchase', async () => {
    const notForSale = () =>
      failure(422, 'VALIDATION_ERROR', shopMessages.unpricedNotForSale, [
        { field: 'item_instance_id', message: shopMessages.unpricedNotForSale },
      ]);
    const fetchMock = mockFetch(({ url }) => {
      const { pathname } = new URL(url, 'http://test');
      if (pathname === '/api/v1/shop_instances/shop-1') return success(arrowShop(60));
      if (pathname.includes('/calculate_buy_price/')) return notForSale();
      if (pathname === '/api/v1/containers/container-1/items') return success([goldCoins]);
      return failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${pathname}`);
    });
    renderWithProviders(
      <TradeDialog offer={{ ...offer, name: 'Bag of Holding', unitCp: null }} onClose={() => undefined} />,
    );
    const dialog = await screen.findByRole('dialog', { name: 'Buy Bag of Holding' });
    expect(await within(dialog).findByTestId('trade-no-offer')).toHaveTextContent(
      shopMessages.unpricedNotForSale,
    );
    expect(dialog).not.toHaveTextContent('0 cp');
    expect(within(dialog).queryByRole('button', { name: /^(Buy|Ask)/ })).not.toBeInTheDocument();
    expect(within(dialog).queryByRole('textbox', { name: /Quantity/ })).not.toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toBeEnabled();
    expect(fetchMock.mock.calls.some(([url]) => String(url).endsWith('/purchase'))).toBe(false);
  }, 20_000);

  it('says the shop has no price when the purchase is refused for it while the dialog was open', async () => {
    mockShop(() =>
      failure(422, 'VALIDATION_ERROR', shopMessages.unpricedNotForSale, [
        { field: 'item_instance_id', message: shopMessages.unpricedNotForSale },
      ]),
    );
    const user = userEvent.setup();
    renderWithProviders(
      <TradeDialog offer={{ ...offer, name: 'Bag of Holding' }} onClose={() => undefined} />,
    );
    const dialog = await screen.findByRole('dialog', { name: 'Buy Bag of Holding' });
    await user.click(await within(dialog).findByRole('button', { name: 'Buy for 5 cp' }));
    expect(await within(dialog).findByTestId('trade-no-offer')).toHaveTextContent(
      shopMessages.unpricedNotForSale,
    );
    expect(within(dialog).queryByTestId('trade-error')).not.toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: /^Buy/ })).not.toBeInTheDocument();
  }, 20_000);

  it('pays from the party fund where the shop allows it, and says when the GM must approve first', async () => {
    const request = buildShopRequest({ quantity: 30, total_price_cp: 150, payment_source: 'party' });
    const fetchMock = mockShop(
      () =>
        success({
          kind: 'purchase',
          message: 'Your purchase is waiting for the GM’s approval.',
          quantity: 30,
          unit_price_cp: 5,
          total_price_cp: 150,
          paid: purse(0),
          change: purse(0),
          received: purse(0),
          item_instances: [],
          transaction_ids: [],
          payment_source: 'party',
          request,
        }),
      arrowShop(60, { party_fund_allowed: true, approval_threshold_cp: 100 }),
    );
    const onClose = vi.fn();
    const user = userEvent.setup();
    renderWithProviders(<TradeDialog offer={offer} onClose={onClose} />);
    const dialog = await screen.findByRole('dialog', { name: 'Buy Arrow' });
    await user.click(await within(dialog).findByText('Party fund'));
    expect(within(dialog).getByTestId('trade-party-fund')).toBeInTheDocument();
    // The party pays, so my own purse is neither shown nor checked.
    expect(within(dialog).queryByText('Your coins')).not.toBeInTheDocument();
    expect(within(dialog).queryByTestId('trade-needs-approval')).not.toBeInTheDocument();

    fireEvent.change(within(dialog).getByRole('textbox', { name: /Quantity/ }), { target: { value: '30' } });
    expect(await within(dialog).findByTestId('trade-needs-approval')).toHaveTextContent(
      'Over 1 gp: this purchase waits for the GM',
    );
    await user.click(await within(dialog).findByRole('button', { name: 'Ask to buy for 1 gp 5 sp' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(purchaseBody(fetchMock).purchase).toMatchObject({ quantity: 30, payment_source: 'party' });
    // Nothing was paid yet: the toast says it waits, not that it is bought.
    expect(useUiStore.getState().toasts.at(-1)).toMatchObject({
      kind: 'info',
      message: 'Your purchase is waiting for the GM’s approval. 30 × Arrow.',
    });
  }, 20_000);

  it('shows the party fund’s coins once chosen, and offers no purchase they do not cover', async () => {
    const shop = arrowShop(60, { party_fund_allowed: true });
    const stashGold = { ...goldCoins, id: 'coins-stash', quantity: 2 };
    mockFetch(({ url }) => {
      const { pathname, searchParams } = new URL(url, 'http://test');
      if (pathname === '/api/v1/shop_instances/shop-1') return success(shop);
      if (pathname.includes('/calculate_buy_price/'))
        return quote('buy', Number(searchParams.get('quantity')), 5);
      if (pathname === '/api/v1/containers/container-1/items') return success([goldCoins]);
      if (pathname === `/api/v1/parties/${shop.party_id}/containers`)
        return success([buildContainer({ id: 'stash-1', name: 'Party Stash' })]);
      if (pathname === '/api/v1/containers/stash-1/items') return success([stashGold]);
      return failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${pathname}`);
    });
    const user = userEvent.setup();
    renderWithProviders(<TradeDialog offer={offer} onClose={() => undefined} />);
    const dialog = await screen.findByRole('dialog', { name: 'Buy Arrow' });
    expect(await within(dialog).findByTestId('trade-coins')).toHaveTextContent('3 gp');
    await user.click(within(dialog).getByText('Party fund'));
    await waitFor(() => expect(within(dialog).getByTestId('trade-coins')).toHaveTextContent('2 gp'));
    // The party is one payer: it hands over and gets its change back.
    expect(within(dialog).getByTestId('trade-change')).toHaveTextContent(
      'The party hands over 1 gp and gets 9 sp 5 cp back.',
    );
    fireEvent.change(within(dialog).getByRole('textbox', { name: /Quantity/ }), { target: { value: '20' } });
    await waitFor(() =>
      expect(within(dialog).getByTestId('trade-change')).toHaveTextContent('The party hands over 1 gp.'),
    );
    fireEvent.change(within(dialog).getByRole('textbox', { name: /Quantity/ }), { target: { value: '50' } });
    expect(await within(dialog).findByTestId('trade-short')).toHaveTextContent(
      'Not enough in the party fund: 5 sp more is needed.',
    );
    expect(within(dialog).getByRole('button', { name: 'Buy for 2 gp 5 sp' })).toBeDisabled();
  }, 20_000);

  it('says the party stash paid for a purchase paid from the party fund', async () => {
    const shop = arrowShop(60, { party_fund_allowed: true });
    const stashGold = { ...goldCoins, id: 'coins-stash', quantity: 2 };
    mockFetch(({ url, init }) => {
      const { pathname, searchParams } = new URL(url, 'http://test');
      if (init.method === 'POST' && pathname.endsWith('/purchase'))
        return success({
          kind: 'purchase',
          message: 'Purchase complete',
          quantity: 2,
          unit_price_cp: 5,
          total_price_cp: 10,
          paid: { ...purse(0), sp: 1 },
          change: purse(0),
          received: purse(0),
          item_instances: [],
          transaction_ids: [],
          payment_source: 'party',
        });
      if (pathname === '/api/v1/shop_instances/shop-1') return success(shop);
      if (pathname.includes('/calculate_buy_price/'))
        return quote('buy', Number(searchParams.get('quantity')), 5);
      if (pathname === '/api/v1/containers/container-1/items') return success([goldCoins]);
      if (pathname === `/api/v1/parties/${shop.party_id}/containers`)
        return success([buildContainer({ id: 'stash-1', name: 'Party Stash' })]);
      if (pathname === '/api/v1/containers/stash-1/items') return success([stashGold]);
      return failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${pathname}`);
    });
    const onClose = vi.fn();
    const user = userEvent.setup();
    renderWithProviders(<TradeDialog offer={offer} onClose={onClose} />);
    const dialog = await screen.findByRole('dialog', { name: 'Buy Arrow' });
    await user.click(await within(dialog).findByText('Party fund'));
    await waitFor(() => expect(within(dialog).getByTestId('trade-coins')).toHaveTextContent('2 gp'));
    fireEvent.change(within(dialog).getByRole('textbox', { name: /Quantity/ }), { target: { value: '2' } });
    await user.click(await within(dialog).findByRole('button', { name: 'Buy for 1 sp' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(useUiStore.getState().toasts.at(-1)).toMatchObject({
      kind: 'success',
      message: 'Purchase complete: 2 × Arrow for 1 sp. Paid 1 sp from Party Stash.',
    });
  }, 20_000);

  it('offers no party fund where the shop does not allow it', async () => {
    mockShop(() => failure(500, 'INTERNAL_SERVER_ERROR', 'boom'));
    renderWithProviders(<TradeDialog offer={offer} onClose={() => undefined} />);
    const dialog = await screen.findByRole('dialog', { name: 'Buy Arrow' });
    await within(dialog).findByText('3 gp');
    expect(within(dialog).queryByText('Party fund')).not.toBeInTheDocument();
  }, 20_000);
});
