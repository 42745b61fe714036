import type { FastifyInstance } from 'fastify';
import type { DatabaseHandle } from '../../db/client.js';
import { listenToUserWrites, type UserWriteListener } from '../../db/user-writes.js';
import type { UserRow } from './accounts.repository.js';

/** Migration 0017 notifies it with a user's id whenever their row or sessions change. */
export const USER_CHANGED_CHANNEL = 'haversack_user_changed';

interface Entry {
  userId: string;
  user: UserRow;
  cachedAt: number;
}

/** Sessions remembered at most; past it the oldest go first. */
const MAX_ENTRIES = 5_000;
/** A safety bound: an entry is read again from the database after this long, whatever was heard. */
export const SESSION_CACHE_MAX_AGE_MS = 5_000;

/**
 * Live sessions with their user, so that an authenticated request skips the session statement
 * (issue 13 §3, docs/decisions.md). Only a live session of an unsuspended user is kept. It forgets a user
 * at once when this process writes that user's row or sessions (db/user-writes.ts), and when another
 * process does, on the NOTIFY migration 0017 sends, heard through `userChanged`. While the notifications
 * cannot be heard (no LISTEN connection yet, or it broke), it holds nothing.
 */
export class SessionCache implements UserWriteListener {
  readonly #entries = new Map<string, Entry>();
  /** Users written by this process whose transaction has not ended: their rows may change still. */
  readonly #unsettled = new Map<string, number>();
  /** Bumped by every forgetting: a load that started before one must not be stored. */
  #epoch = 0;
  #listening = false;
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /** Whether notifications from other processes are heard; the cache is empty and unused otherwise. */
  setListening(listening: boolean): void {
    this.#listening = listening;
    this.#forgetAll();
  }

  /** The live session's user, or undefined when it must be read from the database. */
  get(sessionId: string, userId: string): UserRow | undefined {
    const entry = this.#entries.get(sessionId);
    if (!entry) return undefined;
    if (entry.userId !== userId || this.#now() - entry.cachedAt > SESSION_CACHE_MAX_AGE_MS) {
      this.#entries.delete(sessionId);
      return undefined;
    }
    return entry.user;
  }

  /** Reads a session through `load` and keeps it if it is live and nothing was forgotten meanwhile. */
  async load<T extends { user: UserRow; live: boolean }>(
    sessionId: string,
    userId: string,
    load: () => Promise<T | undefined>,
  ): Promise<T | undefined> {
    const epoch = this.#epoch;
    const startedAt = this.#now();
    const found = await load();
    if (
      found?.live &&
      this.#listening &&
      epoch === this.#epoch &&
      !this.#unsettled.has(userId) &&
      found.user.id === userId
    ) {
      if (this.#entries.size >= MAX_ENTRIES) {
        const oldest = this.#entries.keys().next().value;
        if (oldest !== undefined) this.#entries.delete(oldest);
      }
      this.#entries.set(sessionId, { userId, user: found.user, cachedAt: startedAt });
    }
    return found;
  }

  /** A user's row or sessions changed (here or in another process): forget every session of theirs. */
  userChanged(userId: string): void {
    this.#epoch += 1;
    for (const [sessionId, entry] of this.#entries)
      if (entry.userId === userId) this.#entries.delete(sessionId);
  }

  changed(userId: string): void {
    this.#unsettled.set(userId, (this.#unsettled.get(userId) ?? 0) + 1);
    this.userChanged(userId);
  }

  settled(userId: string): void {
    const open = (this.#unsettled.get(userId) ?? 0) - 1;
    if (open > 0) this.#unsettled.set(userId, open);
    else this.#unsettled.delete(userId);
    this.userChanged(userId);
  }

  /** Something changed that concerns every user (a TRUNCATE). */
  forgetAll(): void {
    this.#forgetAll();
  }

  #forgetAll(): void {
    this.#epoch += 1;
    this.#entries.clear();
  }

  get size(): number {
    return this.#entries.size;
  }
}

/** The app's session cache, hearing this process's writes and every process's NOTIFY until the app closes. */
export async function startSessionCache(
  app: FastifyInstance,
  database: DatabaseHandle,
): Promise<SessionCache | undefined> {
  if (!database.listen) return undefined;
  const cache = new SessionCache();
  const stopHearing = listenToUserWrites(cache);
  const stopListening = await database.listen(
    USER_CHANGED_CHANNEL,
    (userId) => (userId ? cache.userChanged(userId) : cache.forgetAll()),
    (listening) => cache.setListening(listening),
  );
  app.addHook('onClose', async () => {
    stopHearing();
    await stopListening();
  });
  return cache;
}
