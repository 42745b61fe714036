import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { pickContainerByTyping } from '../../../test/container-picker';
import { failure, jsonResponse, mockFetch, success } from '../../../test/fixtures';
import { buildCharacter, pageMeta } from '../../../test/party-fixtures';
import { buildContainer, buildItem, renderWithProviders } from '../../inventory/test/inventory-fixtures';
import { buildShopInstance, buildStockItem } from '../test/shop-fixtures';
import { StockShopForm } from './stock-shop-form';

const longsword = { name: 'Longsword', stack_size: 1, tags: [], metadata: {}, coin: null };
const stash = buildContainer({
  id: 'stash-1',
  name: 'Party Stash',
  owner: { type: 'party', id: 'party-1', name: 'The Lantern Bearers' },
  party_id: 'party-1',
});
const spare = buildItem({
  id: 'spare-sword',
  name: 'Longsword',
  quantity: 1,
  item_template_id: 'tpl-longsword',
  item_template: longsword,
  container_id: 'stash-1',
});

function shopWith(hasOwnPrice: boolean, discountRate = 0) {
  const shelved = buildStockItem({
    id: 'shelf-sword',
    name: 'Longsword',
    quantity: 5,
    item_template_id: 'tpl-longsword',
    item_template: longsword,
    buy_price_cp: 1500,
    has_own_price: hasOwnPrice,
  });
  return buildShopInstance({
    can_manage: true,
    discount_rate: discountRate,
    container: { id: 'shop-container-1', name: 'Shop stock', item_instances: [shelved] },
  });
}

function mockSources() {
  return mockFetch(({ url, init }) => {
    const { pathname } = new URL(url, 'http://test');
    if (init.method === 'POST' && pathname === '/api/v1/shop_instances/shop-1/stock')
      return success(shopWith(false));
    if (pathname === '/api/v1/characters')
      return jsonResponse(200, { status: 'success', data: [], meta: pageMeta(0, 100) });
    if (pathname === '/api/v1/parties/party-1/containers') return success([stash]);
    if (pathname === '/api/v1/containers/stash-1/items')
      return jsonResponse(200, { status: 'success', data: [spare], meta: pageMeta(1, 20) });
    return failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${pathname}`);
  });
}

async function chooseTheSpareSword() {
  const user = userEvent.setup();
  await user.click(await screen.findByRole('combobox', { name: 'Item' }));
  await user.click(await screen.findByRole('option', { name: 'Longsword ×1' }));
  return user;
}

describe('StockShopForm', () => {
  it('says before stocking that a price of its own re-prices what is already on the shelf', async () => {
    mockSources();
    renderWithProviders(<StockShopForm shop={shopWith(false)} />);
    const user = await chooseTheSpareSword();
    expect(screen.queryByTestId('stock-price-hint')).not.toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: 'Own price (gp)' }), '20');
    expect(screen.getByTestId('stock-price-hint')).toHaveTextContent(
      'One price for every Longsword in this shop: the 5 already on the shelf will sell at this price too.',
    );
  });

  it('says the new units take the price the shelf already has', async () => {
    mockSources();
    renderWithProviders(<StockShopForm shop={shopWith(true)} />);
    await chooseTheSpareSword();
    expect(screen.getByTestId('stock-price-hint')).toHaveTextContent(
      'Longsword has a price of its own in this shop (players pay 15 gp each); the new ones sell at it too.',
    );
  });

  it('says what players pay for an own price once the shop’s discount is taken off', async () => {
    mockSources();
    renderWithProviders(<StockShopForm shop={shopWith(false, 0.1)} />);
    const user = await chooseTheSpareSword();
    const price = screen.getByRole('textbox', { name: 'Own price (gp)' });
    expect(screen.queryByText(/after the shop’s/)).not.toBeInTheDocument();
    await user.type(price, '5000');
    expect(screen.getByText('Players pay 4,500 gp after the shop’s 10% discount.')).toBeInTheDocument();
  });

  it('keeps the keyboard in the form once an item is on the shelf, on its heading, to stock the next one', async () => {
    const fetchMock = mockSources();
    renderWithProviders(<StockShopForm shop={shopWith(false)} />);
    const user = await chooseTheSpareSword();
    await user.tab(); // Quantity
    await user.tab(); // Own price
    await user.tab(); // Put on the Shelf
    const shelve = screen.getByRole('button', { name: 'Put on the Shelf' });
    expect(shelve).toHaveFocus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(true));
    // The form starts again empty (its button disabled, which drops the focus): the keyboard stays here,
    // on the heading, and the Item list stays closed until asked for.
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Stock an item' })).toHaveFocus());
    expect(screen.getByRole('combobox', { name: 'Item' })).toHaveValue('');
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
    expect(shelve).toBeDisabled();
  });

  it('says the stack holds fewer than asked and stocks nothing, rather than shelving fewer silently', async () => {
    const fetchMock = mockSources();
    renderWithProviders(<StockShopForm shop={shopWith(false)} />);
    const user = await chooseTheSpareSword();
    const quantity = screen.getByRole('textbox', { name: 'Quantity' });
    await user.clear(quantity);
    await user.type(quantity, '2');
    // Leaving the field keeps what was typed (it was brought down to 1 without a word).
    await user.tab();
    expect(quantity).toHaveValue('2');
    expect(screen.getByText('There is only 1 in this stack.')).toBeInTheDocument();
    expect(quantity).toHaveAttribute('aria-invalid', 'true');
    const shelve = screen.getByRole('button', { name: 'Put on the Shelf' });
    expect(shelve).toBeDisabled();
    // Enter in the field does not send it either.
    await user.click(quantity);
    await user.keyboard('{Enter}');
    expect(fetchMock.mock.calls.filter(([, init]) => init?.method === 'POST')).toHaveLength(0);

    await user.clear(quantity);
    await user.type(quantity, '1');
    expect(screen.queryByText('There is only 1 in this stack.')).not.toBeInTheDocument();
    expect(shelve).toBeEnabled();
  });

  it('finds the container to stock from by typing, grouped by owner, for the keyboard to pick', async () => {
    const aria = buildCharacter({ id: 'character-1', name: 'Aria', party_id: 'party-1', is_owner: true });
    const backpack = buildContainer({ id: 'bag-1', name: 'Backpack', party_id: 'party-1' });
    mockFetch(({ url }) => {
      const { pathname } = new URL(url, 'http://test');
      if (pathname === '/api/v1/characters')
        return jsonResponse(200, { status: 'success', data: [aria], meta: pageMeta(1, 100) });
      if (pathname === '/api/v1/parties/party-1/containers') return success([stash]);
      if (pathname === '/api/v1/characters/character-1/containers') return success([backpack]);
      if (pathname.startsWith('/api/v1/containers/'))
        return jsonResponse(200, { status: 'success', data: [], meta: pageMeta(0, 20) });
      return failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${pathname}`);
    });
    renderWithProviders(<StockShopForm shop={shopWith(false)} />);
    await screen.findByDisplayValue('Party Stash (The Lantern Bearers)');
    const picker = await pickContainerByTyping(userEvent.setup(), {
      label: 'From',
      groups: ['The Lantern Bearers', 'Aria'],
      typed: 'aria',
      matching: ['Backpack (Aria)'],
    });
    expect(picker).toHaveValue('Backpack (Aria)');
  });
});
