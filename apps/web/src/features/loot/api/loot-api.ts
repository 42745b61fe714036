import {
  type Currency,
  type DistributionMode,
  type LootDistribution,
  type LootInstance,
  type LootInstanceCreate,
  type LootInstanceSummary,
  type LootInstanceUpdate,
  type LootItem,
  type LootSourceType,
  type LootTakeResult,
  type LootTemplate,
  type LootTemplateUpdate,
  lootDistributionSchema,
  lootInstanceSchema,
  lootInstanceSummarySchema,
  lootItemSchema,
  lootMessages,
  lootSummarySchema,
  lootTakeResultSchema,
  lootTemplateSchema,
  type PageMeta,
  pageMetaSchema,
} from '@haversack/contracts';
import { keepPreviousData, type QueryClient, queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { fetchEveryPage } from '../../../lib/fetch-every-page';
import { API_V1, apiRequest, isApiError } from '../../../lib/http-client';

/** Loot changes at the table: a party's loot is fresh for 30 s, one loot for 30 s, templates for 5 min. */
export const LOOT_TEMPLATES_STALE_MS = 5 * 60_000;
export const PARTY_LOOT_STALE_MS = 30_000;
export const LOOT_INSTANCE_STALE_MS = 30_000;
export const LOOT_TEMPLATES_PER_PAGE = 12;
/** spec/02 §9: loot inventories are treated as 100 per page (the workspace's loot picker offers as many). */
export const LOOT_INVENTORY_PER_PAGE = 100;
/** The party's Loot tab: four rows of its 1/2/3-column grid a page, as the party's Shops tab. */
export const PARTY_LOOT_PER_PAGE = 12;

/** The party Loot tab's search, revealed/hidden filter (the GM's) and page. */
export interface PartyLootFilters {
  search: string;
  isRevealed: boolean | null;
  page: number;
}

export const defaultPartyLootFilters: PartyLootFilters = { search: '', isRevealed: null, page: 1 };

export type LootSort = 'name' | 'created_at' | 'updated_at' | 'value';

/** spec/02 §7 GET loot_templates filters (visibility, tag, source_type, creator_id), sort and paging. */
export interface LootTemplateFilters {
  search: string;
  sourceType: LootSourceType | null;
  visibility: 'private' | 'unlisted' | 'public' | null;
  tags: string[];
  creatorId: string | null;
  /** Only templates I made. */
  mine: boolean;
  sortBy: LootSort;
  sortOrder: 'asc' | 'desc';
  page: number;
}

export const defaultLootTemplateFilters: LootTemplateFilters = {
  search: '',
  sourceType: null,
  visibility: null,
  tags: [],
  creatorId: null,
  mine: false,
  sortBy: 'name',
  sortOrder: 'asc',
  page: 1,
};

/** The only source of loot cache keys (DESIGN §2). */
export const lootKeys = {
  all: ['loot'] as const,
  templates: () => [...lootKeys.all, 'templates'] as const,
  templateList: (filters: LootTemplateFilters) => [...lootKeys.templates(), 'list', filters] as const,
  template: (id: string) => [...lootKeys.templates(), 'detail', id] as const,
  instances: () => [...lootKeys.all, 'instances'] as const,
  partyLoot: (partyId: string) => [...lootKeys.instances(), 'party', partyId] as const,
  /** Under the party's loot, so whatever refreshes the party's loot refreshes every page of the tab too. */
  partyLootPage: (partyId: string, filters: PartyLootFilters) =>
    [...lootKeys.partyLoot(partyId), 'page', filters] as const,
  instance: (id: string) => [...lootKeys.instances(), 'detail', id] as const,
  /** Under the party's loot, so whatever refreshes the Loot tab (a take, a distribution) refreshes it. */
  summary: (partyId: string) => [...lootKeys.partyLoot(partyId), 'summary'] as const,
};

function metaOf(meta: unknown, count: number): PageMeta {
  const parsed = pageMetaSchema.safeParse(meta);
  return parsed.success
    ? parsed.data
    : { current_page: 1, total_pages: 1, total_count: count, per_page: Math.max(count, 1) };
}

const noRetryOnClientError = (failureCount: number, error: Error) =>
  failureCount < 1 && !(isApiError(error) && error.status < 500);

// ---- Loot templates --------------------------------------------------------------------------------

export interface LootTemplatePage {
  templates: LootTemplate[];
  meta: PageMeta;
}

export function lootTemplateSearch(
  filters: LootTemplateFilters,
  perPage = LOOT_TEMPLATES_PER_PAGE,
): URLSearchParams {
  const params = new URLSearchParams({
    page: String(filters.page),
    per_page: String(perPage),
    sort_by: filters.sortBy,
    sort_order: filters.sortOrder,
  });
  if (filters.search.trim()) params.set('search', filters.search.trim());
  if (filters.sourceType) params.set('source_type', filters.sourceType);
  if (filters.visibility) params.set('visibility', filters.visibility);
  if (filters.tags.length > 0) params.set('tag', filters.tags.join(','));
  if (filters.creatorId) params.set('creator_id', filters.creatorId);
  if (filters.mine) params.set('mine', 'true');
  return params;
}

/** spec/02 §7 GET loot_templates: my templates and every public one. */
export function lootTemplatesQuery(filters: LootTemplateFilters, perPage = LOOT_TEMPLATES_PER_PAGE) {
  return queryOptions({
    queryKey: [...lootKeys.templateList(filters), perPage] as const,
    queryFn: async ({ signal }): Promise<LootTemplatePage> => {
      const { data, meta } = await apiRequest(
        `${API_V1}/loot_templates?${lootTemplateSearch(filters, perPage)}`,
        { schema: z.array(lootTemplateSchema), signal, toast: false },
      );
      return { templates: data, meta: metaOf(meta, data.length) };
    },
    staleTime: LOOT_TEMPLATES_STALE_MS,
    placeholderData: keepPreviousData,
  });
}

/** One template, always with its loot items. */
export function lootTemplateQuery(id: string) {
  return queryOptions({
    queryKey: lootKeys.template(id),
    queryFn: async ({ signal }) =>
      (
        await apiRequest(`${API_V1}/loot_templates/${id}`, {
          schema: lootTemplateSchema,
          signal,
          toast: false,
        })
      ).data,
    staleTime: LOOT_TEMPLATES_STALE_MS,
    retry: noRetryOnClientError,
  });
}

/** The form's input: tags may still be a comma-separated string; the server settles them. */
export interface LootTemplateInput {
  name: string;
  description: string;
  source_type: LootSourceType;
  source: string;
  tag_list: string[] | string;
  visibility: 'private' | 'unlisted' | 'public';
}

export async function createLootTemplate(template: LootTemplateInput): Promise<LootTemplate> {
  const { data } = await apiRequest(`${API_V1}/loot_templates`, {
    method: 'POST',
    body: { loot_template: template },
    schema: lootTemplateSchema,
    toast: false,
  });
  return data;
}

export async function updateLootTemplate(
  id: string,
  template: LootTemplateUpdate | LootTemplateInput,
): Promise<LootTemplate> {
  const { data } = await apiRequest(`${API_V1}/loot_templates/${id}`, {
    method: 'PATCH',
    body: { loot_template: template },
    schema: lootTemplateSchema,
    toast: false,
  });
  return data;
}

export async function deleteLootTemplate(id: string): Promise<void> {
  await apiRequest(`${API_V1}/loot_templates/${id}`, { method: 'DELETE', toast: false });
}

export async function duplicateLootTemplate(id: string): Promise<LootTemplate> {
  const { data } = await apiRequest(`${API_V1}/loot_templates/${id}/duplicate`, {
    method: 'POST',
    schema: lootTemplateSchema,
    toast: false,
  });
  return data;
}

/** An item template with a quantity, or a number of coins of one denomination. */
export type LootItemInput =
  | { item_template_id: string; quantity: number }
  | { currency: Currency; quantity: number };

export async function addLootItem(templateId: string, item: LootItemInput): Promise<LootItem> {
  const { data } = await apiRequest(`${API_V1}/loot_templates/${templateId}/loot_items`, {
    method: 'POST',
    body: { loot_item: item },
    schema: lootItemSchema,
    toast: false,
  });
  return data;
}

export async function updateLootItem(
  templateId: string,
  itemId: string,
  quantity: number,
): Promise<LootItem> {
  const { data } = await apiRequest(`${API_V1}/loot_templates/${templateId}/loot_items/${itemId}`, {
    method: 'PATCH',
    body: { loot_item: { quantity } },
    schema: lootItemSchema,
    toast: false,
  });
  return data;
}

export async function removeLootItem(templateId: string, itemId: string): Promise<void> {
  await apiRequest(`${API_V1}/loot_templates/${templateId}/loot_items/${itemId}`, {
    method: 'DELETE',
    toast: false,
  });
}

// ---- Loot instances --------------------------------------------------------------------------------

export interface PartyLootPage {
  /** The loots without their stacks (a card shows their counts); `lootInstanceQuery` has the stacks. */
  instances: LootInstanceSummary[];
  meta: PageMeta;
}

async function fetchPartyLoot(partyId: string, params: URLSearchParams, signal: AbortSignal) {
  const { data, meta } = await apiRequest(`${API_V1}/parties/${partyId}/loot_instances?${params}`, {
    schema: z.array(lootInstanceSummarySchema),
    signal,
    toast: false,
  });
  return { instances: data, meta: metaOf(meta, data.length) };
}

/**
 * GET parties/{id}/loot_instances for the workspace's loot picker: every page of it, 100 a request, all of
 * it for the GM, revealed loot for the other members (a GM of 120 loots could not choose past the 100th).
 * The party's Loot tab pages through them instead (`partyLootPageQuery`).
 */
export function partyLootQuery(partyId: string) {
  return queryOptions({
    queryKey: lootKeys.partyLoot(partyId),
    queryFn: async ({ signal }): Promise<PartyLootPage> => {
      const { items, meta } = await fetchEveryPage(
        (page, perPage) =>
          fetchPartyLoot(
            partyId,
            new URLSearchParams({ page: String(page), per_page: String(perPage) }),
            signal,
          ),
        (answer) => answer.instances,
        LOOT_INVENTORY_PER_PAGE,
      );
      return { instances: items, meta };
    },
    staleTime: PARTY_LOOT_STALE_MS,
  });
}

/** One page of the party's Loot tab, searched and filtered on the server (a year of play: 200 loots). */
export function partyLootPageQuery(partyId: string, filters: PartyLootFilters) {
  return queryOptions({
    queryKey: lootKeys.partyLootPage(partyId, filters),
    queryFn: ({ signal }): Promise<PartyLootPage> => {
      const params = new URLSearchParams({
        page: String(filters.page),
        per_page: String(PARTY_LOOT_PER_PAGE),
      });
      if (filters.search.trim()) params.set('search', filters.search.trim());
      if (filters.isRevealed !== null) params.set('is_revealed', String(filters.isRevealed));
      return fetchPartyLoot(partyId, params, signal);
    },
    staleTime: PARTY_LOOT_STALE_MS,
    placeholderData: keepPreviousData,
  });
}

/** One loot with its container and items; refetched when the window regains focus. */
export function lootInstanceQuery(id: string) {
  return queryOptions({
    queryKey: lootKeys.instance(id),
    queryFn: async ({ signal }) =>
      (
        await apiRequest(`${API_V1}/loot_instances/${id}`, {
          schema: lootInstanceSchema,
          signal,
          toast: false,
        })
      ).data,
    staleTime: LOOT_INSTANCE_STALE_MS,
    refetchOnWindowFocus: true,
    retry: noRetryOnClientError,
  });
}

export async function deployLoot(input: LootInstanceCreate): Promise<LootInstance> {
  const { data } = await apiRequest(`${API_V1}/loot_instances`, {
    method: 'POST',
    body: { loot_instance: input },
    schema: lootInstanceSchema,
    toast: false,
  });
  return data;
}

export async function updateLootInstance(id: string, change: LootInstanceUpdate): Promise<LootInstance> {
  const { data } = await apiRequest(`${API_V1}/loot_instances/${id}`, {
    method: 'PATCH',
    body: { loot_instance: change },
    schema: lootInstanceSchema,
    toast: false,
  });
  return data;
}

export async function revealLoot(id: string): Promise<LootInstance> {
  const { data } = await apiRequest(`${API_V1}/loot_instances/${id}/reveal`, {
    method: 'POST',
    schema: lootInstanceSchema,
    toast: false,
  });
  return data;
}

/** spec/02 §4: hiding is PATCH is_revealed false. */
export function hideLoot(id: string): Promise<LootInstance> {
  return updateLootInstance(id, { is_revealed: false });
}

export async function deleteLootInstance(id: string): Promise<void> {
  await apiRequest(`${API_V1}/loot_instances/${id}`, { method: 'DELETE', toast: false });
}

export interface TakeRequest {
  lootId: string;
  itemInstanceId: string;
  targetContainerId: string;
  quantity?: number;
}

export async function takeLoot(request: TakeRequest): Promise<LootTakeResult> {
  const { data } = await apiRequest(`${API_V1}/loot_instances/${request.lootId}/take`, {
    method: 'POST',
    body: {
      item_instance_id: request.itemInstanceId,
      target_container_id: request.targetContainerId,
      ...(request.quantity === undefined ? {} : { quantity: request.quantity }),
    },
    schema: lootTakeResultSchema,
    toast: false,
  });
  return data;
}

export async function claimLoot(lootId: string, itemInstanceId: string, characterId: string) {
  const { data } = await apiRequest(`${API_V1}/loot_instances/${lootId}/claim`, {
    method: 'POST',
    body: { claim: { item_instance_id: itemInstanceId, character_id: characterId } },
    schema: lootTakeResultSchema,
    toast: false,
  });
  return data;
}

export interface DistributeRequest {
  lootId: string;
  characterIds: string[];
  mode: DistributionMode;
  preview: boolean;
  /** A preview's seed, sent back so `random` deals the same way on confirmation. */
  seed?: number;
  /** A preview's `contents_fingerprint`, sent back so a loot changed since is refused (409), not dealt. */
  contentsFingerprint?: string;
}

export async function distributeLoot(request: DistributeRequest): Promise<LootDistribution> {
  const { data } = await apiRequest(`${API_V1}/loot_instances/${request.lootId}/distribute`, {
    method: 'POST',
    body: {
      distribute: {
        character_ids: request.characterIds,
        distribution_mode: request.mode,
        preview: request.preview,
        ...(request.seed === undefined ? {} : { seed: request.seed }),
        ...(request.contentsFingerprint === undefined
          ? {}
          : { contents_fingerprint: request.contentsFingerprint }),
      },
    },
    schema: lootDistributionSchema,
    toast: false,
  });
  return data;
}

// ---- Messages and invalidation -----------------------------------------------------------------------

/** The server refused a confirmation because the loot changed since its preview (a take, a claim). */
export function isStalePreview(error: unknown): boolean {
  return (
    isApiError(error) &&
    error.code === 'CONFLICT' &&
    error.details.some((d) => d.field === 'distribute.contents_fingerprint')
  );
}

/**
 * spec/02 §8: failures show the server's error when it has one, else the generic sentence; the
 * ALREADY_DISTRIBUTED code always reads the same.
 */
export function lootErrorMessage(error: unknown, fallback: string): string {
  if (!isApiError(error)) return fallback;
  if (error.code === 'ALREADY_DISTRIBUTED') return lootMessages.alreadyDistributed;
  return error.serverMessage ?? fallback;
}

/** After a loot changed: the loot itself and the party's list (and the party's ledger and stash). */
export async function invalidateLoot(queryClient: QueryClient, partyId: string, lootId: string | null) {
  await Promise.all([
    ...(lootId ? [queryClient.invalidateQueries({ queryKey: lootKeys.instance(lootId) })] : []),
    queryClient.invalidateQueries({ queryKey: lootKeys.partyLoot(partyId) }),
  ]);
}

// ---- Loot received (issue 11 §8) ---------------------------------------------------------------------

/** GET parties/{id}/loot_summary: what each character of the party has received from loot so far. */
export function lootSummaryQuery(partyId: string) {
  return queryOptions({
    queryKey: lootKeys.summary(partyId),
    queryFn: async ({ signal }) =>
      (
        await apiRequest(`${API_V1}/parties/${partyId}/loot_summary`, {
          schema: lootSummarySchema,
          signal,
          toast: false,
        })
      ).data,
    staleTime: PARTY_LOOT_STALE_MS,
    retry: noRetryOnClientError,
  });
}
