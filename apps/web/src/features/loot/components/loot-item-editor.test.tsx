import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { mockFetch, success } from '../../../test/fixtures';
import { renderRoutes } from '../../../test/render';
import { buildLootItem, buildLootItemTemplate } from '../test/loot-fixtures';
import { AddLootItemForm } from './loot-item-editor';

// The GM's private homebrew (the marketplace never lists it), a catalogue item, and a coin.
const stew = buildLootItemTemplate({
  id: 'tpl-stew',
  name: 'Grim Stew',
  visibility: 'private',
  is_owner: true,
});
const dagger = buildLootItemTemplate({ id: 'tpl-dagger', name: 'Dagger', base_value: 2, value_cp: 200 });
const gold = buildLootItemTemplate({ id: 'tpl-gold', name: 'Gold piece', is_currency: true });

describe('AddLootItemForm', () => {
  it('offers the GM’s own item templates before the catalogue, and no coins', async () => {
    const fetchMock = mockFetch(({ url, init }) => {
      const { pathname } = new URL(url, 'http://test');
      if (pathname === '/api/v1/search/items') return success([dagger, gold]);
      if (pathname === '/api/v1/item_templates') return success([stew]);
      if (init.method === 'POST' && pathname === '/api/v1/loot_templates/loot-1/loot_items')
        return success(buildLootItem({ item_template: stew }), 201);
      return success(null);
    });
    const user = userEvent.setup();
    renderRoutes([{ path: '/', element: <AddLootItemForm templateId="loot-1" /> }], '/');
    await user.click(screen.getByPlaceholderText('Search your items and the catalogue'));
    const listbox = await screen.findByRole('listbox');
    await vi.waitFor(() => expect(within(listbox).getAllByRole('option')).toHaveLength(2));
    expect(
      within(listbox)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual([expect.stringMatching(/^Grim Stew · /), 'Dagger · 2 gp']);
    await user.click(within(listbox).getByRole('option', { name: /Grim Stew/ }));
    await user.click(screen.getByRole('button', { name: 'Add Item' }));
    const post = await vi.waitFor(() => {
      const call = fetchMock.mock.calls.find(([, init]) => init?.method === 'POST');
      if (!call) throw new Error('no POST yet');
      return call;
    });
    expect(JSON.parse(String(post[1]?.body))).toMatchObject({
      loot_item: { item_template_id: 'tpl-stew', quantity: 1 },
    });
  });
});
