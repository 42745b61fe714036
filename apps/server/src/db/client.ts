import { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { makeDirectory } from '../lib/make-directory.js';
import { markClaimsBeforeOwnStatements, markClaimsInTransactions } from './claim-commits.js';
import { applyMigrations, lastAppliedMigration, migrationsFolder } from './migration-journal.js';
import { type Schema, schema } from './schema.js';
import { trackUserWrites } from './user-writes.js';

/** The one database type every repository takes: PGlite and node-postgres share the Postgres dialect. */
export type Database = PgDatabase<PgQueryResultHKT, Schema>;
export type Transaction = PgTransaction<PgQueryResultHKT, Schema>;
/** A repository works the same on the database or inside a caller's transaction. */
export type Executor = Database | Transaction;

export interface DatabaseHandle {
  db: Database;
  /** pglite: one process at a time (the DATA_DIR lock); postgres: any number. */
  kind: 'pglite' | 'postgres';
  /**
   * Applies the migrations the database does not record yet; answers their tags (none: nothing to do).
   * Refuses a database upgraded by a newer build (NewerDatabaseError, db/migration-journal.ts).
   */
  migrate(): Promise<string[]>;
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

const PGLITE_SHARED_BUFFERS = '16MB';

export async function openPglite(options: {
  dataDir?: string;
  loadDataDir?: Blob | File;
}): Promise<DatabaseHandle> {
  if (options.dataDir) makeDirectory(options.dataDir);
  const client = await PGlite.create({
    // PGlite runs inside this process: Postgres' default 128 MB of shared buffers would double the
    // server's resident memory for a catalogue and inventories that fit in a few MB (issue 13 §6). Postgres
    // clears its shared memory at every start, in WebAssembly compiled by Liftoff alone (prepare.ts): 16 MB
    // rather than 32 MB opens the database ~55 ms sooner, and the searches over 10,000 templates run as fast.
    postgresqlconf: `shared_buffers = ${PGLITE_SHARED_BUFFERS}`,
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
  });
  const db = drizzlePglite(client, { schema }) as unknown as Database;
  trackUserWrites(db);
  // What a request with an Idempotency-Key commits marks its claim (db/claim-commits.ts). PGlite's own
  // query and exec run outside its transactions, whose statements go another way.
  markClaimsInTransactions(db);
  markClaimsBeforeOwnStatements(client, ['query', 'exec']);
  return {
    db,
    kind: 'pglite',
    migrate: async () => {
      // One connection, in this process alone (the DATA_DIR lock): nothing migrates between the two.
      const lastApplied = await lastAppliedMigration(db);
      return applyMigrations(lastApplied, () =>
        migratePglite(drizzlePglite(client, { schema }), { migrationsFolder }),
      );
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

/**
 * The database at a PostgreSQL URL (several processes, DESIGN §8). node-postgres is loaded only then: a
 * server on its embedded database never pays for loading it at start (issue 13 §6).
 */
export async function openPostgres(url: string, options: { max?: number } = {}): Promise<DatabaseHandle> {
  const { openPostgresPool } = await import('./postgres.js');
  return openPostgresPool(url, options);
}
