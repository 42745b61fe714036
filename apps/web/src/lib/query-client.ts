import { QUERY_GC_MS, QUERY_RETRY, QUERY_STALE_MS } from '@haversack/contracts';
import { focusManager, QueryCache, QueryClient } from '@tanstack/react-query';
import { useAuthStore } from '../stores/auth-store';
import { isApiError } from './http-client';
import { toast } from './toast';

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: {
      /** A toast shown once when the query finally fails (after its retry), e.g. "Failed to fetch preferences". */
      errorMessage?: string;
    };
  }
}

/** A 4xx will not change on retry; only network and server failures may pass when asked again. */
function mayPassLater(error: Error): boolean {
  return !(isApiError(error) && error.status >= 400 && error.status < 500);
}

/** spec/01 §9: fresh 5 min, kept 10 min, 1 retry, no refetch on window focus; changes never wait offline. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({
      onError: (_error, query) => {
        if (query.meta?.errorMessage) toast.error(query.meta.errorMessage);
      },
    }),
    defaultOptions: {
      queries: {
        staleTime: QUERY_STALE_MS,
        gcTime: QUERY_GC_MS,
        retry: (failureCount, error) => failureCount < QUERY_RETRY && mayPassLater(error),
        refetchOnWindowFocus: false,
      },
      // A change is made now or refused now: offline, TanStack's default would hold it and send it once the
      // browser is back online, long after the player cancelled or left the dialog (a purchase paid twice).
      // Sent at once, it fails as a NETWORK_ERROR ("check your connection") and changes nothing.
      mutations: { retry: false, networkMode: 'always' },
    },
  });
}

/**
 * While this tab signs out (lib/session.ts signOut: still signed in, loading), the server is revoking the
 * session: a query asked with its token meanwhile would be refused (401) and would then spend the revoked
 * refresh token. So the queries under way are cancelled, and interval refetches (TanStack runs them only
 * while the page has the focus) wait; the sign-out then clears the cache, and the page's focus decides again.
 */
export function quietWhileSigningOut(client: QueryClient): () => void {
  return useAuthStore.subscribe((state, before) => {
    const signingOut = state.isAuthenticated && state.isLoading;
    if (signingOut === (before.isAuthenticated && before.isLoading)) return;
    focusManager.setFocused(signingOut ? false : undefined);
    if (signingOut) void client.cancelQueries();
  });
}

export const queryClient = createQueryClient();
quietWhileSigningOut(queryClient);

/**
 * Ask again for the queries on screen that failed for want of the server (a network or server error; a 4xx
 * stays what it was), those still showing what they had included. For when the server is reachable again:
 * TanStack's own refetch on reconnect follows the browser's online state, which does not change when only
 * the server was down. A failed query not on screen is already stale, and is asked for when next shown.
 */
export function refetchQueriesFailedForConnection(client: QueryClient): Promise<void> {
  return client.refetchQueries(
    {
      type: 'active',
      predicate: ({ state }) => state.status === 'error' && state.error !== null && mayPassLater(state.error),
    },
    // A query already being asked for again (a live update's refresh) keeps its request.
    { cancelRefetch: false },
  );
}
