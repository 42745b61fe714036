import type { Column } from 'drizzle-orm';
import type pg from 'pg';
import type { Executor } from './client.js';
import { sendCommittingWith } from './pipelined-transaction.js';

/** Timestamps, dates and intervals as PostgreSQL wrote them, as drizzle's columns expect to map them. */
const RAW_TYPE_IDS = [1082, 1083, 1114, 1182, 1184, 1185, 1186, 1187, 1115, 1231];
const rawParsers = Object.fromEntries(RAW_TYPE_IDS.map((id) => [id, (value: string) => value]));

/**
 * node-postgres, once the server runs on PostgreSQL (db/postgres.ts hands it over as it loads): until
 * then no client can be one of its, and a server on PGlite never loads it.
 */
let postgres: { driver: typeof pg; rawTypes: pg.CustomTypesConfig } | undefined;

export function usePostgresDriver(driver: typeof pg) {
  postgres = {
    driver,
    rawTypes: {
      getTypeParser: (typeId: number, format?: 'text' | 'binary') =>
        RAW_TYPE_IDS.includes(typeId) ? (value: string) => value : driver.types.getTypeParser(typeId, format),
    },
  };
}

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
  query(
    text: string,
    values: unknown[],
    options: { rowMode: 'array'; parsers?: Record<number, (value: string) => unknown> },
  ): Promise<{ rows: unknown[][] }>;
}

interface DirectOptions {
  /**
   * Leave dates and times as the text PostgreSQL wrote, for rows decoded by drizzle's own columns
   * (`decodeColumn`) rather than by hand.
   */
  forColumns?: boolean;
  /**
   * The statement is its transaction's last: in a pipelined transaction (db/pipelined-transaction.ts) the
   * COMMIT goes out with it, one round trip for both. Nothing may be sent on the transaction after it.
   */
  commits?: boolean;
}

/**
 * Runs a statement on the connection behind a drizzle database or transaction and answers its rows as
 * arrays. Values go as drizzle would send them: dates as ISO strings, JSON as text cast in the statement.
 */
export async function directRows(
  db: Executor,
  statement: DirectStatement,
  values: unknown[],
  options: DirectOptions = {},
) {
  const client = driverOf(db);
  if (postgres && (client instanceof postgres.driver.Pool || client instanceof postgres.driver.Client)) {
    const types = postgres.rawTypes;
    const send = () =>
      client.query<unknown[]>({
        name: statement.name,
        text: statement.text,
        values,
        rowMode: 'array',
        ...(options.forColumns ? { types } : {}),
      });
    const result = await (options.commits ? sendCommittingWith(client, send) : send());
    return result.rows as DirectRow[];
  }
  const result = await (client as PgliteLike).query(statement.text, values, {
    rowMode: 'array',
    ...(options.forColumns ? { parsers: rawParsers } : {}),
  });
  return result.rows as DirectRow[];
}

/** A column's value as drizzle's select would answer it, from a row read `forColumns`. */
export function decodeColumn(column: Column, value: unknown): unknown {
  return value === null ? null : column.mapFromDriverValue(value);
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
