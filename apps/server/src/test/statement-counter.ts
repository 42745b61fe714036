import pg from 'pg';
import { expect } from 'vitest';

/**
 * The statements node-postgres sends while `work` runs, counted as bench/lib/count-queries.mjs counts
 * them for the benches (issue 13): a regression guard for the writes whose round trips were cut. Only
 * PostgreSQL goes through node-postgres, so the files that use it are `*.pg.test.ts` (the PostgreSQL
 * pass, vitest.config.ts).
 */
export async function countStatements<T>(work: () => Promise<T>): Promise<{ result: T; statements: number }> {
  const query = pg.Client.prototype.query;
  let statements = 0;
  // biome-ignore lint/suspicious/noExplicitAny: node-postgres' overloads, passed through untouched
  pg.Client.prototype.query = function countedQuery(this: pg.Client, ...args: any[]) {
    statements += 1;
    // biome-ignore lint/suspicious/noExplicitAny: as above
    return (query as any).apply(this, args);
  } as typeof query;
  try {
    const result = await work();
    return { result, statements };
  } finally {
    pg.Client.prototype.query = query;
  }
}

/**
 * Sends `request` twice, both answered 200, and counts the statements of the second: the first warms what
 * every later request finds ready (the remembered session, a stack opened on the target).
 */
export async function statementsOfSecondRequest<T extends { statusCode: number; body: string }>(
  request: () => Promise<T>,
): Promise<{ result: T; statements: number }> {
  const first = await request();
  expect(first.statusCode, first.body).toBe(200);
  const counted = await countStatements(request);
  expect(counted.result.statusCode, counted.result.body).toBe(200);
  expect(counted.statements).toBeGreaterThan(0);
  return counted;
}
