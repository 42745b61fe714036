import { AsyncLocalStorage } from 'node:async_hooks';
import type { Database } from './client.js';

/**
 * What a cache of users (the session cache, modules/accounts/session-cache.ts) must hear from this process's
 * own writes: `changed` as soon as a repository wrote a user's row or sessions, `settled` once the write is
 * committed or rolled back. Between the two the row in the database may still be the old one, so nothing
 * read for that user may be cached. Other processes' writes arrive by NOTIFY instead (migration 0017).
 */
export interface UserWriteListener {
  changed(userId: string): void;
  settled(userId: string): void;
}

interface WriteScope {
  open: boolean;
  users: Set<string>;
}

const scopes = new AsyncLocalStorage<WriteScope>();
const listeners = new Set<UserWriteListener>();

export function listenToUserWrites(listener: UserWriteListener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * Call right after a statement that changed a user's row or sessions (suspension, revocation, profile,
 * deletion...). Inside a transaction of a tracked database, the user stays unsettled until it ends.
 */
export function userWritten(userId: string): void {
  const scope = scopes.getStore();
  if (scope?.open) {
    // Already unsettled since its first write in this transaction: nothing was cached since.
    if (scope.users.has(userId)) return;
    scope.users.add(userId);
    for (const listener of listeners) listener.changed(userId);
    return;
  }
  // Outside a transaction the statement has committed already.
  for (const listener of listeners) listener.changed(userId);
  for (const listener of listeners) listener.settled(userId);
}

/**
 * Makes every transaction of `db` a write scope: users written inside it are settled only after its commit
 * (or rollback). Nested transactions (savepoints) belong to the outer scope.
 */
export function trackUserWrites(db: Database): void {
  const transaction = db.transaction.bind(db);
  db.transaction = ((work, config) =>
    inWriteScope(() => transaction(work, config))) as Database['transaction'];
}

/**
 * Runs a transaction of the database as a write scope (a runner of its own, db/pipelined-transaction.ts,
 * as `trackUserWrites` does for drizzle's): one inside another belongs to the outer scope.
 */
export function inWriteScope<T>(transaction: () => Promise<T>): Promise<T> {
  if (scopes.getStore()?.open) return transaction();
  const scope: WriteScope = { open: true, users: new Set() };
  return scopes.run(scope, async () => {
    try {
      return await transaction();
    } finally {
      scope.open = false;
      for (const userId of scope.users) for (const listener of listeners) listener.settled(userId);
    }
  });
}
