import { QUERY_GC_MS, QUERY_RETRY, QUERY_STALE_MS } from '@haversack/contracts';
import { focusManager, MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { useAuthStore } from '../stores/auth-store';
import { useUiStore } from '../stores/ui-store';
import { isApiError } from './http-client';
import { dismissToast, toast } from './toast';
import { noteChangeUnderWay } from './unsaved-changes';

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

/** How long a change waits for its answer before the player is told the connection is slow. */
export const SLOW_CHANGE_MS = 4_000;
export const slowChangeMessage = 'Still working… (slow connection)';
/**
 * The slow toast stays until the last slow change is answered, not for a toast's usual 5 s: a change may
 * wait that long (its resend, then up to 2 minutes offline in lib/http-client.ts); past it, it has failed.
 */
const SLOW_CHANGE_TOAST_MS = 10 * 60_000;

/**
 * Every change of a client, from the moment it is sent to its answer: under way (the tab asks before it
 * closes), and, past 4 s, slow: one "Still working…" toast however many are, gone with the last answer.
 */
function followChangesUnderWay(): Pick<MutationCache['config'], 'onMutate' | 'onSettled'> {
  const slowTimers = new Map<object, ReturnType<typeof setTimeout>>();
  const slowChanges = new Set<object>();
  let slowToastId: string | undefined;
  const slowToastShown = () =>
    slowToastId !== undefined && useUiStore.getState().toasts.some((shown) => shown.id === slowToastId);
  return {
    onMutate: (_variables, change) => {
      noteChangeUnderWay(change, true);
      const timer = setTimeout(() => {
        slowTimers.delete(change);
        slowChanges.add(change);
        // One toast for them all; shown again only if the player dismissed it and another change is slow.
        if (!slowToastShown()) slowToastId = toast.info(slowChangeMessage, SLOW_CHANGE_TOAST_MS);
      }, SLOW_CHANGE_MS);
      slowTimers.set(change, timer);
    },
    onSettled: (_data, _error, _variables, _result, change) => {
      noteChangeUnderWay(change, false);
      clearTimeout(slowTimers.get(change));
      slowTimers.delete(change);
      slowChanges.delete(change);
      if (slowChanges.size > 0 || slowToastId === undefined) return;
      dismissToast(slowToastId);
      slowToastId = undefined;
    },
  };
}

/** spec/01 §9: fresh 5 min, kept 10 min, 1 retry, no refetch on window focus; changes never wait offline. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    mutationCache: new MutationCache(followChangesUnderWay()),
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
refetchFailedWhenBackOnline(queryClient);

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

/**
 * The browser back online (its `online` event): the queries on screen that failed meanwhile are asked for
 * again. TanStack's own refetch on reconnect asks only for stale ones, so a list whose refresh failed while its
 * data was still fresh would keep saying so until Try Again; and it follows TanStack's online state, which
 * changes only if it saw the browser go offline first. The socket's reconnect does the same for a server that
 * was down (session-manager.tsx).
 */
export function refetchFailedWhenBackOnline(client: QueryClient): () => void {
  const onOnline = () => void refetchQueriesFailedForConnection(client);
  window.addEventListener('online', onOnline);
  return () => window.removeEventListener('online', onOnline);
}
