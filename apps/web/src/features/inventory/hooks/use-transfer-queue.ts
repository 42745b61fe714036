import { inventoryMessages, lootMessages } from '@haversack/contracts';
import { useSessionStorage } from '@mantine/hooks';
import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { dismissToast, toast } from '../../../lib/toast';
import { takeLoot } from '../../loot/api/loot-api';
import { afterTake, takeErrorMessage } from '../../loot/hooks/use-take-loot';
import { invalidateContainers, transferItem } from '../api/inventory-api';
import { toastTransferFailure, transferErrorMessage } from '../api/transfer-messages';
import type { QueuedItem } from '../workspace-types';
import { toastMoveWithUndo } from './move-undo';
import { settleQueue } from './settle-queue';

/** spec/02 §5: the queue refuses to run without a destination. */
export const selectDestinationMessage = 'Please select a destination';

export interface QueueProgress {
  done: number;
  total: number;
}

/** "3 items taken successfully" after a queue took several loot stacks. */
export function takenMessage(count: number): string {
  return count === 1 ? lootMessages.taken : `${count} items taken successfully`;
}

/** One queued stack to the destination: a move for my items, a take for a loot stack (spec/02 §4). */
function send(item: QueuedItem, destination: string) {
  if (item.loot) {
    return takeLoot({
      lootId: item.loot.lootId,
      itemInstanceId: item.id,
      targetContainerId: destination,
      quantity: item.quantity,
    });
  }
  return transferItem({
    itemInstanceId: item.id,
    sourceContainerId: item.container_id,
    targetContainerId: destination,
    quantity: item.quantity,
  });
}

/** What a queued stack's change touched: the containers, and the loot it came from (with its ledger). */
async function refresh(queryClient: QueryClient, items: QueuedItem[], destination: string) {
  const loot = new Map(items.flatMap((item) => (item.loot ? [[item.loot.lootId, item.loot.partyId]] : [])));
  await Promise.all([
    invalidateContainers(queryClient, [
      destination,
      ...items.filter((item) => !item.loot).map((item) => item.container_id),
    ]),
    ...[...loot].map(([lootId, partyId]) =>
      afterTake(queryClient, { lootId, partyId, targetContainerId: destination }),
    ),
  ]);
}

const noItems: QueuedItem[] = [];

/** What the tab's storage holds for a queue, read back only when it has the shape written. */
function readQueued(stored: string | undefined): QueuedItem[] {
  try {
    const value: unknown = stored ? JSON.parse(stored) : [];
    return Array.isArray(value) ? value.filter((item) => typeof item?.id === 'string') : [];
  } catch {
    return [];
  }
}

function readDestination(stored: string | undefined): string | null {
  try {
    const value: unknown = stored ? JSON.parse(stored) : null;
    return typeof value === 'string' ? value : null;
  } catch {
    return null;
  }
}

/**
 * spec/02 §2 transfer queue (phones and tablets swipe into it; a desktop uses Q, Ctrl+click or the item
 * dialog): items wait with their whole stack; processing moves each one in turn to the destination (a loot
 * stack is taken), then empties the queue of all but the failures.
 */
export function useTransferQueue(
  scope = 'workspace',
  options: {
    /**
     * Why a queued stack would be refused at the destination before it is sent (a monthly allowance its
     * move or take would spend is used up), or null: such a stack is not sent, and waits in the queue.
     */
    refusalOf?: (item: QueuedItem, destination: string) => string | null;
  } = {},
) {
  const queryClient = useQueryClient();
  // The latest rule, read when the queue runs: the callbacks below keep their identity across renders.
  const refusalOf = useRef(options.refusalOf);
  refusalOf.current = options.refusalOf;
  // Kept in the tab's session storage: a reload at the table (a phone that slept, a dropped connection)
  // no longer loses what was swiped into the queue. The first fresh list of each container settles it.
  const [items, setItems] = useSessionStorage<QueuedItem[]>({
    key: `haversack-transfer-queue:${scope}:items`,
    defaultValue: noItems,
    getInitialValueInEffect: false,
    deserialize: readQueued,
  });
  const [destination, setDestination] = useSessionStorage<string | null>({
    key: `haversack-transfer-queue:${scope}:destination`,
    defaultValue: null,
    getInitialValueInEffect: false,
    deserialize: readDestination,
  });
  const [progress, setProgress] = useState<QueueProgress | null>(null);
  const [error, setError] = useState<string | null>(null);

  // Each fresh list of a container (a refetch after any change, the live events' included) settles what
  // waits in the queue, so it never offers a stack that is gone or more of one than is left.
  useEffect(
    () =>
      queryClient.getQueryCache().subscribe((event) => {
        if (event.type === 'updated' && event.action.type === 'success')
          setItems((queued) => (queued.length === 0 ? queued : settleQueue(queryClient, queued)));
      }),
    [queryClient, setItems],
  );

  // One "added to the queue" toast at a time: swiping a row of items piled them over the list on a phone.
  const lastAddedToast = useRef<string | null>(null);
  const add = useCallback(
    (item: QueuedItem) => {
      if (item.loot?.blocked) {
        toast.error(item.loot.blocked);
        return;
      }
      setItems((queued) => (queued.some((q) => q.id === item.id) ? queued : [...queued, item]));
      if (lastAddedToast.current) dismissToast(lastAddedToast.current);
      lastAddedToast.current = toast.info(`${item.name} added to the queue`);
    },
    [setItems],
  );
  const remove = useCallback(
    (itemId: string) => setItems((queued) => queued.filter((q) => q.id !== itemId)),
    [setItems],
  );
  const clear = useCallback(() => setItems([]), [setItems]);
  const choose = useCallback(
    (containerId: string | null) => {
      setDestination(containerId);
      setError(null);
    },
    [setDestination],
  );

  /** Quick Transfer (swipe right): the whole stack to the queue's destination at once (loot: taken). */
  const quickTransfer = useCallback(
    async (item: QueuedItem) => {
      if (item.loot?.blocked) {
        toast.error(item.loot.blocked);
        return;
      }
      if (!destination) {
        setError(selectDestinationMessage);
        toast.error(selectDestinationMessage);
        return;
      }
      const refused = refusalOf.current?.(item, destination);
      if (refused) {
        toast.error(`${item.name}: ${refused}.`);
        return;
      }
      try {
        if (item.loot) {
          await send(item, destination);
          toast.success(lootMessages.taken);
        } else {
          const result = await transferItem({
            itemInstanceId: item.id,
            sourceContainerId: item.container_id,
            targetContainerId: destination,
            quantity: item.quantity,
          });
          toastMoveWithUndo(result, () => refresh(queryClient, [item], destination));
        }
      } catch (cause) {
        toastTransferFailure(cause, item.loot ? takeErrorMessage(cause) : undefined);
      } finally {
        await refresh(queryClient, [item], destination);
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
    const eligible = items.filter((item) => item.container_id !== destination);
    // What would only be refused for a used-up allowance is not sent: it waits, and one toast says why.
    const refused = eligible.filter((item) => refusalOf.current?.(item, destination));
    const batch = eligible.filter((item) => !refused.includes(item));
    const failed = new Set<string>(refused.map((item) => item.id));
    const [firstRefused] = refused;
    if (firstRefused) {
      const why = refusalOf.current?.(firstRefused, destination);
      const names = refused.map((item) => item.name).join(', ');
      toast.error(`${names}: ${why}.`);
    }
    if (batch.length === 0 && refused.length > 0) return;
    let moved = 0;
    let taken = 0;
    setProgress({ done: 0, total: batch.length });
    // One after another: each transfer locks its stack on the server, and the order is the queue's.
    for (const [index, item] of batch.entries()) {
      try {
        await send(item, destination);
        if (item.loot) taken += 1;
        else moved += 1;
      } catch (cause) {
        failed.add(item.id);
        const reason = item.loot ? takeErrorMessage(cause) : transferErrorMessage(cause);
        toastTransferFailure(cause, `${item.name}: ${reason}`);
      }
      setProgress({ done: index + 1, total: batch.length });
    }
    if (moved > 0) {
      toast.success(moved === 1 ? inventoryMessages.transferred : `${moved} items transferred successfully`);
    }
    if (taken > 0) toast.success(takenMessage(taken));
    // Emptied of what went (spec/02 §2); what failed waits to be tried again (the connection back), and
    // what was queued meanwhile stays. A stack that is gone leaves at the next refresh (settleQueue).
    const processed = new Set(items.map((item) => item.id));
    setItems((queued) => queued.filter((item) => failed.has(item.id) || !processed.has(item.id)));
    setProgress(null);
    await refresh(queryClient, batch, destination);
  }, [destination, items, queryClient, setItems]);

  return { items, destination, progress, error, add, remove, clear, choose, quickTransfer, process };
}

export type TransferQueue = ReturnType<typeof useTransferQueue>;
