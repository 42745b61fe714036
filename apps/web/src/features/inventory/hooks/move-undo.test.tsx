import { Button } from '@mantine/core';
import { Notifications, notifications } from '@mantine/notifications';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { useUiStore } from '../../../stores/ui-store';
import { jsonResponse, mockFetch } from '../../../test/fixtures';
import { buildItem, renderWithProviders } from '../test/inventory-fixtures';
import { useTransferItem } from './use-inventory-actions';

function Harness() {
  const transfer = useTransferItem();
  return (
    <>
      <Button
        onClick={() =>
          transfer.mutate({
            itemInstanceId: 'arrows',
            sourceContainerId: 'container-1',
            targetContainerId: 'container-2',
            quantity: 12,
          })
        }
      >
        Move
      </Button>
      <Notifications />
    </>
  );
}

describe('a move by mouse, keyboard or menu', { timeout: 20_000 }, () => {
  it('offers Undo in its toast, as a quick transfer does, and undoes through the ledger entry', async () => {
    const posts: string[] = [];
    mockFetch(({ url, init }) => {
      if (init.method === 'POST') posts.push(url);
      if (url.endsWith('/undo'))
        return jsonResponse(200, {
          status: 'success',
          data: { success: true, message: 'Transfer undone', moved: 12 },
        });
      if (url.endsWith('/containers/transfer'))
        return jsonResponse(200, {
          status: 'success',
          data: {
            success: true,
            message: 'Item transferred successfully',
            moved: 12,
            source_instance: buildItem({ id: 'arrows', quantity: 8 }),
            target_instances: [buildItem({ id: 'moved', quantity: 12, container_id: 'container-2' })],
            transaction_ids: ['entry-7'],
          },
        });
      return jsonResponse(200, { status: 'success', data: [] });
    });
    notifications.clean();
    renderWithProviders(<Harness />);
    fireEvent.click(screen.getByRole('button', { name: 'Move' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Undo' }, { timeout: 5_000 }));
    await waitFor(() => expect(posts).toContain('/api/v1/transactions/entry-7/undo'));
    await waitFor(() =>
      expect(useUiStore.getState().toasts.map((t) => t.message)).toContain('Transfer undone'),
    );
  });
});

describe('the keyboard after Undo in a move’s toast', { timeout: 20_000 }, () => {
  afterEach(() => useUiStore.setState({ toasts: [] }));

  /** The container the Arrows left, drawn again once the undo is done (as the refetch draws it). */
  let showRestored: (shown: boolean) => void = () => undefined;
  function Workspace() {
    const [restored, setRestored] = useState(false);
    showRestored = setRestored;
    return (
      <main tabIndex={-1}>
        <div data-item-grid="">
          <div data-item-id="rope">
            <button type="button" data-testid="item-tile" tabIndex={0}>
              Rope
            </button>
          </div>
          {restored ? (
            <div data-item-id="arrows">
              <button type="button" data-testid="item-tile" tabIndex={-1}>
                Arrows
              </button>
            </div>
          ) : null}
        </div>
        <Harness />
      </main>
    );
  }

  it('moves the focus to the tile of the item moved back, not to the page', async () => {
    useUiStore.setState({ toasts: [] });
    let undone = false;
    mockFetch(({ url }) => {
      if (url.endsWith('/undo')) {
        undone = true;
        showRestored(true);
        return jsonResponse(200, {
          status: 'success',
          data: { success: true, message: 'Transfer undone', moved: 20 },
        });
      }
      if (url.endsWith('/containers/transfer'))
        return jsonResponse(200, {
          status: 'success',
          data: {
            success: true,
            message: 'Item transferred successfully',
            moved: 20,
            // The whole stack went: nothing is left where it was.
            source_instance: null,
            target_instances: [buildItem({ id: 'arrows', quantity: 20, container_id: 'container-2' })],
            transaction_ids: ['entry-8'],
          },
        });
      return jsonResponse(200, { status: 'success', data: [] });
    });
    notifications.clean();
    const user = userEvent.setup();
    renderWithProviders(<Workspace />);
    fireEvent.click(screen.getByRole('button', { name: 'Move' }));
    const undo = await screen.findByRole('button', { name: 'Undo' }, { timeout: 5_000 });
    undo.focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(undone).toBe(true));
    await waitFor(() =>
      expect(useUiStore.getState().toasts.map((t) => t.message)).toContain('Transfer undone'),
    );
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Arrows' })));
  });
});
