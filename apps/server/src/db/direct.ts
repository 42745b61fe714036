import pg from 'pg';
import type { Executor } from './client.js';

/**
 * A statement of a hot path written once as SQL text (issue 13 §2): run straight on the driver, it skips
 * drizzle's building of the query on every call and its mapping of every row, which together cost a
 * transfer more CPU than PostgreSQL spent on it. Its name keeps it prepared per connection on node-postgres
 * (db/statements.ts: one name, one text); PGlite ignores the name.
 */
export interface DirectStatement {
  readonly name: string;
  readonly text: string;
}

/** A row as the driver answers it in array mode: the columns in the order the statement selects them. */
export type DirectRow = readonly unknown[];

interface PgliteLike {
  query(text: string, values: unknown[], options: { rowMode: 'array' }): Promise<{ rows: unknown[][] }>;
}

/**
 * Runs a statement on the connection behind a drizzle database or transaction and answers its rows as
 * arrays. Values go as drizzle would send them: dates as ISO strings, JSON as text cast in the statement.
 */
export async function directRows(db: Executor, statement: DirectStatement, values: unknown[]) {
  const client = driverOf(db);
  if (client instanceof pg.Pool || client instanceof pg.Client) {
    const result = await client.query<unknown[]>({
      name: statement.name,
      text: statement.text,
      values,
      rowMode: 'array',
    });
    return result.rows as DirectRow[];
  }
  const result = await (client as PgliteLike).query(statement.text, values, { rowMode: 'array' });
  return result.rows as DirectRow[];
}

/**
 * The driver's client a drizzle database or transaction runs on: the pool or the pooled client holding the
 * transaction (node-postgres), or PGlite or its transaction. drizzle keeps it on its session (not typed).
 */
function driverOf(db: Executor): unknown {
  const client = (db as unknown as { session?: { client?: unknown } }).session?.client;
  if (!client) throw new Error('directRows: no driver client behind this database');
  return client;
}

/** An int8 or numeric column: node-postgres answers text, PGlite a number (drizzle's mode 'number'). */
export function toNumber(value: unknown): number {
  return typeof value === 'number' ? value : Number(value);
}

/** A nullable int8 or numeric column. */
export function toNumberOrNull(value: unknown): number | null {
  return value === null || value === undefined ? null : toNumber(value);
}

/** A timestamptz column: both drivers parse it into a Date already; drizzle's mode 'date' keeps a Date. */
export function toDate(value: unknown): Date {
  return value instanceof Date ? value : new Date(value as string);
}

export function toDateOrNull(value: unknown): Date | null {
  return value === null || value === undefined ? null : toDate(value);
}
