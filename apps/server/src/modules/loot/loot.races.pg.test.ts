import type { LootDistribution, LootInstance } from '@haversack/contracts';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transactions } from '../../db/schema/inventory.js';
import { itemInstances } from '../../db/schema/items.js';
import { lootInstances } from '../../db/schema/loot.js';
import {
  createCharacter,
  createLootTemplate,
  createMember,
  createParty,
  createTemplate,
  createUser,
  type SignedInUser,
  upgrade,
} from '../../test/factories.js';
import { buildTestApp, callApi, type TestContext } from '../../test/helper.js';

/**
 * The attack review's finding, on PostgreSQL (the PostgreSQL pass, vitest.config.ts): distributions and
 * previews of one loot queued on its row lock, each holding a pooled connection, until everyone else's
 * requests waited for a connection too. Several connections and real row locks are needed to see it.
 */
let ctx: TestContext;
/** A connection of the test's own, outside the app's pool: it watches locks while the pool is busy. */
let watcher: pg.Client;

beforeAll(async () => {
  ctx = await buildTestApp();
  const current = await ctx.database.db.execute(sql`select current_database() as name`);
  const url = new URL(process.env.TEST_DATABASE_URL ?? '');
  url.pathname = `/${(current as unknown as { rows: { name: string }[] }).rows[0]?.name}`;
  watcher = new pg.Client({ connectionString: url.toString() });
  await watcher.connect();
});
afterAll(async () => {
  await watcher.end();
  await ctx.close();
});

type Envelope<T> = { status: string; data: T; error?: { code: string; message: string; status: number } };
const body = <T>(response: LightMyRequestResponse) => response.json() as Envelope<T>;
const lootBusy = 'This loot is being distributed or changed right now. Try again in a moment.';
const distributionRunning = 'Your last distribution is still running. Try again when it has finished.';
const SWORDS = 150;

/** A party with a GM and two co-GMs (each may distribute), three heroes, and a revealed loot of many stacks. */
async function world() {
  const gm = await createUser(ctx);
  await upgrade(ctx, gm, 'tier_1');
  const party = await createParty(ctx, gm, { encumbrance_style: 'none' });
  const coGms: SignedInUser[] = [];
  for (let i = 0; i < 2; i++) {
    const coGm = await createMember(ctx, party, 'gm');
    await upgrade(ctx, coGm, 'tier_1');
    coGms.push(coGm);
  }
  const heroes = [];
  for (let i = 0; i < 3; i++) {
    const player = await createMember(ctx, party, 'player');
    heroes.push(await createCharacter(ctx, player, { partyId: party.id, maxWeight: null, maxSlots: null }));
  }
  // Swords do not stack: one stack, and one move, each.
  const sword = await createTemplate(ctx, { name: 'Sword', baseValue: 15, currency: 'gp', stackSize: 1 });
  const gem = await createTemplate(ctx, { name: 'Gem', baseValue: 50, currency: 'gp', stackSize: 0 });
  const template = await createLootTemplate(ctx, gm, [
    { item_template_id: sword.id, quantity: SWORDS },
    { item_template_id: gem.id, quantity: 7 },
    { currency: 'gp', quantity: 31 },
  ]);
  const actor = { id: gm.user.id, username: gm.user.username };
  const deployed = await ctx.app.services.loot.deploy(actor, {
    loot_template_id: template.id,
    party_id: party.id,
  });
  const loot: LootInstance = await ctx.app.services.loot.reveal(actor, deployed.id);
  const [stash] = await ctx.app.services.inventory.listContainers(gm.user.id, { partyId: party.id });
  const containers = [
    loot.container.id,
    ...(stash ? [stash.id] : []),
    ...heroes.map((h) => h.primary_container_id ?? ''),
  ];
  // Someone in another party, whose own reads must not wait on this loot.
  const outsider = await createUser(ctx);
  const outsiderParty = await createParty(ctx, outsider);
  const outsiderHero = await createCharacter(ctx, outsider, { partyId: outsiderParty.id });
  return { gm, coGms, heroes, loot, containers, sword, gem, outsider, outsiderHero };
}
type World = Awaited<ReturnType<typeof world>>;

const distribute = (w: World, user: SignedInUser, preview: boolean, mode = 'by_value') =>
  callApi(ctx, 'POST', `/loot_instances/${w.loot.id}/distribute`, user, {
    distribute: { character_ids: w.heroes.map((h) => h.id), distribution_mode: mode, preview },
  });

/** Units of each template in the world's containers, by template. */
async function unitsByTemplate(w: World) {
  const rows = await ctx.database.db
    .select({
      template: itemInstances.itemTemplateId,
      n: sql<number>`sum(${itemInstances.quantity})::int`,
      stacks: sql<number>`count(*)::int`,
    })
    .from(itemInstances)
    .where(inArray(itemInstances.containerId, w.containers))
    .groupBy(itemInstances.itemTemplateId);
  return new Map(rows.map((r) => [r.template, { n: r.n, stacks: r.stacks }]));
}

/** Sessions of this test database that wait on a lock now (pg_stat_activity). */
async function waitingOnLocks(): Promise<number> {
  const result = await watcher.query<{ n: number }>(
    "select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'",
  );
  return result.rows[0]?.n ?? 0;
}

/**
 * Whether a transaction in progress holds the loot's row lock now: the row's xmax names the locker. Read
 * without a lock of its own, which would make the distribution it watches find the loot busy.
 */
async function lootLocked(lootId: string): Promise<boolean> {
  const result = await watcher.query(
    'select 1 from loot_instances l join pg_stat_activity a on a.backend_xid = l.xmax where l.id = $1',
    [lootId],
  );
  return (result.rowCount ?? 0) > 0;
}

const nextTurn = () => new Promise((resolve) => setTimeout(resolve, 10));

/** Resolves once some session waits on a lock. */
async function someoneWaits(): Promise<'waited'> {
  while ((await waitingOnLocks()) === 0) await nextTurn();
  return 'waited';
}

describe('a distribution that finds its loot locked', () => {
  it('answers 409 at once, preview and confirmation alike, and moves nothing', async () => {
    const w = await world();
    const [coGm] = w.coGms as [SignedInUser];
    const before = await unitsByTemplate(w);
    // Another process changing the loot holds its row lock for as long as this takes.
    const { outcome, answers } = await ctx.database.db.transaction(async (tx) => {
      await tx.select().from(lootInstances).where(eq(lootInstances.id, w.loot.id)).for('update');
      const sent = Promise.all([distribute(w, w.gm, false), distribute(w, coGm, true, 'even')]);
      // They either answer while the lock is held, or wait on it: waiting was the finding.
      const outcome = await Promise.race([sent.then(() => 'answered' as const), someoneWaits()]);
      return { outcome, answers: sent };
    });
    expect(outcome).toBe('answered');
    for (const answer of await answers) {
      expect(answer.statusCode, answer.body).toBe(409);
      expect(body(answer).error).toMatchObject({ code: 'CONFLICT', message: lootBusy });
    }
    expect(await unitsByTemplate(w)).toEqual(before);
    // Once it is free, the same request goes through.
    expect((await distribute(w, w.gm, false)).statusCode).toBe(200);
  });
});

describe('a storm of distributions and previews of one loot', () => {
  it('distributes it once at most, refuses the rest at once, and leaves other users’ reads alone', async () => {
    const w = await world();
    const [coGm, coGm2] = w.coGms as [SignedInUser, SignedInUser];
    const before = await unitsByTemplate(w);
    const read = () => callApi(ctx, 'GET', `/characters/${w.outsiderHero.id}`, w.outsider);
    expect((await read()).statusCode).toBe(200);

    const finished: string[] = [];
    const track = (label: string, request: Promise<LightMyRequestResponse>) =>
      request.then((response) => {
        finished.push(label);
        return response;
      });
    const storm = [
      ...Array.from({ length: 6 }, (_, i) => ({ user: w.gm, preview: false, label: `gm-${i}` })),
      ...Array.from({ length: 6 }, (_, i) => ({ user: coGm, preview: false, label: `co-${i}` })),
      ...Array.from({ length: 4 }, (_, i) => ({ user: coGm2, preview: true, label: `preview-${i}` })),
    ];
    const sent = storm.map((s) => track(s.label, distribute(w, s.user, s.preview)));
    // The read is sent once one of them holds the loot: while the others would queue behind it.
    const all = Promise.all(sent);
    let stormOver = false;
    void all.then(() => {
      stormOver = true;
    });
    let lockSeen = false;
    while (!stormOver && !lockSeen) {
      lockSeen = await lootLocked(w.loot.id);
      if (!lockSeen) await nextTurn();
    }
    expect(lockSeen).toBe(true);
    const other = track('read', read());
    const answers = await all;
    expect((await other).statusCode).toBe(200);

    const outcomes = answers.map((answer, i) => ({ ...storm[i], answer, error: body(answer).error }));
    const distributed = outcomes.filter((o) => !o.preview && o.answer.statusCode === 200);
    expect(distributed.length).toBeLessThanOrEqual(1);
    for (const o of outcomes) {
      if (o.answer.statusCode === 200) continue;
      // The losers are refused, never left to wait their turn or failed with a 500.
      const refusal = `${o.answer.statusCode} ${o.error?.code} ${o.error?.message}`;
      expect([
        `409 CONFLICT ${lootBusy}`,
        '409 ALREADY_DISTRIBUTED This loot has already been distributed.',
        `429 RATE_LIMITED ${distributionRunning}`,
      ]).toContain(refusal);
    }
    expect(outcomes.some((o) => o.answer.statusCode === 409 && o.error?.message === lootBusy)).toBe(true);
    expect(outcomes.some((o) => o.answer.statusCode === 429)).toBe(true);

    // The read did not queue behind the loot: it was done before the first request that got the lock.
    const firstWinner = outcomes.find((o) => o.answer.statusCode === 200);
    expect(firstWinner).toBeDefined();
    expect(finished.indexOf('read')).toBeLessThan(finished.indexOf(firstWinner?.label ?? ''));

    // Whatever won, the loot is now distributed exactly once.
    if (distributed.length === 0) expect((await distribute(w, w.gm, false)).statusCode).toBe(200);
    expect((await distribute(w, coGm, false)).statusCode).toBe(409);
    // Every unit is somewhere, once: none lost, none doubled; and the loot is empty.
    const after = await unitsByTemplate(w);
    expect(after.get(w.sword.id)).toEqual({ n: SWORDS, stacks: SWORDS });
    expect(after.get(w.gem.id)?.n).toBe(before.get(w.gem.id)?.n);
    const [left] = await ctx.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(itemInstances)
      .where(eq(itemInstances.containerId, w.loot.container.id));
    expect(left?.n).toBe(0);
    // One distribution's rows: each sword left the loot in exactly one row.
    const swordRows = await ctx.database.db
      .select({ quantity: transactions.quantity })
      .from(transactions)
      .where(
        and(
          eq(transactions.lootInstanceId, w.loot.id),
          eq(transactions.transactionType, 'loot_distribution'),
          eq(transactions.itemTemplateId, w.sword.id),
        ),
      );
    expect(swordRows.reduce((sum, r) => sum + (r.quantity ?? 0), 0)).toBe(SWORDS);
    const loot = body<LootInstance>(await callApi(ctx, 'GET', `/loot_instances/${w.loot.id}`, w.gm)).data;
    expect(loot.distributed_at).not.toBeNull();
    const winner = distributed[0];
    if (winner) expect(body<LootDistribution>(winner.answer).data.transaction_ids.length).toBeGreaterThan(0);
  });
});
