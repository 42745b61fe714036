import { type ShopInstance, shopMessages } from '@haversack/contracts';
import { useQuery } from '@tanstack/react-query';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { numberFieldMessages } from '../../../components/number-field';
import { useUiStore } from '../../../stores/ui-store';
import { failure, jsonResponse, mockFetch } from '../../../test/fixtures';
import { renderWithProviders } from '../../inventory/test/inventory-fixtures';
import { shopInstanceQuery } from '../api/shops-api';
import { buildShopInstance, buildStockItem, buildTrader } from '../test/shop-fixtures';
import { freeItemWarning } from './gp-amount';
import { ShopStockList } from './shop-trading';

const trader = buildTrader();

/**
 * A shop 10% off with an unpriced Bag of Holding nobody priced (two on the shelf) and Rope at its own
 * 2.5 gp (players pay 2.25 gp).
 */
function shelf(canManage: boolean): ShopInstance {
  const shop = buildShopInstance({
    can_manage: canManage,
    discount_rate: 0.1,
    own_prices_cp: { 'template-rope': 250 },
  });
  const bag = buildStockItem({
    id: 'stock-bag',
    name: 'Bag of Holding',
    item_template_id: 'template-bag',
    item_template: {
      name: 'Bag of Holding',
      stack_size: 1,
      tags: [],
      metadata: { priced: false },
      coin: null,
    },
    value: 0,
    value_cp: 0,
    quantity: 2,
    buy_price_cp: null,
    sell_price_cp: null,
  });
  const rope = buildStockItem({
    id: 'stock-rope',
    name: 'Rope',
    item_template_id: 'template-rope',
    buy_price_cp: 225,
    has_own_price: true,
  });
  return { ...shop, container: { ...shop.container, item_instances: [bag, rope] } };
}

/** The shelf once the GM priced the bag at 10.01 gp: a new line (its price is in its key). */
function pricedShelf(): ShopInstance {
  const shop = shelf(true);
  const [bag, rope] = shop.container.item_instances;
  if (!bag || !rope) throw new Error('the shelf has a bag and a rope');
  return {
    ...shop,
    own_prices_cp: { ...shop.own_prices_cp, 'template-bag': 1001 },
    container: {
      ...shop.container,
      item_instances: [{ ...bag, buy_price_cp: 901, sell_price_cp: 500, has_own_price: true }, rope],
    },
  };
}

/** `answer` answers the PUT of a price; GET answers `shop()`, the shop as it is now. */
function mockServer(answer: (body: unknown) => Response, shop: () => ShopInstance = () => shelf(true)) {
  return mockFetch(({ url, init }) => {
    const { pathname } = new URL(url, 'http://test');
    if (init.method === 'PUT' && pathname.startsWith('/api/v1/shop_instances/shop-1/prices/'))
      return answer(JSON.parse(String(init.body)));
    if (pathname === '/api/v1/shop_instances/shop-1')
      return jsonResponse(200, { status: 'success', data: shop() });
    return failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${pathname}`);
  });
}

/** The list as the shop page shows it: from the shop's query, which a saved price refreshes. */
function LiveList() {
  const query = useQuery(shopInstanceQuery('shop-1'));
  return query.data ? (
    <ShopStockList shop={query.data} trader={trader} tradeOpen={false} onBuy={vi.fn()} />
  ) : null;
}
const priceCalls = (fetchMock: ReturnType<typeof mockFetch>) =>
  fetchMock.mock.calls
    .filter(([, init]) => init?.method === 'PUT')
    .map(([url, init]) => ({
      path: new URL(String(url), 'http://test').pathname,
      body: JSON.parse(String(init?.body)),
    }));
const saved = (message: string) => () => jsonResponse(200, { status: 'success', data: shelf(true), message });

function renderList(canManage: boolean) {
  return renderWithProviders(
    <ShopStockList shop={shelf(canManage)} trader={trader} tradeOpen={false} onBuy={vi.fn()} />,
  );
}

async function openFor(name: string) {
  const user = userEvent.setup();
  await user.click(screen.getByRole('button', { name: `Set price of ${name}` }));
  const dialog = await screen.findByRole('dialog', { name: `Set price: ${name}` });
  return { user, dialog };
}

beforeEach(() => {
  useUiStore.setState({ toasts: [] });
});

describe('Set price on a shelf line', () => {
  it('is offered only to those who run the shop, on every line', () => {
    renderList(false);
    expect(screen.queryByRole('button', { name: /^Set price/ })).not.toBeInTheDocument();
  });

  it('prices an unpriced line: the dialog says it has none, and Save sends the copper', async () => {
    let current = shelf(true);
    const fetchMock = mockServer(
      () => {
        current = pricedShelf();
        return jsonResponse(200, { status: 'success', data: current, message: shopMessages.priceSaved });
      },
      () => current,
    );
    renderWithProviders(<LiveList />);
    expect(await screen.findAllByRole('button', { name: /^Set price of / })).toHaveLength(2);
    const { user, dialog } = await openFor('Bag of Holding');
    expect(within(dialog).getByTestId('set-price-current')).toHaveTextContent(
      'It has no price here yet: players can neither buy it nor sell one to the shop.',
    );
    // Nothing to clear.
    expect(within(dialog).queryByRole('button', { name: 'Clear own price' })).not.toBeInTheDocument();
    const input = within(dialog).getByRole('textbox', { name: 'Own price (gp)' });
    expect(input).toHaveValue('');
    expect(input).toHaveFocus();
    await user.type(input, '10.01');
    // What players pay after the discount, and what the shop pays for one (half, as it buys at 0.5).
    expect(dialog).toHaveTextContent('Players pay 9 gp 1 cp after the shop’s 10% discount.');
    expect(dialog).toHaveTextContent('the 2 on the shelf sell at it. The shop pays 5 gp for one sold to it.');

    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(priceCalls(fetchMock)).toEqual([
      {
        path: '/api/v1/shop_instances/shop-1/prices/template-bag',
        body: { price: { price_cp: 1001 } },
      },
    ]);
    expect(useUiStore.getState().toasts.map((t) => t.message)).toContain(shopMessages.priceSaved);
    // The shop is asked for again and shows the new price: 10.01 gp less 10%, now with a Buy button.
    expect(await screen.findByRole('button', { name: 'Buy Bag of Holding' })).toBeInTheDocument();
    const row = screen.getAllByTestId('shop-stock-item').find((r) => r.dataset.itemName === 'Bag of Holding');
    expect(row).toHaveTextContent('9 gp 1 cp');
    // Focus comes back to the line's Set price button, though the repriced line is drawn anew.
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Set price of Bag of Holding' })).toHaveFocus(),
    );
  }, 20_000);

  it('opens from the keyboard', async () => {
    mockServer(saved(shopMessages.priceSaved));
    renderList(true);
    const user = userEvent.setup();
    screen.getByRole('button', { name: 'Set price of Rope' }).focus();
    await user.keyboard('{Enter}');
    expect(await screen.findByRole('dialog', { name: 'Set price: Rope' })).toBeInTheDocument();
  });

  it('shows the line’s own price, and clears it', async () => {
    const fetchMock = mockServer(saved(shopMessages.priceCleared));
    renderList(true);
    const { user, dialog } = await openFor('Rope');
    expect(within(dialog).getByTestId('set-price-current')).toHaveTextContent(
      'Its own price in The Wayfarer’s General Store: 2 gp 5 sp each (players pay 2 gp 2 sp 5 cp after the discount).',
    );
    expect(within(dialog).getByRole('textbox', { name: 'Own price (gp)' })).toHaveValue('2.5');
    await user.click(within(dialog).getByRole('button', { name: 'Clear own price' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(priceCalls(fetchMock)).toEqual([
      { path: '/api/v1/shop_instances/shop-1/prices/template-rope', body: { price: { price_cp: null } } },
    ]);
    expect(useUiStore.getState().toasts.map((t) => t.message)).toContain(shopMessages.priceCleared);
  }, 20_000);

  it('asks for a price before saving rather than sending none', async () => {
    const fetchMock = mockServer(saved(shopMessages.priceSaved));
    renderList(true);
    const { user, dialog } = await openFor('Bag of Holding');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    const input = within(dialog).getByRole('textbox', { name: 'Own price (gp)' });
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(dialog).toHaveTextContent('Enter a price in gp');
    expect(priceCalls(fetchMock)).toEqual([]);
  });

  it('takes a price only to the copper: a thousandth of a gold piece is not typed in', async () => {
    const fetchMock = mockServer(saved(shopMessages.priceSaved));
    renderList(true);
    const { user, dialog } = await openFor('Bag of Holding');
    const input = within(dialog).getByRole('textbox', { name: 'Own price (gp)' });
    await user.type(input, '0.001');
    // The third decimal never lands, refused with a word (author review, H1); what is left is a price of
    // nothing, and the field says so.
    expect(input).toHaveValue('0.00');
    expect(input).toHaveAccessibleDescription(expect.stringContaining(numberFieldMessages.decimalsLimit(2)));
    expect(input).toHaveAccessibleDescription(expect.stringContaining(freeItemWarning));
    await user.clear(input);
    await user.type(input, '1.255');
    expect(input).toHaveValue('1.25');
    // "1.255" may be a thousand written with a point: the refusal says how to write one.
    expect(input).toHaveAccessibleDescription(
      expect.stringContaining(numberFieldMessages.tooManyDecimals(2)),
    );
    expect(input).not.toHaveAccessibleDescription(expect.stringContaining(freeItemWarning));
    expect(priceCalls(fetchMock)).toEqual([]);
  });

  it('warns that a price of 0 gives it away, and saves it when meant', async () => {
    const fetchMock = mockServer(saved(shopMessages.priceSaved));
    renderList(true);
    const { user, dialog } = await openFor('Bag of Holding');
    const input = within(dialog).getByRole('textbox', { name: 'Own price (gp)' });
    await user.type(input, '0');
    expect(input).toHaveAccessibleDescription(freeItemWarning);
    expect(input).not.toHaveAttribute('aria-invalid');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(priceCalls(fetchMock)).toEqual([
      { path: '/api/v1/shop_instances/shop-1/prices/template-bag', body: { price: { price_cp: 0 } } },
    ]);
  }, 20_000);

  it('shows the server’s 422 on the price in the form, and keeps the dialog open', async () => {
    const tooMuch = 'A price can be at most 9,000,000 gp';
    mockServer(() =>
      failure(422, 'VALIDATION_ERROR', 'Validation failed', [{ field: 'price_cp', message: tooMuch }]),
    );
    renderList(true);
    const { user, dialog } = await openFor('Bag of Holding');
    const input = within(dialog).getByRole('textbox', { name: 'Own price (gp)' });
    await user.type(input, '9000001');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(input).toHaveAttribute('aria-invalid', 'true'));
    expect(dialog).toHaveTextContent(tooMuch);
    expect(screen.getByRole('dialog', { name: 'Set price: Bag of Holding' })).toBeInTheDocument();
    // A new price starts clean.
    await user.type(input, '{Backspace}');
    expect(input).not.toHaveAttribute('aria-invalid');
    expect(useUiStore.getState().toasts).toEqual([]);
  }, 20_000);

  it('shows a refusal about the line itself above the buttons (sold out meanwhile)', async () => {
    mockServer(() =>
      failure(422, 'VALIDATION_ERROR', shopMessages.priceNotOnShelf, [
        { field: 'item_template_id', message: shopMessages.priceNotOnShelf },
      ]),
    );
    renderList(true);
    const { user, dialog } = await openFor('Rope');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(shopMessages.priceNotOnShelf);
  }, 20_000);

  it('says a price below what the shop pays for the item lowers its offer: it never pays more than it asks', async () => {
    mockServer(saved(shopMessages.priceSaved));
    renderList(true);
    const { user, dialog } = await openFor('Rope');
    // At 2.5 gp (2 gp 2 sp 5 cp after the discount) the shop still pays half the rope's 2 gp: nothing to say.
    expect(dialog).not.toHaveTextContent('The shop pays');
    const input = within(dialog).getByRole('textbox', { name: 'Own price (gp)' });
    await user.clear(input);
    await user.type(input, '0.5');
    // 5 sp less 10% is 4 sp 5 cp: the shop pays that, not 1 gp, as the sale and its quote will.
    expect(dialog).toHaveTextContent('Players pay 4 sp 5 cp after the shop’s 10% discount.');
    expect(dialog).toHaveTextContent('The shop pays 4 sp 5 cp for one sold to it, no more than it asks.');
  }, 20_000);
});
