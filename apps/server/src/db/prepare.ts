import { fork } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import v8 from 'node:v8';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { type Database, type DatabaseHandle, migrationsFolder, openPglite } from './client.js';
import { isSeedCurrent, seedDatabase } from './seed.js';

/**
 * PGlite's Postgres is a 9 MB WebAssembly module. By default V8 compiles it with its baseline compiler
 * (Liftoff) and then recompiles the hot functions with TurboFan on background threads, whose malloc
 * arenas stay resident: about 45 MB of a restarted server's 260 MB, and the tier-up competes with the
 * start for the CPU. Liftoff's code alone answers this server's small queries as fast here (issue 13 §6;
 * docs/decisions.md). Set before the first PGlite is created: V8 reads it when it compiles the module.
 */
export function compilePgliteForSmallMemory(): void {
  v8.setFlagsFromString('--liftoff-only');
}

/** The `when` of the journal's last migration: drizzle's migrator records it as `created_at`. */
export function latestMigrationMillis(): number {
  const journal = JSON.parse(readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as {
    entries: { when: number }[];
  };
  return Math.max(...journal.entries.map((entry) => entry.when));
}

/**
 * Whether a start has work to do before it serves: a migration not applied yet (the same test as
 * drizzle's migrator, which applies those newer than the last one recorded) or a seed whose inputs
 * changed. Two small queries, so that a restart need not run the migrator nor the seed.
 */
export async function needsPreparation(db: Database): Promise<boolean> {
  const [table] = migrationsTable.parse(
    await db.execute(sql`SELECT to_regclass('drizzle.__drizzle_migrations') IS NOT NULL AS present`),
  ).rows;
  if (!table?.present) return true;
  const [last] = lastMigration.parse(
    await db.execute(sql`SELECT max(created_at)::text AS "createdAt" FROM drizzle.__drizzle_migrations`),
  ).rows;
  if (last?.createdAt == null || Number(last.createdAt) < latestMigrationMillis()) return true;
  return !(await isSeedCurrent(db));
}

// node-postgres and PGlite both answer `{ rows }`.
const migrationsTable = z.object({ rows: z.array(z.object({ present: z.boolean() })) });
const lastMigration = z.object({ rows: z.array(z.object({ createdAt: z.string().nullable() })) });

/** Applies the migrations and the seed. */
export async function prepareDatabase(database: DatabaseHandle): Promise<void> {
  await database.migrate();
  await seedDatabase(database.db);
}

const preparerPath = (() => {
  // Next to this file, in the same language: dist/db/*.js when built, src/db/*.ts under tsx.
  const self = fileURLToPath(import.meta.url);
  return path.join(path.dirname(self), `prepare-pglite${path.extname(self)}`);
})();

/** Runs `prepare-pglite` on `dataDir` in a child process and resolves once it has exited successfully. */
export function prepareInChild(dataDir: string): Promise<void> {
  // The TypeScript sources (tests, `npm run dev`) run under tsx, with the contracts' sources.
  const execArgv = preparerPath.endsWith('.ts') ? ['--import', 'tsx', '--conditions=development'] : [];
  return new Promise((resolve, reject) => {
    const child = fork(preparerPath, [dataDir], { execArgv, stdio: ['ignore', 'inherit', 'pipe', 'ipc'] });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      if (code === 0) resolve();
      else
        reject(
          new Error(`preparing the database failed (${signal ?? `exit code ${code}`}): ${stderr.trim()}`),
        );
    });
  });
}

/**
 * Opens the server's PGlite on `dataDir` with its migrations applied and its seed current.
 *
 * WebAssembly memory never shrinks: a process that ran initdb, the migrations and the 578-item seed keeps
 * their peak (over 700 MB) for its whole life. So that work, when there is any (an empty directory, a new
 * migration, changed seed data), runs in a short-lived child process on the same directory, and this
 * process opens the database afterwards; a restart with nothing to do checks that in two queries and
 * keeps its database open (issue 13 §6). The caller holds the DATA_DIR lock for both processes.
 */
export async function openPreparedPglite(
  dataDir: string,
  options: { prepare?: (dataDir: string) => Promise<void> } = {},
): Promise<DatabaseHandle> {
  const { prepare = prepareInChild } = options;
  if (existsSync(path.join(dataDir, 'PG_VERSION'))) {
    const database = await openPglite({ dataDir });
    try {
      if (!(await needsPreparation(database.db))) return database;
    } catch (error) {
      await database.close();
      throw error;
    }
    await database.close();
  }
  await prepare(dataDir);
  const database = await openPglite({ dataDir });
  try {
    // Nothing left to do unless another version of the server wrote in between; then do it here.
    if (await needsPreparation(database.db)) await prepareDatabase(database);
  } catch (error) {
    await database.close();
    throw error;
  }
  return database;
}
