import {
  type Character,
  type CharacterForm,
  type CharacterUpdate,
  characterSchema,
  type PageMeta,
  pageMetaSchema,
} from '@haversack/contracts';
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { fetchEveryPage, pageSearch } from '../../../lib/fetch-every-page';
import { API_V1, apiRequest, isApiError, isRecordNotFound } from '../../../lib/http-client';

/** spec/02 §9: character detail 5 min fresh / 30 min kept; character list 2 min / 10 min. */
const DETAIL_STALE_MS = 5 * 60_000;
const DETAIL_GC_MS = 30 * 60_000;
const LIST_STALE_MS = 2 * 60_000;
const LIST_GC_MS = 10 * 60_000;
/** spec/02 §9: the character list's default page size. */
export const CHARACTERS_PER_PAGE = 10;

export interface CharacterFilters {
  page: number;
  search: string;
  race: string;
  characterClass: string;
  minLevel: number | null;
  maxLevel: number | null;
}

/** The only source of character cache keys (DESIGN §2). */
export const characterKeys = {
  all: ['characters'] as const,
  lists: () => [...characterKeys.all, 'list'] as const,
  list: (filters: CharacterFilters) => [...characterKeys.lists(), filters] as const,
  mine: () => [...characterKeys.lists(), 'all-mine'] as const,
  party: (partyId: string) => [...characterKeys.all, 'party', partyId] as const,
  detail: (id: string) => [...characterKeys.all, 'detail', id] as const,
};

export interface CharacterPage {
  characters: Character[];
  meta: PageMeta;
}

export function characterListSearch(filters: CharacterFilters): URLSearchParams {
  const params = new URLSearchParams({ page: String(filters.page), per_page: String(CHARACTERS_PER_PAGE) });
  if (filters.search.trim()) params.set('search', filters.search.trim());
  if (filters.race.trim()) params.set('race', filters.race.trim());
  if (filters.characterClass.trim()) params.set('character_class', filters.characterClass.trim());
  if (filters.minLevel !== null) params.set('min_level', String(filters.minLevel));
  if (filters.maxLevel !== null) params.set('max_level', String(filters.maxLevel));
  return params;
}

async function fetchPage(params: URLSearchParams, signal: AbortSignal): Promise<CharacterPage> {
  const { data, meta } = await apiRequest(`${API_V1}/characters?${params}`, {
    schema: z.array(characterSchema),
    signal,
    toast: false,
  });
  const parsed = pageMetaSchema.safeParse(meta);
  return {
    characters: data,
    meta: parsed.success
      ? parsed.data
      : { current_page: 1, total_pages: 1, total_count: data.length, per_page: data.length },
  };
}

/**
 * Every page of a list, of the largest size, as one page: the plans past Hero have no character limit, and
 * a GM of 141 characters saw 100 of them in pickers and under "Characters (109)" (review "bigdata" §4).
 */
async function fetchAllPages(filters: URLSearchParams, signal: AbortSignal): Promise<CharacterPage> {
  const { items, meta } = await fetchEveryPage(
    (page, perPage) => fetchPage(pageSearch(filters, page, perPage), signal),
    (answer) => answer.characters,
  );
  return { characters: items, meta };
}

export function charactersListQuery(filters: CharacterFilters) {
  return queryOptions({
    queryKey: characterKeys.list(filters),
    queryFn: ({ signal }) => fetchPage(characterListSearch(filters), signal),
    staleTime: LIST_STALE_MS,
    gcTime: LIST_GC_MS,
  });
}

/** All my characters (for the assignment dialog and the dashboard). */
export function myCharactersQuery() {
  return queryOptions({
    queryKey: characterKeys.mine(),
    queryFn: ({ signal }) => fetchAllPages(new URLSearchParams(), signal),
    staleTime: LIST_STALE_MS,
    gcTime: LIST_GC_MS,
  });
}

/** The characters of a party (members only). */
export function partyCharactersQuery(partyId: string) {
  return queryOptions({
    queryKey: characterKeys.party(partyId),
    queryFn: ({ signal }) => fetchAllPages(new URLSearchParams({ party_id: partyId }), signal),
    staleTime: LIST_STALE_MS,
    gcTime: LIST_GC_MS,
  });
}

export function characterQuery(id: string) {
  return queryOptions({
    queryKey: characterKeys.detail(id),
    queryFn: async ({ signal }) =>
      (await apiRequest(`${API_V1}/characters/${id}`, { schema: characterSchema, signal, toast: false }))
        .data,
    staleTime: DETAIL_STALE_MS,
    gcTime: DETAIL_GC_MS,
    // spec/02 §8: no retry on 404 or 401, otherwise up to 2; nor on an address whose id is not one (422
    // on `id`, shown as not found): it is refused the same way every time.
    retry: (failureCount, error) =>
      failureCount < 2 && !isRecordNotFound(error) && !(isApiError(error) && error.status === 401),
  });
}

export async function createCharacter(
  character: CharacterForm,
): Promise<{ character: Character; message: string }> {
  const { data, message } = await apiRequest(`${API_V1}/characters`, {
    method: 'POST',
    body: { character },
    schema: characterSchema,
  });
  return { character: data, message: message ?? `Character "${data.name}" created successfully!` };
}

export async function updateCharacter(
  id: string,
  character: CharacterUpdate,
  options: { toast?: boolean } = {},
): Promise<Character> {
  const { data } = await apiRequest(`${API_V1}/characters/${id}`, {
    method: 'PATCH',
    body: { character },
    schema: characterSchema,
    toast: options.toast,
  });
  return data;
}

export async function deleteCharacter(id: string): Promise<void> {
  await apiRequest(`${API_V1}/characters/${id}`, { method: 'DELETE' });
}
