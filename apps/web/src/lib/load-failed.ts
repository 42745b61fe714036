/** What these helpers read of a query's result (TanStack's `UseQueryResult`, or a page's own slice of it). */
interface QueryOutcome {
  isError: boolean;
  data: unknown;
}

/** TanStack's result of a first load that failed: an error, and no data from before. */
type FirstLoadFailure<Query> = Extract<Query, { isError: true; data: undefined }>;

/**
 * The query failed with nothing to show: its first load failed, and the page shows its error state with Try
 * Again. A refresh that failed after a load (a live update's refetch, an interval, a reconnect) keeps what was
 * loaded on screen with a note beside it (RefreshFailedNote), rather than trading the list for an error.
 */
export function failedWithNothingToShow<Query extends QueryOutcome>(
  query: Query,
): query is FirstLoadFailure<Query> extends never ? Query : FirstLoadFailure<Query> {
  return query.isError && query.data === undefined;
}

/** The query's last refresh failed, and it still shows what it had loaded before. */
export function refreshFailed(query: QueryOutcome): boolean {
  return query.isError && query.data !== undefined;
}
