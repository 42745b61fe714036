import {
  type ItemTemplate,
  type ItemTemplateForm,
  type ItemTemplateUpdate,
  itemTemplateSchema,
  type PageMeta,
  pageMetaSchema,
} from '@haversack/contracts';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { API_V1, apiRequest, isApiError } from '../../../lib/http-client';

/** spec/02 §9: marketplace searches stay fresh 5 min and come 50 per page. */
const MARKETPLACE_STALE_MS = 5 * 60_000;
export const MARKETPLACE_PER_PAGE = 50;
export const MY_TEMPLATES_PER_PAGE = 20;

export interface MarketplaceFilters {
  search: string;
  tags: string;
  minValue: number | null;
  maxValue: number | null;
  minWeight: number | null;
  maxWeight: number | null;
  page: number;
  perPage?: number;
  /** Lower-case, as the catalogue writes it: common … artifact. */
  rarity?: string;
  /** Without it the server orders by relevance when there is a search term, else by name. */
  sort?: 'relevance' | 'name' | 'value' | 'weight';
  direction?: 'asc' | 'desc';
}

export interface MyTemplateFilters {
  search: string;
  page: number;
}

/** The only source of item template cache keys (DESIGN §2). */
export const itemTemplateKeys = {
  all: ['item-templates'] as const,
  mine: (filters: MyTemplateFilters) => [...itemTemplateKeys.all, 'mine', filters] as const,
  search: (filters: MarketplaceFilters) => [...itemTemplateKeys.all, 'search', filters] as const,
  detail: (id: string) => [...itemTemplateKeys.all, 'detail', id] as const,
};

export interface TemplatePage {
  templates: ItemTemplate[];
  meta: PageMeta;
}

async function fetchPage(path: string, signal: AbortSignal): Promise<TemplatePage> {
  const { data, meta } = await apiRequest(path, {
    schema: z.array(itemTemplateSchema),
    signal,
    toast: false,
  });
  const parsed = pageMetaSchema.safeParse(meta);
  return {
    templates: data,
    meta: parsed.success
      ? parsed.data
      : { current_page: 1, total_pages: 1, total_count: data.length, per_page: data.length },
  };
}

export function marketplaceSearch(filters: MarketplaceFilters): URLSearchParams {
  const params = new URLSearchParams({
    page: String(filters.page),
    per_page: String(filters.perPage ?? MARKETPLACE_PER_PAGE),
  });
  if (filters.search.trim()) params.set('search', filters.search.trim());
  if (filters.tags.trim()) params.set('tags', filters.tags.trim());
  if (filters.rarity) params.set('rarity', filters.rarity);
  if (filters.sort) params.set('sort', filters.sort);
  if (filters.direction) params.set('direction', filters.direction);
  const numbers: [string, number | null][] = [
    ['min_value', filters.minValue],
    ['max_value', filters.maxValue],
    ['min_weight', filters.minWeight],
    ['max_weight', filters.maxWeight],
  ];
  for (const [key, value] of numbers) if (value !== null) params.set(key, String(value));
  return params;
}

/** spec/02 §7 GET search/items: public templates (the marketplace). */
export function marketplaceQuery(filters: MarketplaceFilters) {
  return queryOptions({
    queryKey: itemTemplateKeys.search(filters),
    queryFn: ({ signal }) => fetchPage(`${API_V1}/search/items?${marketplaceSearch(filters)}`, signal),
    staleTime: MARKETPLACE_STALE_MS,
    placeholderData: keepPreviousData,
  });
}

/** GET item_templates without visibility: the templates I made. */
export function myTemplatesQuery(filters: MyTemplateFilters) {
  const params = new URLSearchParams({ page: String(filters.page), per_page: String(MY_TEMPLATES_PER_PAGE) });
  if (filters.search.trim()) params.set('search', filters.search.trim());
  return queryOptions({
    queryKey: itemTemplateKeys.mine(filters),
    queryFn: ({ signal }) => fetchPage(`${API_V1}/item_templates?${params}`, signal),
    placeholderData: keepPreviousData,
  });
}

export function itemTemplateQuery(id: string) {
  return queryOptions({
    queryKey: itemTemplateKeys.detail(id),
    queryFn: async ({ signal }) =>
      (
        await apiRequest(`${API_V1}/item_templates/${id}`, {
          schema: itemTemplateSchema,
          signal,
          toast: false,
        })
      ).data,
    retry: (failureCount, error) => failureCount < 1 && !(isApiError(error) && error.status < 500),
  });
}

/** The form's input: numbers may still be strings; the server's schema settles them. */
export type ItemTemplateInput = Omit<ItemTemplateForm, 'weight' | 'base_value' | 'stack_size' | 'tags'> & {
  weight: number | string;
  base_value: number | string;
  stack_size: number | string;
  tags: string | string[];
};

export async function createItemTemplate(
  template: ItemTemplateInput,
  options: { toast?: boolean } = {},
): Promise<ItemTemplate> {
  const { data } = await apiRequest(`${API_V1}/item_templates`, {
    method: 'POST',
    body: { item_template: template },
    schema: itemTemplateSchema,
    toast: options.toast,
  });
  return data;
}

export async function updateItemTemplate(
  id: string,
  template: ItemTemplateUpdate | Partial<ItemTemplateInput>,
): Promise<ItemTemplate> {
  const { data } = await apiRequest(`${API_V1}/item_templates/${id}`, {
    method: 'PUT',
    body: { item_template: template },
    schema: itemTemplateSchema,
  });
  return data;
}

export async function deleteItemTemplate(id: string): Promise<void> {
  await apiRequest(`${API_V1}/item_templates/${id}`, { method: 'DELETE' });
}

export async function duplicateItemTemplate(id: string): Promise<ItemTemplate> {
  const { data } = await apiRequest(`${API_V1}/item_templates/${id}/duplicate`, {
    method: 'POST',
    schema: itemTemplateSchema,
  });
  return data;
}
