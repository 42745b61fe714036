import type { PageMeta } from '@haversack/contracts';

/** The largest page the server's lists serve (their contracts' `per_page` maximum). */
export const LARGEST_PAGE = 100;

export interface EveryPage<T, P> {
  /** The items of every page, in the server's order. */
  items: T[];
  /** The last page's answer, for what else it carries (a list's totals). */
  last: P;
  /** The list's meta as one page holding every item. */
  meta: PageMeta;
}

/**
 * Every page of a list, read one after another at `perPage` a request, as one page: for the pickers and
 * lists that must offer all of them (a GM of 141 characters, or 120 shops, saw the first 100 only). It stops
 * at the last page the API's meta tells (`total_pages`), or at an empty page, where a list that shrank while
 * it was read ends early (and where a meta saying more pages than there are cannot loop on).
 */
export async function fetchEveryPage<T, P extends { meta: PageMeta }>(
  fetchPage: (page: number, perPage: number) => Promise<P>,
  itemsOf: (answer: P) => readonly T[],
  perPage = LARGEST_PAGE,
): Promise<EveryPage<T, P>> {
  const items: T[] = [];
  for (let page = 1; ; page++) {
    const answer = await fetchPage(page, perPage);
    const pageItems = itemsOf(answer);
    items.push(...pageItems);
    if (pageItems.length === 0 || page >= answer.meta.total_pages) {
      return {
        items,
        last: answer,
        // A page size of at least 1: "Showing 1–0 of 0" and its like divide by it.
        meta: { ...answer.meta, current_page: 1, total_pages: 1, per_page: Math.max(items.length, 1) },
      };
    }
  }
}

/** A list's filters with one page of it and its size set, as a copy (the filters are left as they were). */
export function pageSearch(filters: URLSearchParams, page: number, perPage: number): URLSearchParams {
  const params = new URLSearchParams(filters);
  params.set('page', String(page));
  params.set('per_page', String(perPage));
  return params;
}
