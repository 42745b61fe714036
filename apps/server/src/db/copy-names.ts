import { and, eq, isNull, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Executor } from './client.js';

const COPY_SUFFIX = / \(Copy(?: (\d+))?\)$/;

/** The longest suffix a copy's name can get: room kept for it when a long name is cut. */
const LONGEST_SUFFIX = ' (Copy 9999)'.length;

/**
 * The name of a copy of `name`: "{name} (Copy)", then "(Copy 2)", "(Copy 3)"… while the owner already
 * has one of that name, so that copies can be told apart in a list. A copy of a copy counts on from the
 * same original ("Hoard (Copy)" → "Hoard (Copy 2)"), and the name stays within `maxLength`.
 */
export function copyNameFor(name: string, maxLength: number, taken: ReadonlySet<string>): string {
  const original = name.replace(COPY_SUFFIX, '');
  for (let n = 1; ; n++) {
    const suffix = n === 1 ? ' (Copy)' : ` (Copy ${n})`;
    const candidate = `${original.slice(0, maxLength - suffix.length)}${suffix}`;
    if (!taken.has(candidate)) return candidate;
  }
}

interface OwnedNames {
  table: PgTable;
  name: AnyPgColumn;
  creatorId: AnyPgColumn;
  /** Soft-deleted rows do not take a name. */
  deletedAt?: AnyPgColumn;
}

/** The names of `creatorId`'s own rows that a copy of `name` could clash with. */
export async function namesCopiesCouldTake(
  tx: Executor,
  columns: OwnedNames,
  creatorId: string,
  name: string,
  maxLength: number,
): Promise<Set<string>> {
  const prefix = name.replace(COPY_SUFFIX, '').slice(0, maxLength - LONGEST_SUFFIX);
  const conditions: SQL[] = [
    eq(columns.creatorId, creatorId),
    sql`left(${columns.name}, ${prefix.length}) = ${prefix}`,
  ];
  if (columns.deletedAt) conditions.push(isNull(columns.deletedAt));
  const rows = await tx
    .select({ name: columns.name })
    .from(columns.table)
    .where(and(...conditions));
  return new Set(rows.map((row) => String(row.name)));
}

/** The name a copy of `name` gets among `creatorId`'s own rows. */
export async function copyNameAmong(
  tx: Executor,
  columns: OwnedNames,
  creatorId: string,
  name: string,
  maxLength: number,
): Promise<string> {
  return copyNameFor(name, maxLength, await namesCopiesCouldTake(tx, columns, creatorId, name, maxLength));
}
