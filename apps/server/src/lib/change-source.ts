import { AsyncLocalStorage } from 'node:async_hooks';
import type { ChangeSource } from '@haversack/contracts';

interface ChangeContext {
  source: ChangeSource;
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

/** Runs `work` (and everything it awaits) as a change coming from `source`. */
export function withChangeSource<T>(source: ChangeSource, work: () => T): T {
  return storage.run({ source }, work);
}

/**
 * Names the source for the rest of the current request, once authentication knows how the caller
 * signed in (an API token, an admin session). Needs a context opened by `withChangeSource`.
 */
export function markChangeSource(source: ChangeSource): void {
  const context = storage.getStore();
  if (context) context.source = source;
}
