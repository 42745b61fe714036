import type { SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { Executor } from '../../db/client.js';

const resultSchema = z.object({ rows: z.array(z.unknown()) });

/**
 * Runs a raw query (the reports need generate_series and date_trunc, which the query builder does not
 * write) and checks its rows against a schema: node-postgres and PGlite both answer `{ rows }`.
 */
export async function queryRows<T extends z.ZodType>(
  db: Executor,
  query: SQL,
  row: T,
): Promise<z.output<T>[]> {
  const result = resultSchema.parse(await db.execute(query));
  return z.array(row).parse(result.rows);
}

/** A count as PostgreSQL answers it (bigint arrives as a string from node-postgres). */
export const countValue = z.coerce.number().int();
