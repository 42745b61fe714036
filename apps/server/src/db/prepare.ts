import { fork } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import v8 from 'node:v8';
import { type Database, type DatabaseHandle, openPglite } from './client.js';
import {
  lastAppliedMigration,
  latestMigrationMillis,
  MigrationFailedError,
  migrationsAfter,
} from './migration-journal.js';
import { isSeedCurrent, seedDatabase } from './seed.js';
import type { SeedChanges } from './seed-changes.js';

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

/**
 * Whether a start has work to do before it serves: a migration not applied yet (the same test as
 * drizzle's migrator, which applies those newer than the last one recorded) or a seed whose inputs
 * changed. Two small queries, so that a restart need not run the migrator nor the seed. Refuses a database
 * upgraded by a newer build (NewerDatabaseError).
 */
export async function needsPreparation(db: Database): Promise<boolean> {
  const lastApplied = await lastAppliedMigration(db);
  if (lastApplied === null || lastApplied < latestMigrationMillis()) return true;
  return !(await isSeedCurrent(db));
}

export interface Preparation {
  /** The tags of the migrations this start applied, oldest first (none on a restart with nothing to do). */
  appliedMigrations: string[];
  /** What the seed changed in the templates that existed before it; null when it did not run. */
  seedChanges: SeedChanges | null;
}

/** Applies the migrations and the seed; answers what they changed. */
export async function prepareDatabase(database: DatabaseHandle): Promise<Preparation> {
  const appliedMigrations = await database.migrate();
  const seed = await seedDatabase(database.db);
  return { appliedMigrations, seedChanges: seed.status === 'seeded' ? seed.changes : null };
}

/** What the child (prepare-pglite.ts) tells its parent before it exits. */
export type PreparerMessage =
  | { prepared: Preparation }
  | { migrationFailed: { migrations: string[]; reason: string } };

const preparerPath = (() => {
  // Next to this file, in the same language: dist/db/*.js when built, src/db/*.ts under tsx.
  const self = fileURLToPath(import.meta.url);
  return path.join(path.dirname(self), `prepare-pglite${path.extname(self)}`);
})();

/**
 * Runs `prepare-pglite` on `dataDir` in a child process and resolves once it has exited successfully, with
 * what it did. A migration that failed there fails here as the same MigrationFailedError.
 */
export function prepareInChild(dataDir: string): Promise<Preparation> {
  // The TypeScript sources (tests, `npm run dev`) run under tsx, with the contracts' sources.
  const execArgv = preparerPath.endsWith('.ts') ? ['--import', 'tsx', '--conditions=development'] : [];
  return new Promise((resolve, reject) => {
    const child = fork(preparerPath, [dataDir], { execArgv, stdio: ['ignore', 'inherit', 'pipe', 'ipc'] });
    let stderr = '';
    let told: PreparerMessage | undefined;
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('message', (message: PreparerMessage) => {
      told = message;
    });
    child.once('error', reject);
    // 'close', not 'exit': the message and the last of stderr may still be on their way when it has exited.
    child.once('close', (code, signal) => {
      if (told && 'migrationFailed' in told)
        reject(new MigrationFailedError(told.migrationFailed.migrations, told.migrationFailed.reason));
      else if (code === 0) resolve(told?.prepared ?? { appliedMigrations: [], seedChanges: null });
      else
        reject(
          new Error(`preparing the database failed (${signal ?? `exit code ${code}`}): ${stderr.trim()}`),
        );
    });
  });
}

export interface PreparedDatabase extends Preparation {
  database: DatabaseHandle;
}

/**
 * Opens the server's PGlite on `dataDir` with its migrations applied and its seed current.
 *
 * WebAssembly memory never shrinks: a process that ran initdb, the migrations and the 578-item seed keeps
 * their peak (over 700 MB) for its whole life. So that work, when there is any (an empty directory, a new
 * migration, changed seed data), runs in a short-lived child process on the same directory, and this
 * process opens the database afterwards; a restart with nothing to do checks that in two queries and
 * keeps its database open (issue 13 §6). The caller holds the DATA_DIR lock for both processes, so the
 * migrations the child applied are those later than what this process read before it.
 */
export async function openPreparedPglite(
  dataDir: string,
  options: {
    prepare?: (dataDir: string) => Promise<Preparation>;
    /** Told before the preparation starts (it takes seconds, a first start longer): `created` on a new one. */
    onPreparing?: (created: boolean) => void;
  } = {},
): Promise<PreparedDatabase> {
  const { prepare = prepareInChild } = options;
  let lastApplied: number | null = null;
  if (existsSync(path.join(dataDir, 'PG_VERSION'))) {
    const database = await openPglite({ dataDir });
    try {
      // Also refuses a database a newer build upgraded, before the child would try to migrate it.
      if (!(await needsPreparation(database.db)))
        return { database, appliedMigrations: [], seedChanges: null };
      lastApplied = await lastAppliedMigration(database.db);
    } catch (error) {
      await database.close();
      throw error;
    }
    // The child needs the directory to itself.
    await database.close();
  }
  options.onPreparing?.(lastApplied === null);
  const prepared = await prepare(dataDir);
  const database = await openPglite({ dataDir });
  let seedChanges = prepared.seedChanges;
  try {
    // Nothing left to do unless another version of the server wrote in between; then do it here.
    if (await needsPreparation(database.db))
      seedChanges = (await prepareDatabase(database)).seedChanges ?? seedChanges;
  } catch (error) {
    await database.close();
    throw error;
  }
  return { database, appliedMigrations: migrationsAfter(lastApplied), seedChanges };
}
