import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { queryRows } from '../modules/admin/sql-rows.js';
import { createParty, createUser } from '../test/factories.js';
import { buildTestApp, type TestContext } from '../test/helper.js';
import { analyzeGrownTables } from './planner-statistics.js';

/**
 * PGlite runs no autovacuum, so nothing ever gathered the planner's statistics of the embedded database:
 * a party's ledger of 15,000 rows was read as if it held 44, and the activity tab's newest actions were
 * found by sorting the whole ledger (28 ms) instead of reading its index backwards (0.3 ms).
 */
let ctx: TestContext;
beforeAll(async () => {
  ctx = await buildTestApp();
});
afterAll(async () => ctx.close());

const reltuples = async (table: string) => {
  const [row] = await queryRows(
    ctx.database.db,
    sql`select reltuples from pg_class where oid = ${`public.${table}`}::regclass`,
    z.object({ reltuples: z.coerce.number() }),
  );
  return row?.reltuples;
};

/** The plan of the activity tab's page of actions (ledger.service.ts #listOperations), as text. */
async function activityPagePlan(partyId: string): Promise<string> {
  const rows = await queryRows(
    ctx.database.db,
    sql`explain select transaction_date from transactions where party_id = ${partyId}
      group by transaction_date, actor_id order by transaction_date desc, max(write_order) desc limit 50`,
    z.object({ 'QUERY PLAN': z.string() }),
  );
  return rows.map((row) => row['QUERY PLAN']).join('\n');
}

/** A long campaign's ledger: `rows` of one party's rows, written over as many moments. */
async function writeLedger(partyId: string, actorId: string, rows: number) {
  await ctx.database.db.execute(sql`
    insert into transactions (transaction_type, party_id, actor_id, actor_name, summary, transaction_date)
    select 'adjust', ${partyId}, ${actorId}, 'gm', 'row ' || n, now() - n * interval '1 second'
    from generate_series(1, ${rows}) n`);
}

describe('analyzeGrownTables', () => {
  it('gathers the statistics of a table that grew, so that a party’s ledger is read by its index', async () => {
    const gm = await createUser(ctx);
    const party = await createParty(ctx, gm);
    await writeLedger(party.id, gm.user.id, 6000);
    await analyzeGrownTables(ctx.database.db);
    expect(await reltuples('transactions')).toBeGreaterThanOrEqual(6000);
    expect(await activityPagePlan(party.id)).toMatch(/Index Scan Backward using transactions_party_date_idx/);
  });

  it('leaves a table alone until it grows again by a tenth', async () => {
    await analyzeGrownTables(ctx.database.db);
    const analyzed = await analyzeGrownTables(ctx.database.db);
    expect(analyzed).not.toContain('transactions');
    const gm = await createUser(ctx);
    const party = await createParty(ctx, gm);
    await writeLedger(party.id, gm.user.id, 3000);
    expect(await analyzeGrownTables(ctx.database.db)).toContain('transactions');
  });
});
