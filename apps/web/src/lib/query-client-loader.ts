import type { QueryClient } from '@tanstack/react-query';
import { browserTurn } from './browser-turn';

/**
 * TanStack Query's client (spec/01 §9) loads with the first page that asks the API through it, not with
 * /login, which needs none of it (issue 13 §1). Routes and lazy parts that use queries wait for it before
 * they draw (`loadQueryClient`); the app's provider hands it to them once it is in.
 */
let client: QueryClient | null = null;
let loading: Promise<QueryClient> | null = null;
const listeners = new Set<() => void>();

export function loadQueryClient(): Promise<QueryClient> {
  if (!loading) {
    const attempt = import('./query-client').then(({ queryClient }) => {
      client = queryClient;
      for (const listener of listeners) listener();
      return queryClient;
    });
    // A chunk that could not load (offline) is asked for again next time.
    attempt.catch(() => {
      if (loading === attempt) loading = null;
    });
    loading = attempt;
  }
  return loading;
}

/** The client once it has loaded, else null (nothing can have been cached before it loaded). */
export function loadedQueryClient(): QueryClient | null {
  return client;
}

export function subscribeToQueryClient(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Waits for the client, then loads `load`: a lazy part that uses queries draws with the client in place. */
export async function withQueryClient<T>(load: () => Promise<T>): Promise<T> {
  // Its own task where the browser can yield: the router starts every lazy route of the first page in the
  // task that creates it, and starting a module load (its preload links) costs a phone milliseconds.
  const turn = browserTurn();
  if (turn) await turn;
  const [loaded] = await Promise.all([load(), loadQueryClient()]);
  return loaded;
}
