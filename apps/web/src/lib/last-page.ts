import { useEffect } from 'react';

/**
 * The page a list should show when the one asked for is past its end: the last one there is, or null when
 * the page is within the list (or the answer is not the page's own yet). Page 1 of an empty list is within
 * it: that is the list's empty state.
 */
export function pageWithinList(
  page: number,
  meta: { total_pages: number } | undefined,
  settled: boolean,
): number | null {
  if (!meta || !settled) return null;
  const last = Math.max(1, meta.total_pages);
  return page > last ? last : null;
}

/**
 * Keeps a paged list on a page that has entries: when the page shown empties (its last entry deleted,
 * moved, hidden or past the date range since), it goes to the last page left, so that "page 3 of 2" never
 * reads as an empty list ("No parties joined" beside nine parties) with the pager gone. `settled`: the
 * answer is the current page's own, not a placeholder kept from the page before.
 */
export function useStayWithinPages(
  page: number,
  meta: { total_pages: number } | undefined,
  settled: boolean,
  setPage: (page: number) => void,
): void {
  const target = pageWithinList(page, meta, settled);
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a new answer moves the page
  useEffect(() => {
    if (target !== null) setPage(target);
  }, [target]);
}
