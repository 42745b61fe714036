import {
  type Container,
  type ContainerForm,
  type Currency,
  checkFeatureResultSchema,
  containerSchema,
  copperPer,
  type ItemInstance,
  type ItemInstanceUpdate,
  hasOverrides as instanceDataHasOverrides,
  isUnpricedItem,
  itemInstanceDetailSchema,
  itemInstanceSchema,
  MAX_OWNERS_PER_CONTAINER_LIST,
  ownerContainersSchema,
  type PageMeta,
  pageMetaSchema,
  transferResultSchema,
  undoResultSchema,
} from '@haversack/contracts';
import { infiniteQueryOptions, type QueryClient, queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { API_V1, ApiError, apiRequest } from '../../../lib/http-client';
import { isInvertedRange } from '../../../lib/range';
import { subscriptionKeys } from '../../subscription/api/subscription-api';

/** spec/02 §9: containers are fresh for 30 s; container items come 20 per page. */
export const CONTAINERS_STALE_MS = 30_000;
export const CONTAINER_ITEMS_PER_PAGE = 20;

export type ContainerOwner = { type: 'character' | 'party'; id: string };

/**
 * The only source of inventory cache keys (DESIGN §2). A container's items live under its own key, so
 * invalidating `container(id)` refreshes the container, its capacity and its items together.
 */
export const inventoryKeys = {
  all: ['inventory'] as const,
  owners: () => [...inventoryKeys.all, 'owner'] as const,
  owner: (owner: ContainerOwner) => [...inventoryKeys.owners(), owner.type, owner.id] as const,
  container: (id: string) => [...inventoryKeys.all, 'container', id] as const,
  items: (id: string, filters: ItemFilters) => [...inventoryKeys.container(id), 'items', filters] as const,
  /** The coins a container holds (for Convert coins). */
  coins: (id: string) => [...inventoryKeys.container(id), 'coins'] as const,
  /** The other stacks of one template in a container (for Merge). */
  stacks: (id: string, templateId: string) => [...inventoryKeys.container(id), 'stacks', templateId] as const,
  instance: (containerId: string, id: string) =>
    [...inventoryKeys.container(containerId), 'instance', id] as const,
  /**
   * Whether the user's plan in a party (patronage included) lets them act on its stash: kept with the account's
   * subscription data, so a plan change refreshes it with the rest (it read "not in your plan" after an upgrade).
   */
  partyCollaboration: (partyId: string) => subscriptionKeys.partyCollaboration(partyId),
};

export const PARTY_COLLABORATION_FEATURE = 'party_collaboration';

/** spec/01 §3: acting on a party's containers needs party_collaboration (decisions.md). */
export function partyCollaborationQuery(partyId: string) {
  return queryOptions({
    queryKey: inventoryKeys.partyCollaboration(partyId),
    queryFn: async ({ signal }) =>
      (
        await apiRequest(`${API_V1}/subscription/check_feature`, {
          method: 'POST',
          body: { feature: PARTY_COLLABORATION_FEATURE, party_id: partyId },
          schema: checkFeatureResultSchema,
          signal,
          toast: false,
        })
      ).data.allowed,
  });
}

const ownerPath = (owner: ContainerOwner) =>
  `${API_V1}/${owner.type === 'character' ? 'characters' : 'parties'}/${owner.id}/containers`;

/**
 * An owner's containers, one query (and one cache key) per owner so that a live event refreshes just the
 * owners it touched. The owners asked for together (a workspace, Party → Inventory, the Marketplace: one
 * per character) go out as one GET containers/by_owner rather than one request each: a GM of 141
 * characters sent 126 requests for one workspace (review "bigdata", finding 2).
 */
export function ownerContainersQuery(owner: ContainerOwner) {
  return queryOptions({
    queryKey: inventoryKeys.owner(owner),
    queryFn: () => ownerContainersBatcher.load(owner),
    staleTime: CONTAINERS_STALE_MS,
  });
}

interface Waiting {
  owner: ContainerOwner;
  settle: { resolve: (containers: Container[]) => void; reject: (error: unknown) => void }[];
}

/**
 * Collects the owners asked for in one turn (the queries a render starts are started together) and asks
 * for them at once. One owner alone is asked at its own path, as the spec names it; more go to
 * GET containers/by_owner, {@link MAX_OWNERS_PER_CONTAINER_LIST} a request. The request is not cancelled
 * with one query: it answers the others too (a query whose page went keeps its answer in the cache).
 */
export const ownerContainersBatcher = {
  waiting: new Map<string, Waiting>(),
  load(owner: ContainerOwner): Promise<Container[]> {
    return new Promise((resolve, reject) => {
      const key = `${owner.type}:${owner.id}`;
      const entry = this.waiting.get(key) ?? { owner, settle: [] };
      entry.settle.push({ resolve, reject });
      if (this.waiting.size === 0) queueMicrotask(() => this.flush());
      this.waiting.set(key, entry);
    });
  },
  flush(): void {
    const batch = [...this.waiting.values()];
    this.waiting.clear();
    for (let start = 0; start < batch.length; start += MAX_OWNERS_PER_CONTAINER_LIST) {
      void askFor(batch.slice(start, start + MAX_OWNERS_PER_CONTAINER_LIST));
    }
  },
};

async function askFor(batch: Waiting[]): Promise<void> {
  const settleAll = (entry: Waiting, outcome: { data: Container[] } | { error: unknown }) => {
    for (const { resolve, reject } of entry.settle) {
      if ('data' in outcome) resolve(outcome.data);
      else reject(outcome.error);
    }
  };
  try {
    const [single] = batch;
    if (batch.length === 1 && single) {
      const { data } = await apiRequest(ownerPath(single.owner), {
        schema: z.array(containerSchema),
        toast: false,
      });
      settleAll(single, { data });
      return;
    }
    const ids = (type: ContainerOwner['type']) =>
      batch.flatMap((entry) => (entry.owner.type === type ? [entry.owner.id] : []));
    const params = new URLSearchParams();
    if (ids('character').length > 0) params.set('character_ids', ids('character').join(','));
    if (ids('party').length > 0) params.set('party_ids', ids('party').join(','));
    const { data } = await apiRequest(`${API_V1}/containers/by_owner?${params}`, {
      schema: z.array(ownerContainersSchema),
      toast: false,
    });
    const answered = new Map(
      data.map((entry) => [`${entry.owner.type}:${entry.owner.id}`, entry.containers]),
    );
    for (const entry of batch) {
      const containers = answered.get(`${entry.owner.type}:${entry.owner.id}`);
      // Left out: the owner is not one this user may read (or is gone), as its own path answers 404.
      settleAll(
        entry,
        containers
          ? { data: containers }
          : {
              error: new ApiError({
                code: 'RESOURCE_NOT_FOUND',
                status: 404,
                type: 'not_found',
                message: `${entry.owner.type === 'character' ? 'Character' : 'Party'} not found.`,
              }),
            },
      );
    }
  } catch (error) {
    for (const entry of batch) settleAll(entry, { error });
  }
}

export function containerQuery(id: string) {
  return queryOptions({
    queryKey: inventoryKeys.container(id),
    queryFn: async ({ signal }) =>
      (await apiRequest(`${API_V1}/containers/${id}`, { schema: containerSchema, signal, toast: false }))
        .data,
    staleTime: CONTAINERS_STALE_MS,
  });
}

export interface ItemPage {
  items: ItemInstance[];
  meta: PageMeta;
  /** How many of the container's items come up to the end of this page. */
  end: number;
}

/** spec/02 §7 container items filters: text, rarity and a unit value range in gp. */
export interface ItemFilters {
  search: string;
  rarity: string | null;
  minValue: number | null;
  maxValue: number | null;
}

export const noItemFilters: ItemFilters = { search: '', rarity: null, minValue: null, maxValue: null };

/**
 * The filters as searched: a value range whose max is below its min could match nothing, so it is left out
 * (the Max field says why) rather than asked for.
 */
export function searchableItemFilters(filters: ItemFilters): ItemFilters {
  return isInvertedRange(filters.minValue, filters.maxValue)
    ? { ...filters, minValue: null, maxValue: null }
    : filters;
}

/** The query string of GET containers/{id}/items: `search`, `rarity`, `min_value`, `max_value` (gp). */
export function itemFilterParams(filters: ItemFilters, params = new URLSearchParams()): URLSearchParams {
  if (filters.search.trim()) params.set('search', filters.search.trim());
  if (filters.rarity) params.set('rarity', filters.rarity);
  if (filters.minValue !== null) params.set('min_value', String(filters.minValue));
  if (filters.maxValue !== null) params.set('max_value', String(filters.maxValue));
  return params;
}

/**
 * The same filters applied to stacks already loaded (a loot's stacks come with the loot): the name, its
 * override or the notes contain the search text; the rarity matches; the unit value (gp) is in range. An
 * unpriced item (`isUnpricedItem`, stored at 0) has no value to compare: a value range leaves it out.
 */
export function matchesItemFilters(item: ItemInstance, filters: ItemFilters): boolean {
  const search = filters.search.trim().toLowerCase();
  if (search) {
    // The stack's name is its override when it has one; its template's tags match too, as on the server.
    const texts = [item.item_template.name, item.name, item.notes ?? '', ...(item.item_template.tags ?? [])];
    if (!texts.some((text) => text.toLowerCase().includes(search))) return false;
  }
  if (filters.rarity) {
    const rarity = item.item_template.metadata.rarity;
    if (typeof rarity !== 'string' || rarity.toLowerCase() !== filters.rarity.toLowerCase()) return false;
  }
  if ((filters.minValue !== null || filters.maxValue !== null) && isUnpricedItem(item)) return false;
  if (filters.minValue !== null && item.value_cp < Math.round(filters.minValue * copperPer.gp)) return false;
  if (filters.maxValue !== null && item.value_cp > Math.round(filters.maxValue * copperPer.gp)) return false;
  return true;
}

/**
 * Which slice of a container's items a page holds. The first page is the spec's 20 (the first tiles come
 * fast); each next page doubles up to {@link CONTAINER_ITEMS_LARGEST_PAGE}, always starting where the last
 * one ended (each size divides the items loaded before it), so scrolling through 5,000 items takes about
 * 20 requests instead of 250 (decisions.md).
 */
export interface ItemPageParam {
  page: number;
  perPage: number;
}

/** The largest page scrolling asks for (below the server's 500, a multiple of 20 · 2ⁿ). */
export const CONTAINER_ITEMS_LARGEST_PAGE = 320;

/** The page that starts after `loaded` items (a multiple of the page sizes before it). */
export function nextItemPageParam(loaded: number): ItemPageParam {
  const perPage = Math.min(CONTAINER_ITEMS_LARGEST_PAGE, Math.max(CONTAINER_ITEMS_PER_PAGE, loaded));
  return { page: Math.floor(loaded / perPage) + 1, perPage };
}

/** Whether the container has items past this page. */
export function hasMoreItems(last: ItemPage): boolean {
  return last.meta.current_page < last.meta.total_pages && last.end < last.meta.total_count;
}

export function containerItemsQuery(id: string, filters: ItemFilters) {
  return infiniteQueryOptions({
    queryKey: inventoryKeys.items(id, filters),
    queryFn: async ({ signal, pageParam }): Promise<ItemPage> => {
      const params = itemFilterParams(
        filters,
        new URLSearchParams({ page: String(pageParam.page), per_page: String(pageParam.perPage) }),
      );
      const { data, meta } = await apiRequest(`${API_V1}/containers/${id}/items?${params}`, {
        schema: z.array(itemInstanceSchema),
        signal,
        toast: false,
      });
      const parsed = pageMetaSchema.safeParse(meta);
      return {
        items: data,
        meta: parsed.success
          ? parsed.data
          : {
              current_page: pageParam.page,
              total_pages: pageParam.page,
              total_count: data.length,
              per_page: data.length,
            },
        end: (pageParam.page - 1) * pageParam.perPage + data.length,
      };
    },
    initialPageParam: { page: 1, perPage: CONTAINER_ITEMS_PER_PAGE } as ItemPageParam,
    getNextPageParam: (last) => (hasMoreItems(last) ? nextItemPageParam(last.end) : undefined),
    staleTime: CONTAINERS_STALE_MS,
  });
}

/**
 * One stack as its sheet shows it (with its template's description), kept under its container's key so
 * that every change to the container refreshes it.
 */
export function itemInstanceQuery(containerId: string, id: string) {
  return queryOptions({
    queryKey: inventoryKeys.instance(containerId, id),
    queryFn: async ({ signal }) =>
      (
        await apiRequest(`${API_V1}/item_instances/${id}`, {
          schema: itemInstanceDetailSchema,
          signal,
          toast: false,
        })
      ).data,
    staleTime: CONTAINERS_STALE_MS,
  });
}

/** spec/02 §7: at most this many stacks come in one page of container items. */
const MAX_PER_PAGE = 500;

async function listStacks(containerId: string, search: string, signal: AbortSignal) {
  const params = new URLSearchParams({ page: '1', per_page: String(MAX_PER_PAGE), search });
  return (
    await apiRequest(`${API_V1}/containers/${containerId}/items?${params}`, {
      schema: z.array(itemInstanceSchema),
      signal,
      toast: false,
    })
  ).data;
}

/** The coin denominations (DESIGN §4), smallest first, by the seeded coin templates' names. */
export const coinNames: Record<Currency, string> = {
  cp: 'Copper piece',
  sp: 'Silver piece',
  ep: 'Electrum piece',
  gp: 'Gold piece',
  pp: 'Platinum piece',
};

/** Which coin a stack is, as the server says: only the seeded coin templates are money. */
export function coinOf(item: ItemInstance): Currency | null {
  return item.item_template.coin;
}

/** How many coins of each denomination a container holds (only stacks without overrides convert). */
export function containerCoinsQuery(containerId: string) {
  return queryOptions({
    queryKey: inventoryKeys.coins(containerId),
    queryFn: async ({ signal }) => {
      const stacks = await listStacks(containerId, 'piece', signal);
      const coins: Partial<Record<Currency, number>> = {};
      for (const stack of stacks) {
        const coin = coinOf(stack);
        if (coin && !hasOverrides(stack)) coins[coin] = (coins[coin] ?? 0) + stack.quantity;
      }
      return coins;
    },
    staleTime: CONTAINERS_STALE_MS,
  });
}

/** A stack with a name, description, weight, value or currency of its own cannot merge or convert. */
export function hasOverrides(item: ItemInstance): boolean {
  return instanceDataHasOverrides(item.instance_data);
}

/** Other stacks of the same template, without overrides, in the same container: what a stack may merge with. */
export function mergeTargetsQuery(item: ItemInstance) {
  return queryOptions({
    queryKey: inventoryKeys.stacks(item.container_id, item.item_template_id),
    queryFn: async ({ signal }) =>
      (await listStacks(item.container_id, item.item_template.name, signal)).filter(
        (stack) => stack.item_template_id === item.item_template_id && !hasOverrides(stack),
      ),
    staleTime: CONTAINERS_STALE_MS,
  });
}

export async function createContainer(owner: ContainerOwner, container: ContainerForm): Promise<Container> {
  const { data } = await apiRequest(ownerPath(owner), {
    method: 'POST',
    body: { container },
    schema: containerSchema,
  });
  return data;
}

/** PATCH containers/{id}: its name, description and limits (spec/02 §7 container CRUD). */
export async function updateContainer(
  containerId: string,
  container: Partial<ContainerForm>,
): Promise<Container> {
  const { data } = await apiRequest(`${API_V1}/containers/${containerId}`, {
    method: 'PATCH',
    body: { container },
    schema: containerSchema,
  });
  return data;
}

export interface TransferRequest {
  itemInstanceId: string;
  sourceContainerId: string;
  targetContainerId: string;
  quantity: number;
}

/** The caller shows the spec/02 §8 toasts itself, so the client's own error toast is off. */
export async function transferItem(request: TransferRequest) {
  const { data } = await apiRequest(`${API_V1}/containers/transfer`, {
    method: 'POST',
    body: {
      item_instance_id: request.itemInstanceId,
      source_container_id: request.sourceContainerId,
      target_container_id: request.targetContainerId,
      quantity: request.quantity,
    },
    schema: transferResultSchema,
    toast: false,
  });
  return data;
}

/** DESIGN §4 Undo: the server moves a move's items back, as a new entry linked to it. */
export async function undoMove(transactionId: string) {
  const { data } = await apiRequest(`${API_V1}/transactions/${transactionId}/undo`, {
    method: 'POST',
    schema: undoResultSchema,
    toast: false,
  });
  return data;
}

export async function addFromTemplate(templateId: string, containerId: string, quantity: number) {
  const { data } = await apiRequest(`${API_V1}/item_instances`, {
    method: 'POST',
    body: { item_template_id: templateId, container_id: containerId, quantity },
    schema: z.array(itemInstanceSchema),
    toast: false,
  });
  return data;
}

export async function updateItem(id: string, change: ItemInstanceUpdate): Promise<ItemInstance> {
  const { data } = await apiRequest(`${API_V1}/item_instances/${id}`, {
    method: 'PATCH',
    body: { item_instance: change },
    schema: itemInstanceSchema,
  });
  return data;
}

export async function splitItem(id: string, quantity: number): Promise<ItemInstance[]> {
  const { data } = await apiRequest(`${API_V1}/item_instances/${id}/split`, {
    method: 'POST',
    body: { quantity },
    schema: z.array(itemInstanceSchema),
  });
  return data;
}

/** The caller shows the server's refusal itself. */
export async function mergeItem(id: string, targetInstanceId: string): Promise<ItemInstance> {
  const { data } = await apiRequest(`${API_V1}/item_instances/${id}/merge`, {
    method: 'POST',
    body: { target_instance_id: targetInstanceId },
    schema: itemInstanceSchema,
    toast: false,
  });
  return data;
}

export interface ConversionRequest {
  from: Currency;
  to: Currency;
  /** Omitted: as many as convert evenly. */
  quantity?: number;
}

export async function convertCurrency(containerId: string, request: ConversionRequest): Promise<Container> {
  const { data } = await apiRequest(`${API_V1}/containers/${containerId}/convert_currency`, {
    method: 'POST',
    body: request,
    schema: containerSchema,
    toast: false,
  });
  return data;
}

/** DELETE containers/{id}; a container that still holds items needs a destination for them. */
export async function deleteContainer(id: string, destinationContainerId: string | null): Promise<void> {
  const query = destinationContainerId
    ? `?${new URLSearchParams({ destination_container_id: destinationContainerId })}`
    : '';
  await apiRequest(`${API_V1}/containers/${id}${query}`, { method: 'DELETE', toast: false });
}

export async function destroyItem(id: string): Promise<void> {
  await apiRequest(`${API_V1}/item_instances/${id}`, { method: 'DELETE' });
}

/**
 * Refresh exactly what a change touched: each container (with its capacity and items) and the owner lists
 * that show how full it is. `goneItemIds` are the stacks the change took out of those containers (given
 * or moved whole, merged away, destroyed): their detail, which the item sheet still shows until the change
 * closes it, is dropped rather than refetched, since GET item_instances/{id} could only answer 404 now.
 * Dropped before the party's live event about the same change arrives, it is not refetched by that either.
 */
export async function invalidateContainers(
  queryClient: QueryClient,
  containerIds: readonly string[],
  goneItemIds: readonly string[] = [],
) {
  const ids = [...new Set(containerIds)];
  for (const id of ids) {
    for (const item of goneItemIds) {
      queryClient.removeQueries({ queryKey: inventoryKeys.instance(id, item), exact: true });
    }
  }
  await Promise.all([
    ...ids.map((id) => queryClient.invalidateQueries({ queryKey: inventoryKeys.container(id) })),
    queryClient.invalidateQueries({ queryKey: inventoryKeys.owners() }),
    // Each change counts against the month's allowance that the workspace may be warning about.
    queryClient.invalidateQueries({ queryKey: subscriptionKeys.allowance() }),
  ]);
}
