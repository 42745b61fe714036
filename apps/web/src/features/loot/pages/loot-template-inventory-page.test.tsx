import { type LootItem, lootMessages, MAX_LOOT_ITEMS } from '@haversack/contracts';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { useUiStore } from '../../../stores/ui-store';
import { failure, jsonResponse, mockFetch, success } from '../../../test/fixtures';
import { pageMeta } from '../../../test/party-fixtures';
import { renderRoutes } from '../../../test/render';
import {
  buildCoinLootItem,
  buildHiddenLootItem,
  buildLootItem,
  buildLootItemTemplate,
  buildLootTemplate,
} from '../test/loot-fixtures';
import { LootTemplateInventoryPage } from './loot-template-inventory-page';

const routes = [
  { path: '/loot/templates/:id/inventory', element: <LootTemplateInventoryPage /> },
  { path: '/loot/templates/:id', element: <p>Template detail</p> },
];

const rope = buildLootItemTemplate({ id: 'rope', name: 'Hempen Rope', base_value: 1, value_cp: 100 });
const goldCoin = buildLootItemTemplate({ id: 'coin-gp', name: 'Gold Piece', is_currency: true });

function serve(items: LootItem[], template = buildLootTemplate({ loot_items: items })) {
  return mockFetch(({ url, init }) => {
    if (url.includes('/search/items')) {
      return jsonResponse(200, { status: 'success', data: [rope, goldCoin], meta: pageMeta(2, 50) });
    }
    if (url.endsWith('/loot_items') && init.method === 'POST') {
      const body = JSON.parse(String(init.body)).loot_item;
      return success(
        body.currency
          ? buildCoinLootItem(body.currency, body.quantity)
          : buildLootItem({ id: 'new-line', item_template: rope, quantity: body.quantity }),
        201,
      );
    }
    if (url.includes('/loot_items/') && init.method === 'PATCH') {
      return success(buildLootItem({ quantity: JSON.parse(String(init.body)).loot_item.quantity }));
    }
    if (url.includes('/loot_items/') && init.method === 'DELETE') return new Response(null, { status: 204 });
    if (url.endsWith('/duplicate')) return success({ ...template, id: 'copy-1', is_owner: true }, 201);
    if (url.includes('/loot_templates/')) return success(template);
    return failure(404, 'NOT_FOUND', 'Not found');
  });
}

const writes = (fetchMock: ReturnType<typeof mockFetch>) =>
  fetchMock.mock.calls
    .filter(([, init]) => (init?.method ?? 'GET') !== 'GET')
    .map(([url, init]) => ({
      url: String(url),
      method: init?.method,
      body: init?.body ? JSON.parse(String(init.body)) : undefined,
    }));

// Typing into Mantine's inputs is slow under happy-dom on a busy machine.
describe('LootTemplateInventoryPage', { timeout: 20_000 }, () => {
  it('adds an item of the catalogue with its quantity', async () => {
    const fetchMock = serve([]);
    const user = userEvent.setup();
    renderRoutes(routes, '/loot/templates/loot-template-1/inventory');
    const form = await screen.findByRole('region', { name: 'Add an item' });
    expect(
      screen.getByText('This loot template has no items yet. Add an item or some coins above.'),
    ).toBeVisible();
    await user.click(within(form).getByRole('combobox', { name: 'Item' }));
    // Coins have their own form: the catalogue's coin templates are not offered here.
    expect(await screen.findByRole('option', { name: 'Hempen Rope · 1 gp' })).toBeInTheDocument();
    expect(screen.queryByRole('option', { name: /Gold Piece/ })).not.toBeInTheDocument();
    await user.click(screen.getByRole('option', { name: 'Hempen Rope · 1 gp' }));
    const quantity = within(form).getByRole('textbox', { name: 'Quantity' });
    await user.clear(quantity);
    await user.type(quantity, '3');
    await user.click(within(form).getByRole('button', { name: 'Add Item' }));

    await vi.waitFor(() =>
      expect(writes(fetchMock)).toContainEqual({
        url: '/api/v1/loot_templates/loot-template-1/loot_items',
        method: 'POST',
        body: { loot_item: { item_template_id: 'rope', quantity: 3 } },
      }),
    );
    expect(useUiStore.getState().toasts.at(-1)).toMatchObject({
      kind: 'success',
      message: 'Hempen Rope added to the loot',
    });
  });

  it('asks for an item before adding one', async () => {
    const fetchMock = serve([]);
    const user = userEvent.setup();
    renderRoutes(routes, '/loot/templates/loot-template-1/inventory');
    const form = await screen.findByRole('region', { name: 'Add an item' });
    await user.click(within(form).getByRole('button', { name: 'Add Item' }));
    expect(await within(form).findByText('Choose an item')).toBeInTheDocument();
    expect(writes(fetchMock)).toHaveLength(0);
  });

  it('takes the focus to the item field when Add Item is pressed with none chosen, its error told', async () => {
    serve([]);
    const user = userEvent.setup();
    renderRoutes(routes, '/loot/templates/loot-template-1/inventory');
    const form = await screen.findByRole('region', { name: 'Add an item' });
    await user.click(within(form).getByRole('button', { name: 'Add Item' }));
    const item = within(form).getByRole('combobox', { name: /^Item/ });
    await vi.waitFor(() => expect(item).toHaveFocus());
    expect(item).toHaveAttribute('aria-invalid', 'true');
    expect(item).toHaveAccessibleDescription(/Choose an item/);
  });

  it('keeps the focus on a line after its quantity is saved', async () => {
    let items = [buildLootItem({ id: 'line-1', quantity: 2 })];
    mockFetch(({ url, init }) => {
      if (url.includes('/loot_items/') && init.method === 'PATCH') {
        items = [buildLootItem({ id: 'line-1', quantity: JSON.parse(String(init.body)).loot_item.quantity })];
        return success(items[0]);
      }
      if (url.includes('/loot_templates/')) return success(buildLootTemplate({ loot_items: items }));
      return failure(404, 'NOT_FOUND', 'Not found');
    });
    const user = userEvent.setup();
    renderRoutes(routes, '/loot/templates/loot-template-1/inventory');
    const quantity = await screen.findByRole('textbox', { name: 'Quantity of Longsword' });
    await user.clear(quantity);
    await user.type(quantity, '5');
    await user.click(screen.getByRole('button', { name: 'Save quantity of Longsword' }));
    await vi.waitFor(() =>
      expect(screen.getByRole('button', { name: 'Save quantity of Longsword' })).toBeDisabled(),
    );
    // The same field, not one drawn anew for the saved quantity, and the focus on it rather than the page.
    expect(screen.getByRole('textbox', { name: 'Quantity of Longsword' })).toBe(quantity);
    expect(quantity).toHaveValue('5');
    expect(quantity).toHaveFocus();
  });

  it('adds coins of the chosen kind', async () => {
    const fetchMock = serve([]);
    const user = userEvent.setup();
    renderRoutes(routes, '/loot/templates/loot-template-1/inventory');
    const form = await screen.findByRole('region', { name: 'Add coins' });
    await user.click(within(form).getByRole('combobox', { name: 'Coin' }));
    await user.click(await screen.findByRole('option', { name: 'Platinum (pp)' }));
    await user.type(within(form).getByRole('textbox', { name: 'Amount' }), '250');
    await user.click(within(form).getByRole('button', { name: 'Add Coins' }));
    await vi.waitFor(() =>
      expect(writes(fetchMock)).toContainEqual({
        url: '/api/v1/loot_templates/loot-template-1/loot_items',
        method: 'POST',
        body: { loot_item: { currency: 'pp', quantity: 250 } },
      }),
    );
    expect(useUiStore.getState().toasts.at(-1)).toMatchObject({ message: '250 pp added to the loot' });
  });

  it('changes a line’s quantity in place and removes a line', async () => {
    const fetchMock = serve([buildLootItem({ id: 'line-1', quantity: 2 }), buildCoinLootItem('gp', 250)]);
    const user = userEvent.setup();
    renderRoutes(routes, '/loot/templates/loot-template-1/inventory');
    const quantity = await screen.findByRole('textbox', { name: 'Quantity of Longsword' });
    const save = screen.getByRole('button', { name: 'Save quantity of Longsword' });
    expect(save).toBeDisabled();
    await user.clear(quantity);
    await user.type(quantity, '5{Enter}');
    await vi.waitFor(() =>
      expect(writes(fetchMock)).toContainEqual({
        url: '/api/v1/loot_templates/loot-template-1/loot_items/line-1',
        method: 'PATCH',
        body: { loot_item: { quantity: 5 } },
      }),
    );
    expect(useUiStore.getState().toasts.at(-1)).toMatchObject({ message: lootMessages.updated });

    await user.click(screen.getByRole('button', { name: 'Remove gp coins' }));
    await vi.waitFor(() =>
      expect(writes(fetchMock)).toContainEqual({
        url: '/api/v1/loot_templates/loot-template-1/loot_items/loot-item-gp',
        method: 'DELETE',
        body: undefined,
      }),
    );
    expect(useUiStore.getState().toasts.at(-1)).toMatchObject({ message: '250 gp removed from the loot' });
  });

  it('shows the server’s reason when an item cannot be added', async () => {
    mockFetch(({ url, init }) => {
      if (url.endsWith('/loot_items') && init.method === 'POST') {
        return failure(422, 'VALIDATION_ERROR', 'Validation failed', [
          { field: 'item_template_id', message: lootMessages.tooManyItems },
        ]);
      }
      return success(buildLootTemplate({ loot_items: [] }));
    });
    const user = userEvent.setup();
    renderRoutes(routes, '/loot/templates/loot-template-1/inventory');
    const form = await screen.findByRole('region', { name: 'Add coins' });
    await user.type(within(form).getByRole('textbox', { name: 'Amount' }), '10');
    await user.click(within(form).getByRole('button', { name: 'Add Coins' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent(lootMessages.tooManyItems);
  });

  it('warns when the template holds the most lines it can', async () => {
    const lines = [buildLootItem(), buildCoinLootItem('gp', 250)];
    serve(lines, buildLootTemplate({ loot_items: lines, items_count: MAX_LOOT_ITEMS }));
    renderRoutes(routes, '/loot/templates/loot-template-1/inventory');
    expect(await screen.findByTestId('loot-items-limit')).toHaveTextContent(lootMessages.tooManyItems);
    expect(screen.getByTestId('loot-items-count')).toHaveTextContent(
      `${MAX_LOOT_ITEMS} of ${MAX_LOOT_ITEMS} lines`,
    );
  });

  it('shows a catalogue template read-only, with Duplicate', async () => {
    const fetchMock = serve(
      [buildCoinLootItem('gp', 250)],
      buildLootTemplate({
        is_system: true,
        is_owner: false,
        visibility: 'public',
        loot_items: [buildCoinLootItem('gp', 250)],
      }),
    );
    const user = userEvent.setup();
    const { router } = renderRoutes(routes, '/loot/templates/loot-template-1/inventory');
    const notice = await screen.findByTestId('read-only-notice');
    expect(notice).toHaveTextContent(lootMessages.systemTemplate);
    expect(screen.queryByRole('region', { name: 'Add an item' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Remove/ })).not.toBeInTheDocument();
    expect(within(screen.getByTestId('loot-items')).getByTestId('loot-item')).toHaveTextContent('250 gp');
    await user.click(within(notice).getByRole('button', { name: 'Duplicate' }));
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/loot/templates/copy-1'));
    expect(writes(fetchMock)).toContainEqual({
      url: '/api/v1/loot_templates/loot-template-1/duplicate',
      method: 'POST',
      body: undefined,
    });
  });

  it('lists a line whose item is private to someone else as "Private item", to be removed, worth untold', async () => {
    serve([buildLootItem({ id: 'line-1', quantity: 2 }), buildHiddenLootItem()]);
    renderRoutes(routes, '/loot/templates/loot-template-1/inventory');
    const rows = await screen.findAllByTestId('loot-item-row');
    const hidden = rows.find((row) => row.textContent?.includes('Private item')) as HTMLElement;
    expect(within(hidden).getByTestId('unavailable-line')).toBeInTheDocument();
    expect(within(hidden).getByRole('button', { name: 'Remove Private item' })).toBeEnabled();
    expect(hidden).toHaveTextContent('—');
    expect(hidden).not.toHaveTextContent('cp');
  });
});

describe('LootTemplateInventoryPage: the lines as a list', { timeout: 20_000 }, () => {
  it('reads the lines being edited as a list named "In this loot", a line an item with its own buttons', async () => {
    serve([buildLootItem({ id: 'line-1', quantity: 2 }), buildCoinLootItem('gp', 250)]);
    renderRoutes(routes, '/loot/templates/loot-template-1/inventory');
    const lines = await screen.findByRole('list', { name: 'In this loot' });
    const [sword, coins] = within(lines).getAllByRole('listitem') as HTMLElement[];
    expect(within(lines).getAllByRole('listitem')).toHaveLength(2);
    expect(
      within(sword as HTMLElement).getByRole('button', { name: 'Remove Longsword' }),
    ).toBeInTheDocument();
    expect(within(coins as HTMLElement).getByRole('button', { name: 'Remove gp coins' })).toBeInTheDocument();
  });
});

describe('LootTemplateInventoryPage: finding a line', { timeout: 20_000 }, () => {
  it('narrows the lines to those whose name holds the words, without case or accents, and says when none does', async () => {
    const lamp = buildLootItemTemplate({ id: 'lamp', name: 'Öllampe 5' });
    serve([
      buildLootItem({ id: 'line-1', quantity: 2 }),
      buildLootItem({ id: 'line-2', item_template: lamp }),
      buildCoinLootItem('gp', 250),
    ]);
    const user = userEvent.setup();
    renderRoutes(routes, '/loot/templates/loot-template-1/inventory');
    const lines = await screen.findByRole('list', { name: 'In this loot' });
    const find = screen.getByRole('searchbox', { name: 'Find a line' });
    await user.type(find, 'ollampe');
    await vi.waitFor(() => expect(within(lines).getAllByRole('listitem')).toHaveLength(1));
    expect(within(lines).getByRole('button', { name: 'Remove Öllampe 5' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('1 of 3 lines matches');

    await user.clear(find);
    await user.type(find, 'Dragon');
    expect(await screen.findByText('No lines match “Dragon”')).toBeVisible();
    expect(screen.queryByRole('list', { name: 'In this loot' })).not.toBeInTheDocument();
  });
});
