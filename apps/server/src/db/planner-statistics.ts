import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Executor } from './client.js';

/**
 * PGlite runs no autovacuum: without this, nothing ever gathers the planner's statistics of the embedded
 * database, and every plan guesses a table's rows from defaults (a party's ledger of 15,000 rows read as
 * 44: the activity tab sorted the whole ledger for its newest actions, 28 ms, where reading its index
 * backwards takes 0.3 ms). As autovacuum would, a table is analyzed again once it has grown by a tenth
 * since its last statistics (its size in pages: cheap to read, where counting rows is not).
 */
const GROWTH = 0.1;

const tableRow = z.object({
  name: z.string(),
  analyzed_pages: z.coerce.number(),
  analyzed_rows: z.coerce.number(),
  pages: z.coerce.number(),
});

/** Analyzes the tables that grew since their statistics (or never had any); returns their names. */
export async function analyzeGrownTables(db: Executor): Promise<string[]> {
  const result = await db.execute(sql`
    select c.relname as name, c.relpages as analyzed_pages, c.reltuples as analyzed_rows,
      pg_relation_size(c.oid) / current_setting('block_size')::int as pages
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = 'public' and c.relkind = 'r'`);
  const tables = z.object({ rows: z.array(tableRow) }).parse(result).rows;
  const grown = tables
    .filter((t) => t.pages > 0 && (t.analyzed_rows < 0 || t.pages > t.analyzed_pages * (1 + GROWTH)))
    .map((t) => t.name)
    .sort();
  // One table at a time: the embedded database answers nothing else meanwhile, and most tables are small.
  for (const name of grown) await db.execute(sql`analyze ${sql.identifier(name)}`);
  return grown;
}

/**
 * Checks the tables a minute after the start (a database that never had statistics gets them then), and
 * every `everyMs` after; `stop()` ends it. What fails is logged and tried again at the next check.
 */
export function keepPlannerStatistics(
  db: Executor,
  warn: (error: unknown) => void,
  { firstMs = 60_000, everyMs = 10 * 60_000 }: { firstMs?: number; everyMs?: number } = {},
): { stop(): Promise<void> } {
  let running: Promise<unknown> = Promise.resolve();
  let stopped = false;
  const check = () => {
    if (stopped) return;
    running = analyzeGrownTables(db).catch(warn);
  };
  const first = setTimeout(check, firstMs);
  const every = setInterval(check, everyMs);
  // Neither keeps the process alive: a stopping server does not wait for the next check.
  first.unref();
  every.unref();
  return {
    async stop() {
      stopped = true;
      clearTimeout(first);
      clearInterval(every);
      await running;
    },
  };
}
