import { AsyncLocalStorage } from 'node:async_hooks';
import type { ChangeSource } from '@haversack/contracts';

interface ChangeContext {
  source: ChangeSource;
  /** The browser tab that asked for the change (`X-Haversack-Tab`), told back with its live events. */
  tab?: string;
}

/**
 * The source travels with the request (or job) through async context rather than through every service
 * signature: the ledger's one writer and the event bus read it, so no use case can forget to pass it on.
 */
const storage = new AsyncLocalStorage<ChangeContext>();

/** The source of the change being made now; a change outside any request or job comes from the web. */
export function currentChangeSource(): ChangeSource {
  return storage.getStore()?.source ?? 'web';
}

/** Runs `work` (and everything it awaits) as a change coming from `source` (and from that tab, if named). */
export function withChangeSource<T>(source: ChangeSource, work: () => T, tab?: string): T {
  return storage.run(tab ? { source, tab } : { source }, work);
}

/** The tab that asked for the change being made now, when it said so. */
export function currentChangeTab(): string | undefined {
  return storage.getStore()?.tab;
}

/**
 * A tab's id as the web app sends it: a random token of its own making. Anything else is ignored (the
 * header only spares that tab a second fetch of what it just changed; it grants nothing).
 */
export function tabIdFrom(header: string | string[] | undefined): string | undefined {
  return typeof header === 'string' && /^[A-Za-z0-9_-]{8,64}$/.test(header) ? header : undefined;
}

/**
 * Names the source for the rest of the current request, once authentication knows how the caller
 * signed in (an API token, an admin session). Needs a context opened by `withChangeSource`.
 */
export function markChangeSource(source: ChangeSource): void {
  const context = storage.getStore();
  if (context) context.source = source;
}
