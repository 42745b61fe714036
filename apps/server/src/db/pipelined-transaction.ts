import { failingWithAbortCause } from './abort-cause.js';
import type { Database, Executor } from './client.js';
import type { pipelinedOnPostgres, sendCommittingWith as sendOnPostgres } from './postgres-pipeline.js';

/**
 * A transaction of a hot path with fewer round trips on PostgreSQL (issue 13 §2, db/postgres-pipeline.ts):
 * its BEGIN goes out with the first statements, statements sent without awaiting one another share a round
 * trip, and the statement that ends it can take the COMMIT along (`commits` in db/direct.ts). Any other
 * database (PGlite) runs drizzle's own transaction. On both, statements sent together fail with the error
 * that aborted the transaction, not with the refusals of those behind it (db/abort-cause.ts).
 */
export function pipelinedTransaction<T>(
  db: Database,
  work: (tx: Executor) => Promise<T>,
  options: PipelinedOptions = {},
): Promise<T> {
  return (
    postgres?.pipelined(db, work, options) ??
    // drizzle keeps the driver's transaction on its session (not typed, as db/direct.ts reads it).
    db.transaction((tx) =>
      failingWithAbortCause((tx as unknown as { session?: { client?: unknown } }).session?.client, () =>
        work(tx),
      ),
    )
  );
}

export interface PipelinedOptions {
  /**
   * Plan every prepared statement of the transaction once per connection (`plan_cache_mode`, for this
   * transaction only). PostgreSQL keeps planning a statement whose generic plan it estimates dearer than
   * its custom ones: the lock of a transfer's containers (`id = any($2)`) spent 0.5 ms of the database's
   * CPU planning for 0.15 ms running. For transactions of direct statements (db/direct.ts) with stable plans.
   */
  genericPlans?: boolean;
}

/**
 * Sends a statement that ends its transaction with the COMMIT right behind it when the client runs a
 * pipelined transaction (otherwise the statement alone). Nothing may be sent after it.
 */
export function sendCommittingWith<R>(client: unknown, send: () => Promise<R>): Promise<R> {
  return postgres ? postgres.sendCommittingWith(client, send) : send();
}

/**
 * The PostgreSQL side, handed over by db/postgres.ts as it loads with node-postgres: a server on its
 * embedded database never loads either (issue 13 §6).
 */
let postgres:
  | { pipelined: typeof pipelinedOnPostgres; sendCommittingWith: typeof sendOnPostgres }
  | undefined;

export function usePipelinedTransactions(side: NonNullable<typeof postgres>) {
  postgres = side;
}
