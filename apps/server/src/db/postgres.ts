import { sql } from 'drizzle-orm';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import {
  BOOT_ID,
  markClaimsBeforeOwnStatements,
  markClaimsInTransactions,
  processName,
} from './claim-commits.js';
import type { Database, DatabaseHandle } from './client.js';
import { usePostgresDriver } from './direct.js';
import { applyMigrations, lastAppliedMigration, migrationsFolder } from './migration-journal.js';
import { usePipelinedTransactions } from './pipelined-transaction.js';
import { pipelinedOnPostgres, sendCommittingWith } from './postgres-pipeline.js';
import { schema } from './schema.js';
import { trackUserWrites } from './user-writes.js';

// Loaded by `openPostgres` (db/client.ts) only when the server runs on PostgreSQL.
usePostgresDriver(pg);
usePipelinedTransactions({ pipelined: pipelinedOnPostgres, sendCommittingWith });

export async function openPostgresPool(url: string, options: { max?: number } = {}): Promise<DatabaseHandle> {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 10,
    // A connection closed after a lull costs the next burst a connect and a new parse and plan of every
    // named statement it runs (db/statements.ts): the container read's p99 at 70 % of its peak came from
    // those (bench/README.md). Idle connections stay 5 minutes instead of node-postgres' 10 s, and do
    // not keep a process alive that has nothing else to do (a CLI run).
    idleTimeoutMillis: 5 * 60_000,
    allowExitOnIdle: true,
    // Names this process to the others: an Idempotency-Key claim whose process has no connection left is
    // an orphan (plugins/idempotency.ts).
    application_name: processName(BOOT_ID),
  });
  // An idle client that loses its connection must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  const nodeDb = drizzleNodePg(pool, { schema });
  const db = nodeDb as unknown as Database;
  trackUserWrites(db);
  // What a request with an Idempotency-Key commits marks its claim (db/claim-commits.ts): the pool's own
  // query runs each statement on its own (transactions take a client of it).
  markClaimsInTransactions(db);
  markClaimsBeforeOwnStatements(pool, ['query']);
  await db.execute(sql`select 1`);
  let closed = false;
  return {
    db,
    kind: 'postgres',
    migrate: async () => {
      // Several processes may start at once against one database: one migrates, the others wait.
      const client = await pool.connect();
      try {
        await client.query('select pg_advisory_lock(7342001)');
        const locked = drizzleNodePg(client, { schema });
        // Read under the lock: what this process applies, not what another one did just before.
        const lastApplied = await lastAppliedMigration(locked);
        return await applyMigrations(lastApplied, () => migrateNodePg(locked, { migrationsFolder }));
      } finally {
        await client.query('select pg_advisory_unlock(7342001)').catch(() => {});
        client.release();
      }
    },
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    close: async () => {
      if (closed) return;
      closed = true;
      await pool.end();
    },
    listen: (channel, onMessage, onState) => listenOnPostgres(url, channel, onMessage, onState),
  };
}

const RELISTEN_DELAY_MS = 1_000;

/** LISTEN on a connection of its own (a pooled one would be handed to others), reconnecting while wanted. */
async function listenOnPostgres(
  url: string,
  channel: string,
  onMessage: (payload: string) => void,
  onState: (listening: boolean) => void,
): Promise<() => Promise<void>> {
  let stopped = false;
  let current: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  const lost = (client: pg.Client) => {
    if (current === client) {
      current = undefined;
      onState(false);
    }
    client.end().catch(() => {});
    if (stopped || retry) return;
    retry = setTimeout(() => {
      retry = undefined;
      void connect();
    }, RELISTEN_DELAY_MS);
    retry.unref();
  };
  const connect = async () => {
    // Held as long as the process runs: it names the process to the others (as the pool does).
    const client = new pg.Client({ connectionString: url, application_name: processName(BOOT_ID) });
    client.on('notification', (message) => {
      if (message.channel === channel) onMessage(message.payload ?? '');
    });
    client.on('error', () => lost(client));
    client.on('end', () => lost(client));
    try {
      await client.connect();
      await client.query(`LISTEN "${channel.replaceAll('"', '""')}"`);
    } catch {
      lost(client);
      return;
    }
    if (stopped) {
      await client.end().catch(() => {});
      return;
    }
    current = client;
    onState(true);
  };
  await connect();
  return async () => {
    stopped = true;
    clearTimeout(retry);
    const client = current;
    current = undefined;
    onState(false);
    await client?.end().catch(() => {});
  };
}
