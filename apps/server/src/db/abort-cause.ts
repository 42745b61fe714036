import { isAbortedTransaction } from '../lib/db-errors.js';

/** A driver's client as far as this needs it: node-postgres' pooled client, or PGlite's transaction. */
interface Queryable {
  query: (...args: unknown[]) => unknown;
}

/**
 * Runs a transaction's work on the client that runs its statements, and when it fails because the
 * transaction was already aborted (25P02, "current transaction is aborted"), fails with the error of the
 * statement that aborted it instead. Statements sent together (`Promise.all`, pipelined on PostgreSQL:
 * db/postgres-pipeline.ts) are each answered in order, but the work may hear of a later one's failure
 * first: a deadlock (40P01) broke the lock of a transfer's containers and the lock of its stacks behind it
 * was refused as aborted, in the same read; the caller then answered a 500 for the refusal instead of the
 * 409 of the deadlock (lib/db-errors.ts isTransactionConflict).
 *
 * `work` is called at once, not after an await: a pipelined transaction's BEGIN waits in the stream for
 * the work's first statements.
 */
export async function failingWithAbortCause<T>(client: unknown, work: () => Promise<T>): Promise<T> {
  if (!isQueryable(client)) return work();
  const sent: PromiseLike<unknown>[] = [];
  const query = client.query;
  const ownQuery = Object.hasOwn(client, 'query');
  // Every statement of the transaction goes through the client's query, drizzle's and db/direct.ts' alike.
  client.query = function recorded(this: unknown, ...args: unknown[]) {
    const answer = query.apply(this, args);
    if (isThenable(answer)) sent.push(answer);
    return answer;
  };
  try {
    return await work();
  } catch (error) {
    const cause = isAbortedTransaction(error) ? await abortingFailure(sent) : undefined;
    throw cause ?? error;
  } finally {
    if (ownQuery) client.query = query;
    else delete (client as Partial<Queryable>).query;
  }
}

/**
 * The failure of the statement that aborted the transaction: the last one answered before the first
 * statement refused as aborted. (An earlier failure may have been undone by a rollback to a savepoint.)
 * Each is awaited in the order sent: the ones before the refusal are answered already, and PostgreSQL
 * refuses every later one at once, so this never waits on a lock.
 */
async function abortingFailure(sent: PromiseLike<unknown>[]): Promise<unknown> {
  let failure: unknown;
  for (const answer of sent) {
    try {
      await answer;
    } catch (error) {
      if (isAbortedTransaction(error)) return failure;
      failure = error;
    }
  }
  return undefined;
}

function isQueryable(client: unknown): client is Queryable {
  return typeof client === 'object' && client !== null && typeof (client as Queryable).query === 'function';
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as PromiseLike<unknown> | null)?.then === 'function';
}
