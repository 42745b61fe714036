import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import {
  hasMoreItems,
  type ItemFilters,
  type ItemPage,
  inventoryKeys,
  matchesItemFilters,
} from '../api/inventory-api';
import type { QueuedItem } from '../workspace-types';

/**
 * The queue as the containers' loaded items now show it: a queued stack that shrank (part moved, taken or
 * given, by this player or live by another) waits with what is left of it, and one that left its container
 * drops out. A stack is known to have left only where a list of its container that would show it is loaded
 * to its end; anywhere else its absence proves nothing. Loot stacks are the loot's to settle. Answers the
 * same array when nothing changed.
 */
export function settleQueue(queryClient: QueryClient, items: QueuedItem[]): QueuedItem[] {
  let changed = false;
  const settled = items.flatMap((item) => {
    if (item.loot) return [item];
    const lists = queryClient.getQueriesData<InfiniteData<ItemPage>>({
      queryKey: inventoryKeys.container(item.container_id),
    });
    for (const [key, data] of lists) {
      if (key.at(-2) !== 'items' || !data?.pages.length) continue;
      const found = data.pages.flatMap((page) => page.items).find((listed) => listed.id === item.id);
      if (found) {
        if (found.quantity === item.quantity) return [item];
        changed = true;
        return [{ ...item, quantity: found.quantity }];
      }
      const last = data.pages.at(-1);
      if (last && !hasMoreItems(last) && matchesItemFilters(item, key.at(-1) as ItemFilters)) {
        changed = true;
        return [];
      }
    }
    return [item];
  });
  return changed ? settled : items;
}
