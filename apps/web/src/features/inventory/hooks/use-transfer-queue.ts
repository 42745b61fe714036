import { type ItemInstance, inventoryMessages } from '@haversack/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { toast } from '../../../lib/toast';
import { invalidateContainers, transferItem } from '../api/inventory-api';
import { transferErrorMessage } from '../api/transfer-messages';

/** spec/02 §5: the queue refuses to run without a destination. */
export const selectDestinationMessage = 'Please select a destination';

export interface QueueProgress {
  done: number;
  total: number;
}

/**
 * spec/02 §2 transfer queue (phones and tablets): items wait with their whole stack; processing moves each
 * one in turn to the destination, then empties the queue.
 */
export function useTransferQueue() {
  const queryClient = useQueryClient();
  const [items, setItems] = useState<ItemInstance[]>([]);
  const [destination, setDestination] = useState<string | null>(null);
  const [progress, setProgress] = useState<QueueProgress | null>(null);
  const [error, setError] = useState<string | null>(null);

  const add = useCallback((item: ItemInstance) => {
    setItems((queued) => (queued.some((q) => q.id === item.id) ? queued : [...queued, item]));
    toast.info(`${item.name} added to the queue`);
  }, []);
  const remove = useCallback(
    (itemId: string) => setItems((queued) => queued.filter((q) => q.id !== itemId)),
    [],
  );
  const clear = useCallback(() => setItems([]), []);
  const choose = useCallback((containerId: string | null) => {
    setDestination(containerId);
    setError(null);
  }, []);

  /** Quick Transfer (swipe right): the whole stack to the queue's destination at once. */
  const quickTransfer = useCallback(
    async (item: ItemInstance) => {
      if (!destination) {
        setError(selectDestinationMessage);
        toast.error(selectDestinationMessage);
        return;
      }
      try {
        const result = await transferItem({
          itemInstanceId: item.id,
          sourceContainerId: item.container_id,
          targetContainerId: destination,
          quantity: item.quantity,
        });
        toast.success(result.message || inventoryMessages.transferred);
      } catch (cause) {
        toast.error(transferErrorMessage(cause));
      } finally {
        await invalidateContainers(queryClient, [item.container_id, destination]);
      }
    },
    [destination, queryClient],
  );

  const process = useCallback(async () => {
    if (!destination) {
      setError(selectDestinationMessage);
      toast.error(selectDestinationMessage);
      return;
    }
    const batch = items.filter((item) => item.container_id !== destination);
    const touched = new Set<string>([destination]);
    let moved = 0;
    setProgress({ done: 0, total: batch.length });
    // One after another: each transfer locks its stack on the server, and the order is the queue's.
    for (const [index, item] of batch.entries()) {
      touched.add(item.container_id);
      try {
        await transferItem({
          itemInstanceId: item.id,
          sourceContainerId: item.container_id,
          targetContainerId: destination,
          quantity: item.quantity,
        });
        moved += 1;
      } catch (cause) {
        toast.error(`${item.name}: ${transferErrorMessage(cause)}`);
      }
      setProgress({ done: index + 1, total: batch.length });
    }
    if (moved > 0) {
      toast.success(moved === 1 ? inventoryMessages.transferred : `${moved} items transferred successfully`);
    }
    setItems([]);
    setProgress(null);
    await invalidateContainers(queryClient, [...touched]);
  }, [destination, items, queryClient]);

  return { items, destination, progress, error, add, remove, clear, choose, quickTransfer, process };
}

export type TransferQueue = ReturnType<typeof useTransferQueue>;
