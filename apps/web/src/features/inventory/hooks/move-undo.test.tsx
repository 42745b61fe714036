import { Button } from '@mantine/core';
import { Notifications, notifications } from '@mantine/notifications';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
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
