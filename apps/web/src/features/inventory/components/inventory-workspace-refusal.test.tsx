import { inventoryMessages } from '@haversack/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useUiStore } from '../../../stores/ui-store';
import { failure, jsonResponse, mockFetch, success } from '../../../test/fixtures';
import { pageMeta } from '../../../test/party-fixtures';
import { restoreViewportAfterEach, setViewport } from '../../../test/viewport';
import { buildContainer, buildItem, renderWithProviders } from '../test/inventory-fixtures';
import { InventoryWorkspace } from './inventory-workspace';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const backpack = buildContainer({ id: 'c-pack', name: 'Backpack' });
// 47 of 50 lbs: room for three daggers of a pound each, not five.
const pouch = buildContainer({
  id: 'c-pouch',
  name: 'Belt Pouch',
  is_primary: false,
  capacity: { used: 47, max: 50, slots_used: 1, slots_max: 20, enforces: { weight: true, slots: true } },
});
const daggers = buildItem({
  id: 'i-dagger',
  name: 'Dagger',
  quantity: 5,
  weight: 1,
  totalWeight: 5,
  container_id: backpack.id,
});

/** The backpack's daggers, a nearly full pouch, and a server that refuses more than three. */
function server() {
  return mockFetch(({ url, init }) => {
    const { pathname } = new URL(url, 'http://test');
    if (pathname === `/api/v1/containers/${backpack.id}`) return success(backpack);
    if (pathname === `/api/v1/containers/${pouch.id}`) return success(pouch);
    if (pathname === `/api/v1/item_instances/${daggers.id}`) return success(daggers);
    if (pathname === `/api/v1/containers/${backpack.id}/items`)
      return jsonResponse(200, { status: 'success', data: [daggers], meta: pageMeta(1, 20) });
    if (pathname === `/api/v1/containers/${pouch.id}/items`)
      return jsonResponse(200, { status: 'success', data: [], meta: pageMeta(1, 20) });
    if (init.method === 'POST' && pathname === '/api/v1/containers/transfer') {
      const body = JSON.parse(String(init.body));
      if (body.quantity > 3) {
        return failure(422, 'CAPACITY_EXCEEDED', inventoryMessages.weightExceeded, [
          { field: 'target_container_id', message: inventoryMessages.weightExceeded },
        ]);
      }
      return success({
        success: true,
        message: 'Item transferred successfully',
        moved: body.quantity,
        source_instance: { ...daggers, quantity: daggers.quantity - body.quantity },
        target_instances: [],
        transaction_ids: ['entry-1'],
      });
    }
    return failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${pathname}`);
  });
}

describe('InventoryWorkspace: a move refused for want of room', { timeout: 20_000 }, () => {
  restoreViewportAfterEach();
  beforeEach(() => {
    setViewport(1280, 800);
    useUiStore.setState({ toasts: [] });
  });

  it('keeps the quantity dialog open with the refusal on its field, and how many fit', async () => {
    server();
    renderWithProviders(
      <InventoryWorkspace
        owner="Aria"
        containers={[backpack, pouch]}
        initialLeft={{ tab: 'container', containerId: backpack.id }}
        initialRight={{ tab: 'container', containerId: pouch.id }}
        inParty={false}
        partyId={null}
        createOwner={null}
      />,
    );
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Move Dagger to...' }));
    await user.click(await screen.findByRole('menuitem', { name: /^Belt Pouch/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Move Dagger' });
    const quantity = within(dialog).getByRole('textbox', { name: 'Quantity' });
    expect(quantity).toHaveValue('5');
    await user.click(within(dialog).getByRole('button', { name: 'Move' }));

    // The spec's sentence first, then how many would fit; the number typed stays to be changed.
    expect(
      await within(dialog).findByText(`${inventoryMessages.weightExceeded} (room for 3)`),
    ).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Move Dagger' })).toBe(dialog);
    expect(quantity).toHaveValue('5');
    expect(useUiStore.getState().toasts.map((t) => t.message)).not.toContain(
      inventoryMessages.weightExceeded,
    );

    await user.clear(quantity);
    await user.type(quantity, '3');
    expect(within(dialog).queryByText(/room for/)).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Move' }));
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Move Dagger' })).not.toBeInTheDocument(),
    );
  });
});
