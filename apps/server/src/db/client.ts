import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { type Schema, schema } from './schema.js';
import { trackUserWrites } from './user-writes.js';

/** The one database type every repository takes: PGlite and node-postgres share the Postgres dialect. */
export type Database = PgDatabase<PgQueryResultHKT, Schema>;
export type Transaction = PgTransaction<PgQueryResultHKT, Schema>;
/** A repository works the same on the database or inside a caller's transaction. */
export type Executor = Database | Transaction;

export interface DatabaseHandle {
  db: Database;
  kind: 'pglite' | 'postgres';
  migrate(): Promise<void>;
  ping(): Promise<void>;
  close(): Promise<void>;
  /** PGlite only: the whole data directory as a tarball, to clone test databases from. */
  dump?: () => Promise<Blob>;
  /**
   * Hears NOTIFY on `channel` (on its own connection for PostgreSQL, reconnecting after a loss).
   * `onState(true)` once listening, `onState(false)` whenever notifications may be missed. Resolves to stop.
   */
  listen?(
    channel: string,
    onMessage: (payload: string) => void,
    onState: (listening: boolean) => void,
  ): Promise<() => Promise<void>>;
}

export const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

const PGLITE_SHARED_BUFFERS = '32MB';

export async function openPglite(options: {
  dataDir?: string;
  loadDataDir?: Blob | File;
}): Promise<DatabaseHandle> {
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  const client = await PGlite.create({
    // PGlite runs inside this process: Postgres' default 128 MB of shared buffers would double the
    // server's resident memory for a catalogue and inventories that fit in a few MB (issue 13 §6).
    postgresqlconf: `shared_buffers = ${PGLITE_SHARED_BUFFERS}`,
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
  });
  const db = drizzlePglite(client, { schema }) as unknown as Database;
  trackUserWrites(db);
  return {
    db,
    kind: 'pglite',
    migrate: async () => {
      await migratePglite(drizzlePglite(client, { schema }), { migrationsFolder });
    },
    ping: async () => {
      await client.query('select 1');
    },
    close: async () => {
      if (!client.closed) await client.close();
    },
    dump: () => client.dumpDataDir('none'),
    // One connection in this process: a notification is delivered before the statement that sent it returns.
    listen: async (channel, onMessage, onState) => {
      const unlisten = await client.listen(channel, onMessage);
      onState(true);
      return async () => {
        onState(false);
        if (!client.closed) await unlisten();
      };
    },
  };
}

export async function openPostgres(url: string, options: { max?: number } = {}): Promise<DatabaseHandle> {
  const pool = new pg.Pool({ connectionString: url, max: options.max ?? 10 });
  // An idle client that loses its connection must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  const nodeDb = drizzleNodePg(pool, { schema });
  const db = nodeDb as unknown as Database;
  trackUserWrites(db);
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
        await migrateNodePg(drizzleNodePg(client, { schema }), { migrationsFolder });
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
    const client = new pg.Client({ connectionString: url });
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
