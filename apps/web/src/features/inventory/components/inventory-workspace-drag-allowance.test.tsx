import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useUiStore } from '../../../stores/ui-store';
import { failure, jsonResponse, mockFetch, success } from '../../../test/fixtures';
import { buildCharacter, pageMeta } from '../../../test/party-fixtures';
import { restoreViewportAfterEach, setViewport } from '../../../test/viewport';
import { buildLootInstance } from '../../loot/test/loot-fixtures';
import { buildShopInstance, buildStockItem } from '../../shops/test/shop-fixtures';
import { buildContainer, buildItem, renderWithProviders } from '../test/inventory-fixtures';
import { InventoryWorkspace } from './inventory-workspace';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  sessionStorage.clear();
});

const partyId = 'party-1';
const aria = buildCharacter({ id: 'ch-aria', name: 'Aria', party_id: partyId, is_owner: true });
const backpack = buildContainer({
  id: 'c-pack',
  name: 'Backpack',
  owner: { type: 'character', id: 'ch-aria', name: 'Aria' },
  character_id: 'ch-aria',
  party_id: partyId,
});
const stash = buildContainer({
  id: 'c-stash',
  name: 'Party Stash',
  is_primary: false,
  character_id: null,
  party_id: partyId,
  owner: { type: 'party', id: partyId, name: 'The Copper Lanterns' },
});
const gold = buildItem({
  id: 'i-gold',
  name: 'Gold piece',
  quantity: 50,
  container_id: backpack.id,
  item_template: { name: 'Gold piece', stack_size: 0, tags: ['currency'], metadata: {}, coin: 'gp' },
});
const shop = (() => {
  const base = buildShopInstance({ party_id: partyId, can_trade: true, can_manage: false });
  const arrows = buildStockItem({ id: 'stock-arrow', name: 'Arrow', quantity: 20, buy_price_cp: 5 });
  return { ...base, container: { ...base.container, item_instances: [arrows] } };
})();
const hoard = buildLootInstance({ is_revealed: true, can_manage: false, can_take: true });

const partyActions = 'inventory_actions_party_monthly';
const reason = 'No party inventory actions left this month';

/** The party's shop and loot, Aria and her backpack; the party's allowance as `spent` says. */
function server(spent: boolean) {
  const changes: string[] = [];
  mockFetch(({ url, init }) => {
    const { pathname } = new URL(url, 'http://test');
    const method = init.method ?? 'GET';
    if (pathname === '/api/v1/subscription/check_limit') {
      const { resource } = JSON.parse(String(init.body)) as { resource: string };
      const used = resource === partyActions && spent;
      return success({
        allowed: !used,
        resource,
        limit: 200,
        used: used ? 200 : 3,
        remaining: used ? 0 : 197,
      });
    }
    if (pathname === '/api/v1/subscription/check_feature')
      return success({ allowed: true, feature: 'party_collaboration' });
    if (method !== 'GET') {
      changes.push(`${method} ${pathname}`);
      return failure(403, 'LIMIT_EXCEEDED', 'Plan limit reached');
    }
    if (pathname === '/api/v1/shop_instances')
      return jsonResponse(200, { status: 'success', data: { instances: [shop] }, meta: pageMeta(1, 100) });
    if (pathname === `/api/v1/shop_instances/${shop.id}`) return success(shop);
    if (pathname === `/api/v1/parties/${partyId}/loot_instances`)
      return jsonResponse(200, { status: 'success', data: [hoard], meta: pageMeta(1, 100) });
    if (pathname === `/api/v1/loot_instances/${hoard.id}`) return success(hoard);
    if (pathname === '/api/v1/characters')
      return jsonResponse(200, { status: 'success', data: [aria], meta: pageMeta(1, 100) });
    if (pathname === '/api/v1/characters/ch-aria/containers') return success([backpack]);
    if (pathname === `/api/v1/containers/${backpack.id}/items`)
      return jsonResponse(200, { status: 'success', data: [gold], meta: pageMeta(1, 100) });
    if (pathname === `/api/v1/containers/${stash.id}/items`)
      return jsonResponse(200, { status: 'success', data: [], meta: pageMeta(0, 100) });
    return failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${method} ${pathname}`);
  });
  return { changes };
}

function renderWorkspace(tab: 'shop' | 'loot') {
  return renderWithProviders(
    <InventoryWorkspace
      owner="Aria"
      containers={[backpack, stash]}
      initialLeft={{ tab, containerId: backpack.id }}
      initialRight={{ tab: 'container', containerId: backpack.id }}
      inParty
      partyId={partyId}
      createOwner={null}
      // Side by side at a desktop: the only view where items are dragged.
      initialView="dual"
    />,
  );
}

/** The line the screen reader hears during a drag (dnd-kit's live region). */
const liveRegion = () => document.querySelector('[id^="DndLiveRegion"]');

describe('Dragging at the month’s limit of the party’s inventory actions', { timeout: 20_000 }, () => {
  restoreViewportAfterEach();
  beforeEach(() => {
    setViewport(1280, 800);
    useUiStore.setState({ toasts: [] });
  });

  it('does not pick up a shelf item: its line is no drag handle, and Buy and the note say why', async () => {
    const { changes } = server(true);
    renderWorkspace('shop');
    const stock = await screen.findByTestId('workspace-shop-stock');
    const buy = within(stock).getByRole('button', { name: 'Buy Arrow' });
    await waitFor(() => expect(buy).toHaveAttribute('aria-disabled', 'true'));
    const row = within(stock).getByTestId('shop-stock-item');
    // No handle to pick up with the mouse, a finger or Space: nothing in the row is a draggable.
    expect(row.querySelector('[aria-roledescription="draggable"]')).toBeNull();
    expect(within(row).queryByLabelText(/drag to buy/)).not.toBeInTheDocument();
    // The hint to drag is not offered; the note says why nothing may be bought.
    expect(screen.queryByText(/Drag an item onto your container to buy it/)).not.toBeInTheDocument();
    expect(within(stock).getByTestId('trade-allowance-refusal')).toHaveTextContent(`${reason}.`);
    fireEvent.keyDown(within(row).getByText('Arrow'), { key: ' ', code: 'Space' });
    expect(liveRegion()?.textContent ?? '').not.toMatch(/Picked up/);
    expect(changes).toEqual([]);
  });

  it('picks a shelf item up by keyboard while the allowance has room', async () => {
    server(false);
    renderWorkspace('shop');
    const handle = await screen.findByLabelText('Arrow, 20 in stock, drag to buy');
    await waitFor(() => expect(handle).toHaveAttribute('aria-roledescription', 'draggable'));
    expect(screen.queryByTestId('trade-allowance-refusal')).not.toBeInTheDocument();
    handle.focus();
    fireEvent.keyDown(handle, { key: ' ', code: 'Space' });
    await waitFor(() => expect(liveRegion()).toHaveTextContent('Picked up Arrow.'));
    fireEvent.keyDown(handle, { key: 'Escape', code: 'Escape' });
  });

  it('does not pick up a loot stack, and says why with the upgrade link', async () => {
    const { changes } = server(true);
    renderWorkspace('loot');
    const loot = await screen.findByTestId('workspace-loot');
    const note = await within(loot).findByTestId('take-allowance-refusal');
    expect(note).toHaveTextContent(`${reason}.`);
    expect(within(note).getByRole('link', { name: 'See upgrade options' })).toHaveAttribute(
      'href',
      `/subscription/upgrade?resource=${partyActions}`,
    );
    const tile = within(loot).getByRole('button', { name: /^Longsword, quantity/ });
    expect(tile).not.toHaveAttribute('aria-roledescription', 'draggable');
    expect(screen.queryByText(/Drag an item onto one of your containers to take it/)).not.toBeInTheDocument();
    tile.focus();
    fireEvent.keyDown(tile, { key: ' ', code: 'Space' });
    expect(liveRegion()?.textContent ?? '').not.toMatch(/Picked up/);
    expect(changes).toEqual([]);
  });

  it('lists a loot’s destinations closed in Take to..., with why', async () => {
    const { changes } = server(true);
    renderWorkspace('loot');
    const loot = await screen.findByTestId('workspace-loot');
    await within(loot).findByTestId('take-allowance-refusal');
    // Take to... lists the container closed, with why, as a move's menu does at the limit.
    const user = userEvent.setup();
    await user.click(within(loot).getByRole('button', { name: 'Take Longsword to...' }));
    const into = await screen.findByRole('menuitem', { name: /^Backpack/ });
    expect(into).toBeDisabled();
    expect(into).toHaveTextContent(reason);
    await user.click(into);
    expect(changes).toEqual([]);
  });

  it('picks a loot stack up while the allowance has room', async () => {
    server(false);
    renderWorkspace('loot');
    const loot = await screen.findByTestId('workspace-loot');
    const tile = await within(loot).findByRole('button', { name: /^Longsword, quantity/ });
    await waitFor(() => expect(tile).toHaveAttribute('aria-roledescription', 'draggable'));
    expect(within(loot).getByText(/Drag an item onto one of your containers to take it/)).toBeInTheDocument();
    expect(screen.queryByTestId('take-allowance-refusal')).not.toBeInTheDocument();
    const user = userEvent.setup();
    await user.click(within(loot).getByRole('button', { name: 'Take Longsword to...' }));
    expect(await screen.findByRole('menuitem', { name: /^Backpack/ })).toBeEnabled();
  });
});
