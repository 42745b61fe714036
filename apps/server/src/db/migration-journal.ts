import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DrizzleQueryError, type SQL, sql } from 'drizzle-orm';
import { z } from 'zod';
import { reasonOf } from '../lib/error-reason.js';

/**
 * The migrations this build carries (`migrations/meta/_journal.json`) against the ones a database records
 * (`drizzle.__drizzle_migrations`). drizzle's migrator records each applied migration with the journal's
 * `when` as `created_at`, and applies those whose `when` is later than the last one recorded: so a database
 * whose last record is later than this build's last migration was upgraded by a newer build, and this
 * build's migrator would do nothing and say nothing.
 */
export const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

interface JournalEntry {
  tag: string;
  when: number;
}

let journal: JournalEntry[] | undefined;

function journalEntries(): JournalEntry[] {
  journal ??= (
    JSON.parse(readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as {
      entries: JournalEntry[];
    }
  ).entries;
  return journal;
}

/** The `when` of the journal's last migration: drizzle's migrator records it as `created_at`. */
export function latestMigrationMillis(): number {
  return Math.max(...journalEntries().map((entry) => entry.when));
}

/** The `when` of the journal's migration `tag`, which the database records as its `created_at`. */
export function migrationWhen(tag: string): number {
  const entry = journalEntries().find((candidate) => candidate.tag === tag);
  if (!entry) throw new Error(`no migration ${tag} in the journal`);
  return entry.when;
}

/** The tags of the journal's migrations later than `lastApplied`: what drizzle's migrator applies. */
export function migrationsAfter(lastApplied: number | null): string[] {
  return journalEntries()
    .filter((entry) => lastApplied === null || entry.when > lastApplied)
    .map((entry) => entry.tag);
}

export class NewerDatabaseError extends Error {
  constructor() {
    super(
      'the database was upgraded by a newer version of Haversack (it records migrations this version does not know); run that version or restore the backup taken before the upgrade',
    );
  }
}

/**
 * A migration the database refused. drizzle's migrator applies a start's migrations in one transaction, so
 * none of them was kept: the message says which failed and why, not that the database cannot be opened.
 */
export class MigrationFailedError extends Error {
  constructor(
    /** The tag of the migration that failed, or those the start was applying when it cannot tell which. */
    readonly migrations: string[],
    readonly reason: string,
  ) {
    super(
      `${migrations.length === 1 ? `database migration ${migrations[0]}` : `migrating the database (${migrations.join(', ')})`} failed: ${reason}; no migration was applied (a start applies all of its migrations or none)`,
    );
  }
}

/** The statements of a migration file, split as drizzle's migrator splits them before running each. */
function statementsOf(tag: string): string[] {
  return readFileSync(path.join(migrationsFolder, `${tag}.sql`), 'utf8').split('--> statement-breakpoint');
}

/**
 * Runs drizzle's migrator (`migrate`) over a database whose last migration is `lastApplied`; answers the
 * tags it applied. A statement that fails is found among those migrations' files by its text (drizzle
 * reports the statement, not its migration): the MigrationFailedError names that one migration.
 */
export async function applyMigrations(
  lastApplied: number | null,
  migrate: () => Promise<void>,
): Promise<string[]> {
  const pending = migrationsAfter(lastApplied);
  try {
    await migrate();
  } catch (error) {
    const statement = error instanceof DrizzleQueryError ? error.query : undefined;
    const failed =
      statement === undefined ? [] : pending.filter((tag) => statementsOf(tag).includes(statement));
    throw new MigrationFailedError(failed.length === 1 ? failed : pending, reasonOf(error));
  }
  return pending;
}

/** Anything that runs a statement and answers `{ rows }`: drizzle on PGlite or node-postgres, or a transaction. */
interface Executes {
  execute(query: SQL): Promise<unknown>;
}

// node-postgres and PGlite both answer `{ rows }`.
const tablePresent = z.object({ rows: z.array(z.object({ present: z.boolean() })) });
const lastMigration = z.object({ rows: z.array(z.object({ createdAt: z.string().nullable() })) });

/**
 * The `created_at` of the last migration the database records; null when it records none (a database no
 * Haversack server has started on). Refuses a database that records migrations this build does not know.
 */
export async function lastAppliedMigration(db: Executes): Promise<number | null> {
  const [table] = tablePresent.parse(
    await db.execute(sql`SELECT to_regclass('drizzle.__drizzle_migrations') IS NOT NULL AS present`),
  ).rows;
  if (!table?.present) return null;
  const [last] = lastMigration.parse(
    await db.execute(sql`SELECT max(created_at)::text AS "createdAt" FROM drizzle.__drizzle_migrations`),
  ).rows;
  if (last?.createdAt == null) return null;
  const lastApplied = Number(last.createdAt);
  if (lastApplied > latestMigrationMillis()) throw new NewerDatabaseError();
  return lastApplied;
}
