import { type ItemInstance, inventoryMessages } from '@haversack/contracts';
import { hashKey, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { isApiError } from '../../../lib/http-client';
import { toast } from '../../../lib/toast';
import { itemTemplateQuery } from '../../items/api/item-templates-api';
import { lootInstanceQuery } from '../../loot/api/loot-api';
import { itemInstanceQuery } from '../api/inventory-api';
import type { ItemAbout, LootSource } from '../workspace-types';

/**
 * The item the detail modal shows, kept fresh from the cache while it is open. A loot stack comes with its
 * loot (the Loot tab's data is its fresh copy). `about` is what the item is: for my own stacks it comes with
 * the stack's detail; a loot stack's is read from its template, which says nothing of a template the viewer
 * may not read (a GM's private homebrew).
 */
export function useOpenItem() {
  const queryClient = useQueryClient();
  const [opened, setOpened] = useState<{ item: ItemInstance; loot: LootSource | null } | null>(null);
  const mine = opened !== null && opened.loot === null;
  const options = itemInstanceQuery(opened?.item.container_id ?? '', opened?.item.id ?? '');
  // A change that took the stack away (a gift, a move of the whole stack, a merge, a destroy) drops its
  // entry (invalidateContainers). The sheet stays open until that change closes it, and drawn again
  // meanwhile it would ask for the stack afresh, only to get a 404: a dropped entry stays unasked.
  const gone = useRef<string | null>(null);
  const hash = hashKey(options.queryKey);
  useEffect(
    () =>
      queryClient.getQueryCache().subscribe((event) => {
        if (event.type === 'removed' && event.query.queryHash === hash) gone.current = hash;
      }),
    [queryClient, hash],
  );
  const query = useQuery({ ...options, enabled: mine && gone.current !== hash });
  // Someone else (another device, another player) moved the whole stack away or destroyed it: the sheet
  // would go on offering Edit, Split and Destroy on what is no longer there. It closes, saying so, as the
  // quantity dialog does.
  const taken =
    mine &&
    ((isApiError(query.error) && query.error.status === 404) ||
      (query.data !== undefined && query.data.container_id !== opened.item.container_id));
  useEffect(() => {
    if (!taken) return;
    toast.error(inventoryMessages.itemGone);
    setOpened(null);
  }, [taken]);
  // A loot stack as its loot has it now: the Loot tab's query, refreshed by a live event or a refused take.
  const lootId = opened?.loot?.lootId ?? null;
  const itemId = opened?.item.id;
  const lootStack = useQuery({
    ...lootInstanceQuery(lootId ?? ''),
    enabled: lootId !== null,
    select: (loot) => loot.container.item_instances.find((item) => item.id === itemId),
  });
  const lootTemplate = useQuery({
    ...itemTemplateQuery(opened?.item.item_template_id ?? ''),
    enabled: lootId !== null,
  });
  const about: ItemAbout | null = !opened
    ? null
    : mine
      ? query.data
        ? {
            description: query.data.item_template.description,
            templateId: query.data.item_template.viewable ? query.data.item_template_id : null,
          }
        : null
      : lootTemplate.data
        ? { description: lootTemplate.data.description, templateId: lootTemplate.data.id }
        : null;
  return {
    item: opened ? ((mine ? query.data : lootStack.data) ?? opened.item) : null,
    about,
    loot: opened?.loot ?? null,
    /** The loot stack is no longer in its loot: taken whole, by someone else or by a take of ours. */
    lootGone: lootId !== null && lootStack.isSuccess && lootStack.data === undefined,
    open: (item: ItemInstance) => setOpened({ item, loot: null }),
    openLoot: (item: ItemInstance, loot: LootSource) => setOpened({ item, loot }),
    close: () => setOpened(null),
  };
}
