import { vi } from 'vitest';
import type { TestContext } from './helper.js';

type Read = (db: never, id: string, ...rest: never[]) => Promise<unknown>;

/**
 * Runs `change` and, should it read `repository[method]` for a row `matches` names outside a transaction (after
 * its commit), lets `interfere` (another user's change of that row) finish first: what a request arriving in
 * that instant does. A write that answers from its own transaction never triggers it, and its answer is its
 * own change.
 */
export async function changeRacedAfterCommit<T, K extends string>(
  ctx: TestContext,
  repository: Record<K, Read>,
  method: K,
  matches: (id: string) => boolean,
  interfere: (id: string) => Promise<unknown>,
  change: () => Promise<T>,
): Promise<T> {
  const read = repository[method].bind(repository);
  let interfered = false;
  const spy = vi.spyOn(repository, method as never).mockImplementation((async (
    db: unknown,
    readId: string,
    ...rest: never[]
  ) => {
    if (!interfered && db === ctx.database.db && matches(readId)) {
      interfered = true;
      await interfere(readId);
    }
    return read(db as never, readId, ...rest);
  }) as never);
  try {
    return await change();
  } finally {
    spy.mockRestore();
  }
}
