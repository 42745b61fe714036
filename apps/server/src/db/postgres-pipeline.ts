import type { TablesRelationalConfig } from 'drizzle-orm';
import { NodePgSession, NodePgTransaction } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { failingWithAbortCause } from './abort-cause.js';
import { type CommitClaim, claimToMark, MARK_CLAIM_SQL } from './claim-commits.js';
import type { Database, Executor } from './client.js';
import type { PipelinedOptions } from './pipelined-transaction.js';
import { inWriteScope } from './user-writes.js';

/**
 * The PostgreSQL side of db/pipelined-transaction.ts, loaded with node-postgres (db/postgres.ts).
 *
 * A transaction of a hot path on PostgreSQL with fewer round trips (issue 13 §2): its BEGIN goes out in the
 * same write as the first statements, statements sent without awaiting one another share a round trip, and
 * the statement that ends it can take the COMMIT along (`sendCommittingWith`). node-postgres' pipeline mode
 * answers each queued statement in order, each with its own Sync, so an error ends only its own statement
 * and the transaction is then aborted as usual: a ROLLBACK follows every error, or the COMMIT already sent
 * is turned into one by PostgreSQL. Any other database (PGlite) runs drizzle's own transaction.
 *
 * The work gets a drizzle transaction on the pooled client, the same drizzle makes (savepoints nest in it).
 */
export function pipelinedOnPostgres<T>(
  db: Database,
  work: (tx: Executor) => Promise<T>,
  options: PipelinedOptions,
): Promise<T> | undefined {
  // drizzle keeps the pool on its session (not typed, as db/direct.ts reads it).
  const session = (db as unknown as { session?: Session }).session;
  const pool = (session as { client?: unknown } | undefined)?.client;
  if (!session || !(pool instanceof pg.Pool)) return undefined;
  // A transaction of the database (user-writes.ts): users written in it settle after its end.
  return inWriteScope(() => runPipelined(session, pool, work, options));
}

interface Running {
  /** The COMMIT, once a statement took it along. */
  commit?: Promise<pg.QueryResult>;
  /** The Idempotency-Key claim the transaction marks right before its COMMIT (db/claim-commits.ts). */
  claim?: CommitClaim;
  /** That mark, once sent. */
  mark?: Promise<pg.QueryResult>;
}

/** The pooled clients running a pipelined transaction now. */
const running = new WeakMap<object, Running>();
/** drizzle's transaction object of each pooled client, made once per connection rather than per transaction. */
const transactions = new WeakMap<object, Executor>();

type Session = NodePgSession<Record<string, unknown>, TablesRelationalConfig>;

/** What node-postgres has but its types leave out. */
interface PipelinedClient extends pg.PoolClient {
  pipeline: boolean;
}

async function runPipelined<T>(
  session: Session,
  pool: pg.Pool,
  work: (tx: Executor) => Promise<T>,
  options: PipelinedOptions,
): Promise<T> {
  const client = (await pool.connect()) as PipelinedClient;
  const state: Running = {};
  const claim = claimToMark();
  if (claim) state.claim = claim;
  let broken: Error | undefined;
  client.pipeline = true;
  running.set(client, state);
  try {
    const stream = client.connection.stream;
    let begun: Promise<unknown>;
    let result: Promise<T>;
    // BEGIN waits in the stream for what the work sends before its first await: one write for both.
    stream.cork();
    try {
      // One message: SET LOCAL ends with the transaction.
      begun = client.query(
        options.genericPlans ? 'begin; set local plan_cache_mode = force_generic_plan' : 'begin',
      );
      begun.catch(() => {});
      // Statements sent together fail with the error that aborted the transaction (db/abort-cause.ts).
      result = failingWithAbortCause(client, () => work(transactionOn(session, client)));
    } finally {
      stream.uncork();
    }
    try {
      const value = await result;
      await begun;
      const committed = await (state.commit ?? commit(client, state));
      // A claim taken over by a retry refuses its mark: the change is the retry's to make.
      if (state.mark) await state.mark;
      // PostgreSQL ends an aborted transaction's COMMIT as a ROLLBACK, with no error of its own.
      if (committed.command !== 'COMMIT') throw new Error('The transaction was rolled back, not committed.');
      if (state.claim) state.claim.marked = true;
      return value;
    } catch (error) {
      if (state.commit) await state.commit.catch(() => {});
      if (state.mark) await state.mark.catch(() => {});
      else {
        await client.query('rollback').catch((rollbackError: unknown) => {
          broken = rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError));
        });
      }
      throw error;
    }
  } finally {
    running.delete(client);
    client.pipeline = false;
    // A connection that could not roll back is closed rather than handed to the next caller.
    client.release(broken);
  }
}

/** The COMMIT, after the claim's mark when the transaction runs for one (both in one write). */
function commit(client: PipelinedClient, state: Running): Promise<pg.QueryResult> {
  const claim = state.claim;
  if (!claim?.open || claim.marked) return client.query('commit');
  const stream = client.connection.stream;
  stream.cork();
  try {
    state.mark = client.query(MARK_CLAIM_SQL, [claim.rowId]);
    state.mark.catch(() => {});
    return client.query('commit');
  } finally {
    stream.uncork();
  }
}

function transactionOn(session: Session, client: pg.PoolClient): Executor {
  let tx = transactions.get(client);
  if (!tx) {
    const { dialect, schema, options } = session as unknown as {
      dialect: ConstructorParameters<typeof NodePgSession>[1];
      schema: ConstructorParameters<typeof NodePgSession>[2];
      options: ConstructorParameters<typeof NodePgSession>[3];
    };
    tx = new NodePgTransaction(
      dialect,
      new NodePgSession(client, dialect, schema, options),
      schema,
    ) as unknown as Executor;
    transactions.set(client, tx);
  }
  return tx;
}

/**
 * Sends a statement that ends its transaction with the COMMIT right behind it, in the same write, when the
 * client runs a pipelined transaction (otherwise the statement alone: the transaction commits as usual).
 * Nothing may be sent after it: the caller's transaction has no statement left once it returns.
 */
export function sendCommittingWith<R>(client: unknown, send: () => Promise<R>): Promise<R> {
  const state = typeof client === 'object' && client !== null ? running.get(client) : undefined;
  if (!state || state.commit) return send();
  const stream = (client as PipelinedClient).connection.stream;
  stream.cork();
  try {
    const sent = send();
    state.commit = commit(client as PipelinedClient, state);
    state.commit.catch(() => {});
    return sent;
  } finally {
    stream.uncork();
  }
}
