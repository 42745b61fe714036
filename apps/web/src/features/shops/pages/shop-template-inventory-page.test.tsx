import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { numberFieldMessages } from '../../../components/number-field';
import { failure, mockFetch, success } from '../../../test/fixtures';
import { renderRoutes } from '../../../test/render';
import { buildLootItemTemplate } from '../../loot/test/loot-fixtures';
import { freeItemWarning } from '../components/gp-amount';
import { buildHiddenShopItem, buildShopItem, buildShopTemplate } from '../test/shop-fixtures';
import { ShopTemplateInventoryPage } from './shop-template-inventory-page';

const arrow = buildShopItem('Arrow', { quantity: 200, buy_price_cp: 5, sell_price_cp: 2 });
const backpack = buildShopItem('Backpack', { quantity: 10, restock_quantity: 12 });
// An SRD magic item without a price here: the shop would not buy one back (`sellOfferCp`).
const wand = buildShopItem('Wand', { quantity: 1, buy_price_cp: null, sell_price_cp: null });
const template = buildShopTemplate({ is_owner: true, is_system: false, shop_items: [arrow, backpack, wand] });

// The GM's own homebrew, private (the marketplace would not list it) and public (listed there too).
const stew = buildLootItemTemplate({
  id: 'tpl-stew',
  name: 'Grim Stew',
  visibility: 'private',
  is_owner: true,
});
const dagger = buildLootItemTemplate({ id: 'tpl-dagger', name: 'Dagger' });

function serve(served = template) {
  return mockFetch(({ url, init }) => {
    const { pathname } = new URL(url, 'http://test');
    if (
      init.method === 'PATCH' &&
      pathname === `/api/v1/shop_templates/${template.id}/shop_items/${arrow.id}`
    )
      return success({ ...arrow, ...JSON.parse(String(init.body)).shop_item });
    if (pathname === `/api/v1/shop_templates/${template.id}`) return success(served);
    if (pathname === '/api/v1/search/items') return success([dagger, stew]);
    if (pathname === '/api/v1/item_templates') return success([stew]);
    if (init.method === 'POST' && pathname === `/api/v1/shop_templates/${template.id}/add_item`)
      return success(buildShopItem('Grim Stew'), 201);
    return failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${pathname}`);
  });
}

const rowOf = (name: string) =>
  screen.getAllByTestId('shop-item-row').find((row) => row.textContent?.includes(name)) as HTMLElement;

describe('ShopTemplateInventoryPage', () => {
  it('offers Save on a ware only once one of its fields differs, and sends what changed', async () => {
    const fetchMock = serve();
    renderRoutes(
      [{ path: '/shops/templates/:id/inventory', element: <ShopTemplateInventoryPage /> }],
      `/shops/templates/${template.id}/inventory`,
    );
    await screen.findByRole('heading', { level: 1, name: /Inventory/ });
    const saveArrow = within(rowOf('Arrow')).getByRole('button', { name: 'Save Arrow' });
    const saveBackpack = within(rowOf('Backpack')).getByRole('button', { name: 'Save Backpack' });
    expect(saveArrow).toBeDisabled();
    expect(saveBackpack).toBeDisabled();
    expect(
      within(rowOf('Backpack')).getByRole('textbox', { name: 'Restock quantity of Backpack' }),
    ).toHaveValue('12');

    const user = userEvent.setup();
    const quantity = within(rowOf('Arrow')).getByRole('textbox', { name: 'Quantity of Arrow' });
    await user.clear(quantity);
    await user.type(quantity, '150');
    expect(saveArrow).toBeEnabled();
    expect(saveBackpack).toBeDisabled();
    // Typed back to what the shop holds: nothing to save again.
    await user.clear(quantity);
    await user.type(quantity, '200');
    expect(saveArrow).toBeDisabled();

    await user.clear(quantity);
    await user.type(quantity, '150');
    await user.type(
      within(rowOf('Arrow')).getByRole('textbox', { name: 'Own price of Arrow in gp' }),
      '0.07',
    );
    await user.click(saveArrow);
    const patch = await vi.waitFor(() => {
      const call = fetchMock.mock.calls.find(([, init]) => init?.method === 'PATCH');
      if (!call) throw new Error('no PATCH yet');
      return call;
    });
    expect(JSON.parse(String(patch[1]?.body))).toEqual({
      shop_item: { quantity: 150, price_cp: 7, restock_quantity: null },
    });
  });

  it('warns under an own price of 0 that players get the ware for free', async () => {
    serve();
    renderRoutes(
      [{ path: '/shops/templates/:id/inventory', element: <ShopTemplateInventoryPage /> }],
      `/shops/templates/${template.id}/inventory`,
    );
    await screen.findByRole('heading', { level: 1, name: /Inventory/ });
    const user = userEvent.setup();
    const price = within(rowOf('Arrow')).getByRole('textbox', { name: 'Own price of Arrow in gp' });
    // A thousandth of a gold piece cannot be typed: what is left is 0, and the field says what it means.
    await user.type(price, '0.001');
    expect(price).toHaveValue('0.00');
    // The third decimal is refused with a word (author review, H1), beside what the 0 left means.
    expect(price).toHaveAccessibleDescription(expect.stringContaining(numberFieldMessages.decimalsLimit(2)));
    expect(price).toHaveAccessibleDescription(expect.stringContaining(freeItemWarning));
    const added = screen.getByRole('textbox', { name: 'Own price (gp)' });
    await user.type(added, '0');
    expect(added).toHaveAccessibleDescription(freeItemWarning);
    await user.type(added, '.05');
    expect(added).not.toHaveAccessibleDescription(freeItemWarning);
  });

  it('says a ware the shop would neither sell nor buy back is unpriced, rather than 0 cp', async () => {
    serve();
    renderRoutes(
      [{ path: '/shops/templates/:id/inventory', element: <ShopTemplateInventoryPage /> }],
      `/shops/templates/${template.id}/inventory`,
    );
    await screen.findByRole('heading', { level: 1, name: /Inventory/ });
    expect(rowOf('Wand')).toHaveTextContent(
      'Unpriced: not sold until priced here · Unpriced: not bought back until priced here',
    );
    expect(rowOf('Wand')).not.toHaveTextContent('buys for');
    expect(rowOf('Wand')).not.toHaveTextContent('0 cp');
    expect(rowOf('Arrow')).toHaveTextContent('Sells for 5 cp · buys for 2 cp');
  });

  it('offers the GM’s own item templates, private ones too, before the catalogue', async () => {
    const fetchMock = serve();
    renderRoutes(
      [{ path: '/shops/templates/:id/inventory', element: <ShopTemplateInventoryPage /> }],
      `/shops/templates/${template.id}/inventory`,
    );
    const user = userEvent.setup();
    await user.click(await screen.findByPlaceholderText('Search your items and the catalogue'));
    const listbox = await screen.findByRole('listbox');
    const names = within(listbox)
      .getAllByRole('option')
      .map((option) => option.textContent);
    // Listed once, as the GM's own, though the catalogue also holds it.
    expect(names).toEqual(['Grim Stew', 'Dagger']);
    expect(listbox).toHaveTextContent('Your items');
    await user.click(within(listbox).getByRole('option', { name: 'Grim Stew' }));
    await user.click(screen.getByRole('button', { name: 'Add to Shop' }));
    const post = await vi.waitFor(() => {
      const call = fetchMock.mock.calls.find(([, init]) => init?.method === 'POST');
      if (!call) throw new Error('no POST yet');
      return call;
    });
    expect(JSON.parse(String(post[1]?.body))).toMatchObject({ shop_item: { item_template_id: 'tpl-stew' } });
  });

  it('lists a ware whose item is private to someone else as "Private item", to be removed, with no prices', async () => {
    serve({ ...template, shop_items: [arrow, buildHiddenShopItem()] });
    renderRoutes(
      [{ path: '/shops/templates/:id/inventory', element: <ShopTemplateInventoryPage /> }],
      `/shops/templates/${template.id}/inventory`,
    );
    await screen.findByRole('heading', { level: 1, name: /Inventory/ });
    const hidden = rowOf('Private item');
    expect(within(hidden).getByTestId('unavailable-line')).toBeInTheDocument();
    expect(within(hidden).getByRole('button', { name: 'Remove Private item' })).toBeEnabled();
    // "Unpriced: not sold until priced here" would be wrong: its prices are not told.
    expect(hidden).not.toHaveTextContent('Unpriced');
    expect(hidden).not.toHaveTextContent('Sells for');
  });
  it('keeps the focus in the editor after an item is added and after a ware is saved', async () => {
    // A shop that holds what was last saved, as the server would.
    let served = template;
    mockFetch(({ url, init }) => {
      const { pathname } = new URL(url, 'http://test');
      if (
        init.method === 'PATCH' &&
        pathname === `/api/v1/shop_templates/${template.id}/shop_items/${arrow.id}`
      ) {
        const saved = { ...arrow, ...JSON.parse(String(init.body)).shop_item };
        served = { ...served, shop_items: [saved, backpack, wand] };
        return success(saved);
      }
      if (pathname === `/api/v1/shop_templates/${template.id}`) return success(served);
      if (pathname === '/api/v1/search/items') return success([dagger, stew]);
      if (pathname === '/api/v1/item_templates') return success([stew]);
      if (init.method === 'POST' && pathname === `/api/v1/shop_templates/${template.id}/add_item`)
        return success(buildShopItem('Grim Stew'), 201);
      return failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${pathname}`);
    });
    renderRoutes(
      [{ path: '/shops/templates/:id/inventory', element: <ShopTemplateInventoryPage /> }],
      `/shops/templates/${template.id}/inventory`,
    );
    await screen.findByRole('heading', { level: 1, name: /Inventory/ });
    const user = userEvent.setup();
    const item = screen.getByRole('combobox', { name: /^Item/ });
    await user.click(item);
    await user.click(within(await screen.findByRole('listbox')).getByRole('option', { name: 'Grim Stew' }));
    await user.click(screen.getByRole('button', { name: 'Add to Shop' }));
    // The form is blank again, its button closed until an item is chosen: the focus goes back to the item.
    await vi.waitFor(() => expect(item).toHaveValue(''));
    await vi.waitFor(() => expect(item).toHaveFocus());

    const quantity = within(rowOf('Arrow')).getByRole('textbox', { name: 'Quantity of Arrow' });
    await user.clear(quantity);
    await user.type(quantity, '150');
    await user.click(within(rowOf('Arrow')).getByRole('button', { name: 'Save Arrow' }));
    // Saved, the row stays where it was (not drawn anew) and the focus on its quantity, not on the page.
    await vi.waitFor(() =>
      expect(within(rowOf('Arrow')).getByRole('button', { name: 'Save Arrow' })).toBeDisabled(),
    );
    expect(within(rowOf('Arrow')).getByRole('textbox', { name: 'Quantity of Arrow' })).toBe(quantity);
    expect(quantity).toHaveValue('150');
    expect(quantity).toHaveFocus();
  });
});

describe('ShopTemplateInventoryPage: the wares as a list', () => {
  it('reads the wares being edited as a list named by the page heading, a line a ware with its own buttons', async () => {
    serve();
    renderRoutes(
      [{ path: '/shops/templates/:id/inventory', element: <ShopTemplateInventoryPage /> }],
      `/shops/templates/${template.id}/inventory`,
    );
    const heading = await screen.findByRole('heading', { level: 1, name: /Inventory/ });
    const wares = screen.getByRole('list', { name: heading.textContent ?? '' });
    const lines = within(wares).getAllByRole('listitem');
    expect(lines).toHaveLength(3);
    expect(
      within(lines[1] as HTMLElement).getByRole('button', { name: 'Remove Backpack' }),
    ).toBeInTheDocument();
    expect(
      within(lines[1] as HTMLElement).getByRole('button', { name: 'Save Backpack' }),
    ).toBeInTheDocument();
  });

  it('reads another GM’s wares as a list too', async () => {
    serve({ ...template, is_owner: false });
    renderRoutes(
      [{ path: '/shops/templates/:id/inventory', element: <ShopTemplateInventoryPage /> }],
      `/shops/templates/${template.id}/inventory`,
    );
    const heading = await screen.findByRole('heading', { level: 1, name: /Inventory/ });
    const wares = screen.getByRole('list', { name: heading.textContent ?? '' });
    expect(
      within(wares)
        .getAllByRole('listitem')
        .map((line) => line.textContent),
    ).toEqual([
      expect.stringContaining('Arrow'),
      expect.stringContaining('Backpack'),
      expect.stringContaining('Wand'),
    ]);
  });
});

describe('ShopTemplateInventoryPage: finding a ware', { timeout: 20_000 }, () => {
  const lamp = buildShopItem('Öllampe', { quantity: 3 });
  const sabre = buildShopItem('Kılıç', { quantity: 2 });
  const many = { ...template, shop_items: [arrow, backpack, lamp, sabre, wand] };
  const open = () =>
    renderRoutes(
      [{ path: '/shops/templates/:id/inventory', element: <ShopTemplateInventoryPage /> }],
      `/shops/templates/${template.id}/inventory`,
    );

  it('narrows the wares to those whose name holds the words, without case or accents, and says how many', async () => {
    serve(many);
    const user = userEvent.setup();
    open();
    const heading = await screen.findByRole('heading', { level: 1, name: /Inventory/ });
    const find = screen.getByRole('searchbox', { name: 'Find a line' });
    await user.type(find, 'OLLAMP');
    const wares = screen.getByRole('list', { name: heading.textContent ?? '' });
    await vi.waitFor(() => expect(within(wares).getAllByRole('listitem')).toHaveLength(1));
    expect(within(wares).getByRole('button', { name: 'Save Öllampe' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('1 of 5 lines matches');

    await user.clear(find);
    await user.type(find, 'kilic');
    await vi.waitFor(() =>
      expect(
        within(wares)
          .getAllByRole('listitem')
          .map((line) => line.textContent),
      ).toEqual([expect.stringContaining('Kılıç')]),
    );
    await user.clear(find);
    await vi.waitFor(() => expect(within(wares).getAllByRole('listitem')).toHaveLength(5));
    expect(screen.getByRole('status')).toHaveTextContent('');
  });

  it('says when no ware matches, and keeps a change not yet saved on a ware the filter hid', async () => {
    serve(many);
    const user = userEvent.setup();
    open();
    await screen.findByRole('heading', { level: 1, name: /Inventory/ });
    const quantity = within(rowOf('Arrow')).getByRole('textbox', { name: 'Quantity of Arrow' });
    await user.clear(quantity);
    await user.type(quantity, '150');
    const find = screen.getByRole('searchbox', { name: 'Find a line' });
    await user.type(find, 'zzz');
    expect(await screen.findByText('No lines match “zzz”')).toBeVisible();
    expect(screen.getByRole('status')).toHaveTextContent('0 of 5 lines match');
    expect(screen.queryByRole('listitem')).not.toBeInTheDocument();
    await user.clear(find);
    await vi.waitFor(() =>
      expect(within(rowOf('Arrow')).getByRole('textbox', { name: 'Quantity of Arrow' })).toHaveValue('150'),
    );
    expect(within(rowOf('Arrow')).getByRole('button', { name: 'Save Arrow' })).toBeEnabled();
  });
});
