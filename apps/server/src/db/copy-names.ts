import { and, eq, isNull, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Executor } from './client.js';

const COPY_SUFFIX = / \(Copy(?: (\d+))?\)$/;

/** The longest suffix a copy's name can get: room kept for it when a long name is cut. */
const LONGEST_SUFFIX = ' (Copy 9999)'.length;

const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });

/**
 * The longest start of `text` within `maxLength` UTF-16 units (what the names' limits count) that ends
 * between characters as a reader sees them: an emoji sequence joined by zero-width joiners, a flag, or a
 * letter and its accents is kept whole or left out, never cut in two.
 */
export function cutBetweenCharacters(text: string, maxLength: number): string {
  if (text.length <= maxLength) return text;
  let end = 0;
  for (const { index, segment } of graphemes.segment(text)) {
    if (index + segment.length > maxLength) break;
    end = index + segment.length;
  }
  return text.slice(0, end);
}

/**
 * The name of a copy of `name`: "{name} (Copy)", then "(Copy 2)", "(Copy 3)"… while the owner already
 * has one of that name, so that copies can be told apart in a list. A copy of a copy counts on from the
 * same original ("Hoard (Copy)" → "Hoard (Copy 2)"), and the name stays within `maxLength`.
 */
export function copyNameFor(name: string, maxLength: number, taken: ReadonlySet<string>): string {
  const original = name.replace(COPY_SUFFIX, '');
  for (let n = 1; ; n++) {
    const suffix = n === 1 ? ' (Copy)' : ` (Copy ${n})`;
    const candidate = `${cutBetweenCharacters(original, maxLength - suffix.length)}${suffix}`;
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
  // Every candidate starts with it: a shorter cut between characters ends at or before a longer one's end.
  const prefix = cutBetweenCharacters(name.replace(COPY_SUFFIX, ''), maxLength - LONGEST_SUFFIX);
  const conditions: SQL[] = [
    eq(columns.creatorId, creatorId),
    // PostgreSQL's left() counts code points, not UTF-16 units (an emoji is one, not two).
    sql`left(${columns.name}, ${[...prefix].length}) = ${prefix}`,
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
