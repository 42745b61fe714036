import type { PGlite } from '@electric-sql/pglite';
import type { Column } from 'drizzle-orm';
import pg from 'pg';
import type { Database } from './client.js';

/** Timestamps, dates and intervals as PostgreSQL wrote them, as drizzle's drivers read them (its columns map them). */
const RAW_TYPE_IDS = [1082, 1083, 1114, 1182, 1184, 1185, 1186, 1187, 1115, 1231];
const rawTypes = {
  getTypeParser: (typeId: number, format?: 'text' | 'binary') =>
    RAW_TYPE_IDS.includes(typeId) ? (value: string) => value : pg.types.getTypeParser(typeId, format),
};
const rawParsers = Object.fromEntries(RAW_TYPE_IDS.map((id) => [id, (value: string) => value]));

/** A statement built once (by drizzle, with placeholders), kept with its columns' decoders. */
export interface ArrayStatement {
  name: string;
  text: string;
}

/**
 * Runs a named statement with rows as arrays, without drizzle's per-row mapping (issue 13 §3: for a list of
 * hundreds of rows, drizzle's generic mapping and query building cost more than the query's own parsing).
 * The values come as drizzle's drivers give them to its columns: decode them with `decodeColumn`.
 */
export async function queryArrays(
  db: Database,
  statement: ArrayStatement,
  params: unknown[],
): Promise<unknown[][]> {
  const client = (db as unknown as { $client: pg.Pool | PGlite }).$client;
  if (client instanceof pg.Pool) {
    const result = await client.query<unknown[]>({
      name: statement.name,
      text: statement.text,
      values: params,
      rowMode: 'array',
      types: rawTypes,
    });
    return result.rows;
  }
  const result = await client.query<unknown[]>(statement.text, params, {
    rowMode: 'array',
    parsers: rawParsers,
  });
  return result.rows;
}

/** A column's value as drizzle's select would answer it. */
export function decodeColumn(column: Column, value: unknown): unknown {
  return value === null ? null : column.mapFromDriverValue(value);
}
