import type { AddressInfo } from 'node:net';
import {
  type LedgerTransaction,
  type LootDistribution,
  type LootInstance,
  lootContentsFingerprint,
  lootMessages,
} from '@haversack/contracts';
import type * as ActionCable from '@rails/actioncable';
import { and, eq, inArray, isNotNull, or, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { transactions } from '../../db/schema/inventory.js';
import { itemInstances } from '../../db/schema/items.js';
import { consumerFor, subscribe } from '../../test/cable-client.js';
import {
  createCharacter,
  createLootTemplate,
  createMember,
  createParty,
  createTemplate,
  createUser,
  type LootLine,
  type SignedInUser,
  upgrade,
} from '../../test/factories.js';
import { buildTestApp, callApi, type TestContext } from '../../test/helper.js';
import { inventoryRepository } from '../inventory/inventory.repository.js';
import { ledgerRepository } from '../ledger/ledger.repository.js';

let ctx: TestContext;
let baseUrl: string;
const consumers: ActionCable.Consumer[] = [];

beforeAll(async () => {
  ctx = await buildTestApp();
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const consumer of consumers) consumer.disconnect();
  await ctx.close();
});

type Envelope<T> = {
  status: string;
  data: T;
  message?: string;
  error?: { code: string; message: string; status: number; details?: { field: string; message: string }[] };
};
const body = <T>(response: { json(): unknown }) => response.json() as Envelope<T>;
const copper: Record<string, number> = { cp: 1, sp: 10, ep: 50, gp: 100, pp: 1000 };

interface Options {
  /** Each hero's max weight (null: unlimited), one hero per entry. */
  heroes?: (number | null)[];
  stash?: boolean;
  lines?: (t: Things) => LootLine[];
  reveal?: boolean;
}
interface Things {
  rope: Awaited<ReturnType<typeof createTemplate>>;
  arrow: Awaited<ReturnType<typeof createTemplate>>;
  sword: Awaited<ReturnType<typeof createTemplate>>;
  gem: Awaited<ReturnType<typeof createTemplate>>;
}

/** A GM on a paid plan, players with one hero each, maybe a stash, and one loot (revealed unless told). */
async function world(options: Options = {}) {
  const gm = await createUser(ctx);
  await upgrade(ctx, gm, 'tier_1');
  const party = await createParty(ctx, gm, { encumbrance_style: 'both' });
  const players: SignedInUser[] = [];
  const heroes: Awaited<ReturnType<typeof createCharacter>>[] = [];
  for (const maxWeight of options.heroes ?? [null, null, null]) {
    const player = await createMember(ctx, party, 'player');
    players.push(player);
    heroes.push(await createCharacter(ctx, player, { partyId: party.id, maxWeight, maxSlots: null }));
  }
  // A new party comes with its Party Stash (issue 12); `stash: false` removes it from the database, as a
  // party made before stashes has none (the API keeps a party's last container).
  const [created] = await ctx.app.services.inventory.listContainers(gm.user.id, { partyId: party.id });
  if (!created) throw new Error('a new party has a stash');
  if (options.stash === false) await inventoryRepository.deleteContainer(ctx.database.db, created.id);
  const stash = options.stash === false ? null : created;
  const things: Things = {
    rope: await createTemplate(ctx, { name: 'Rope', baseValue: 1, currency: 'gp', stackSize: 0, weight: 10 }),
    arrow: await createTemplate(ctx, {
      name: 'Arrow',
      baseValue: 5,
      currency: 'cp',
      stackSize: 20,
      weight: 0.05,
    }),
    sword: await createTemplate(ctx, {
      name: 'Sword',
      baseValue: 15,
      currency: 'gp',
      stackSize: 1,
      weight: 3,
    }),
    gem: await createTemplate(ctx, { name: 'Gem', baseValue: 50, currency: 'gp', stackSize: 0, weight: 0 }),
  };
  const template = await createLootTemplate(
    ctx,
    gm,
    options.lines?.(things) ?? [
      { item_template_id: things.rope.id, quantity: 5 },
      { item_template_id: things.arrow.id, quantity: 47 },
      { currency: 'gp', quantity: 1 },
      { currency: 'sp', quantity: 1 },
    ],
    { name: 'Troll Hoard' },
  );
  const loot = await ctx.app.services.loot.deploy(
    { id: gm.user.id, username: gm.user.username },
    { loot_template_id: template.id, party_id: party.id },
  );
  if (options.reveal !== false) await callApi(ctx, 'POST', `/loot_instances/${loot.id}/reveal`, gm);
  return { gm, party, players, heroes, stash, loot, ...things };
}
type World = Awaited<ReturnType<typeof world>>;

const distribute = (w: World, user: SignedInUser, distribute: Record<string, unknown>) =>
  callApi(ctx, 'POST', `/loot_instances/${w.loot.id}/distribute`, user, { distribute });
const everyone = (w: World) => w.heroes.map((h) => h.id);

/** What each container of the world holds, by template, from the table. */
async function contents(ids: string[]) {
  const rows = await ctx.database.db
    .select({
      container: itemInstances.containerId,
      template: itemInstances.itemTemplateId,
      n: sql<number>`sum(${itemInstances.quantity})::int`,
    })
    .from(itemInstances)
    .where(inArray(itemInstances.containerId, ids))
    .groupBy(itemInstances.containerId, itemInstances.itemTemplateId);
  return new Map(rows.map((r) => [`${r.container}/${r.template}`, r.n]));
}

/** The same, replayed from the ledger (DESIGN §4: replaying the ledger reproduces every container). */
async function replay(ids: string[]) {
  const rows = await ctx.database.db
    .select()
    .from(transactions)
    .where(
      and(
        or(inArray(transactions.sourceContainerId, ids), inArray(transactions.destinationContainerId, ids)),
        isNotNull(transactions.itemTemplateId),
      ),
    );
  const result = new Map<string, number>();
  const add = (container: string, template: string, n: number) =>
    result.set(`${container}/${template}`, (result.get(`${container}/${template}`) ?? 0) + n);
  for (const r of rows) {
    if (!r.itemTemplateId || r.quantity === null) continue;
    if (r.sourceContainerId && r.sourceContainerId === r.destinationContainerId) continue;
    if (r.sourceContainerId && ids.includes(r.sourceContainerId))
      add(r.sourceContainerId, r.itemTemplateId, -r.quantity);
    if (r.destinationContainerId && ids.includes(r.destinationContainerId))
      add(r.destinationContainerId, r.itemTemplateId, r.quantity);
  }
  for (const [key, n] of result) if (n === 0) result.delete(key);
  return result;
}

async function copperIn(ids: string[]) {
  const [row] = await ctx.database.db
    .select({
      cp: sql<number>`coalesce(sum(${itemInstances.quantity} * case t.system_key when 'coin:pp' then 1000 when 'coin:gp' then 100 when 'coin:ep' then 50 when 'coin:sp' then 10 else 1 end), 0)::int`,
    })
    .from(itemInstances)
    .innerJoin(sql`item_templates t`, sql`t.id = ${itemInstances.itemTemplateId}`)
    .where(and(inArray(itemInstances.containerId, ids), sql`t.system_key like 'coin:%'`));
  return row?.cp ?? 0;
}

const containerIds = (w: World) => [
  w.loot.container.id,
  ...(w.stash ? [w.stash.id] : []),
  ...w.heroes.map((h) => h.primary_container_id ?? ''),
];

describe('distributing loot evenly', () => {
  it('splits each stack evenly, deals remainders to the least served, evens the value out with the coins; the preview is exact', async () => {
    const w = await world();
    const ids = containerIds(w);
    const before = await contents(ids);
    const copperBefore = await copperIn(ids);
    const ledgerBefore = await ctx.database.db.select({ n: sql<number>`count(*)::int` }).from(transactions);

    const preview = await distribute(w, w.gm, {
      character_ids: everyone(w),
      distribution_mode: 'even',
      preview: true,
    });
    expect(preview.statusCode).toBe(200);
    expect(body(preview).message).toBe('This is who would get what. Nothing has moved yet.');
    const planned = body<LootDistribution>(preview).data;
    expect(planned).toMatchObject({
      preview: true,
      distribution_mode: 'even',
      overflow: false,
      transaction_ids: [],
    });
    // Nothing moved, nothing written.
    expect(await contents(ids)).toEqual(before);
    expect(await ctx.database.db.select({ n: sql<number>`count(*)::int` }).from(transactions)).toEqual(
      ledgerBefore,
    );
    expect((await ctx.app.services.loot.getInstance(w.gm.user.id, w.loot.id)).distributed_at).toBeNull();

    // The preview's fingerprint is the loot page's own (the web compares them live).
    const shown = await ctx.app.services.loot.getInstance(w.gm.user.id, w.loot.id);
    expect(planned.contents_fingerprint).toBe(lootContentsFingerprint(shown.container.item_instances));
    const done = await distribute(w, w.gm, {
      character_ids: everyone(w),
      distribution_mode: 'even',
      contents_fingerprint: planned.contents_fingerprint,
    });
    expect(done.statusCode).toBe(200);
    expect(body(done).message).toBe('Loot distributed successfully');
    const result = body<LootDistribution>(done).data;
    expect(result.recipients).toEqual(planned.recipients);
    expect(result.conversion).toEqual(planned.conversion);
    expect(result.preview).toBe(false);

    const quantityOf = (r: LootDistribution['recipients'][number], name: string) =>
      r.items.filter((i) => i.name === name).reduce((sum, i) => sum + i.quantity, 0);
    // 5 rope (the dearer kind, dealt first) and 47 arrows among three: 2/2/1 rope, then the arrows' two
    // left over go to whoever has received least so far (the third, then the first).
    expect(result.recipients.map((r) => quantityOf(r, 'Rope'))).toEqual([2, 2, 1]);
    expect(result.recipients.map((r) => quantityOf(r, 'Arrow'))).toEqual([16, 15, 16]);
    // 1 gp 1 sp = 110 cp, changed inside the loot, evens out the value: 280, 275 and 180 cp of items.
    const coinValue = (r: LootDistribution['recipients'][number]) =>
      r.items.filter((i) => i.coin).reduce((sum, i) => sum + i.quantity * (copper[i.coin ?? 'cp'] ?? 0), 0);
    expect(result.recipients.map(coinValue)).toEqual([1, 7, 102]);
    expect(result.recipients.map((r) => r.value_cp)).toEqual([281, 282, 282]);
    expect(result.conversion).not.toBeNull();
    expect(result.total_value_cp).toBe(500 + 47 * 5 + 110);
    expect(result.recipients.reduce((sum, r) => sum + r.value_cp, 0)).toBe(result.total_value_cp);

    // Every move is one loot_distribution row; the ledger replays every container; no copper made or lost.
    const rows = await ctx.database.db
      .select()
      .from(transactions)
      .where(
        and(
          eq(transactions.lootInstanceId, w.loot.id),
          eq(transactions.transactionType, 'loot_distribution'),
        ),
      );
    expect(rows.map((r) => r.id).sort()).toEqual(
      result.transaction_ids.filter((id) => rows.some((r) => r.id === id)).sort(),
    );
    expect(rows.filter((r) => r.scope === 'party')).toHaveLength(1);
    expect(
      rows.every((r) => r.actorName === w.gm.user.username && r.sourceName === 'Loot (Troll Hoard)'),
    ).toBe(true);
    expect(await replay(ids)).toEqual(await contents(ids));
    expect(await copperIn(ids)).toBe(copperBefore);
    // The change made is told once per side and coin: no two of its rows read the same.
    const changes = await ctx.database.db
      .select()
      .from(transactions)
      .where(
        and(
          eq(transactions.lootInstanceId, w.loot.id),
          eq(transactions.transactionType, 'currency_conversion'),
        ),
      );
    expect(changes.length).toBeGreaterThanOrEqual(2);
    expect(new Set(changes.map((r) => r.summary)).size).toBe(changes.length);
    for (const row of changes) {
      expect(row.summary).toMatch(
        row.sourceContainerId
          ? new RegExp(
              `took ${row.quantity} \\w+ out of Troll Hoard to change .+ into .+, to share them evenly$`,
            )
          : new RegExp(`put ${row.quantity} \\w+ into Troll Hoard as change for .+, to share them evenly$`),
      );
    }
    const detail = await ctx.app.services.loot.getInstance(w.players[0]?.user.id ?? '', w.loot.id);
    expect(detail).toMatchObject({ distribution_mode: 'even', items_count: 0 });
    expect(detail.distributed_at).not.toBeNull();
    expect(detail.claimed_by.map((c) => c.id).sort()).toEqual(everyone(w).sort());

    for (const preview of [false, true]) {
      const twice = await distribute(w, w.gm, { character_ids: everyone(w), preview });
      expect(twice.statusCode).toBe(409);
      expect(body(twice).error).toMatchObject({
        code: 'ALREADY_DISTRIBUTED',
        message: 'This loot has already been distributed.',
      });
    }
  });

  it('racing distributions: exactly one happens, the other is refused and moves nothing', async () => {
    const w = await world();
    const answers = await Promise.all([
      distribute(w, w.gm, { character_ids: everyone(w) }),
      distribute(w, w.gm, { character_ids: everyone(w).slice(0, 2), distribution_mode: 'by_value' }),
    ]);
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(1);
    // Whether the second came after the first (already distributed) or while it ran (the GM's one at a
    // time, or the loot busy), it did not wait its turn.
    const refusal = answers.find((a) => a.statusCode !== 200);
    expect([
      '409 This loot has already been distributed.',
      `409 ${lootMessages.lootBusy}`,
      `429 ${lootMessages.distributionRunning}`,
    ]).toContain(`${refusal?.statusCode} ${refusal && body(refusal).error?.message}`);
    const ids = containerIds(w);
    expect(await replay(ids)).toEqual(await contents(ids));
  });
});

describe('a confirmation after a stale preview', () => {
  it('is refused with 409 when the loot changed since its preview, and changes nothing', async () => {
    const w = await world();
    const ids = containerIds(w);
    const planned = body<LootDistribution>(
      await distribute(w, w.gm, { character_ids: everyone(w), preview: true }),
    ).data;
    // A player claims the rope the preview gave away.
    const rope = (
      await ctx.app.services.loot.getInstance(w.gm.user.id, w.loot.id)
    ).container.item_instances.find((i) => i.name === 'Rope');
    const claimed = await callApi(ctx, 'POST', `/loot_instances/${w.loot.id}/claim`, w.players[1], {
      claim: { item_instance_id: rope?.id, character_id: w.heroes[1]?.id },
    });
    expect(claimed.statusCode).toBe(200);
    const before = await contents(ids);
    const ledgerBefore = await ctx.database.db.select({ n: sql<number>`count(*)::int` }).from(transactions);

    const stale = await distribute(w, w.gm, {
      character_ids: everyone(w),
      seed: planned.seed,
      contents_fingerprint: planned.contents_fingerprint,
    });
    expect(stale.statusCode).toBe(409);
    expect(body(stale).error).toMatchObject({
      code: 'CONFLICT',
      message: 'The loot changed since your preview: preview again.',
      details: [
        {
          field: 'distribute.contents_fingerprint',
          message: 'The loot changed since your preview: preview again.',
        },
      ],
    });
    expect(await contents(ids)).toEqual(before);
    expect(await ctx.database.db.select({ n: sql<number>`count(*)::int` }).from(transactions)).toEqual(
      ledgerBefore,
    );
    expect((await ctx.app.services.loot.getInstance(w.gm.user.id, w.loot.id)).distributed_at).toBeNull();

    // A fresh preview answers the loot as it is now, and its fingerprint confirms it.
    const fresh = body<LootDistribution>(
      await distribute(w, w.gm, { character_ids: everyone(w), preview: true }),
    ).data;
    expect(fresh.contents_fingerprint).not.toBe(planned.contents_fingerprint);
    expect(fresh.recipients.flatMap((r) => r.items).some((i) => i.name === 'Rope')).toBe(false);
    const done = await distribute(w, w.gm, {
      character_ids: everyone(w),
      contents_fingerprint: fresh.contents_fingerprint,
    });
    expect(done.statusCode).toBe(200);
    expect(body<LootDistribution>(done).data.recipients).toEqual(fresh.recipients);
  });

  it('without a fingerprint (API callers), distributes what the loot holds now, as before', async () => {
    const w = await world();
    const planned = body<LootDistribution>(
      await distribute(w, w.gm, { character_ids: everyone(w), preview: true }),
    ).data;
    const rope = (
      await ctx.app.services.loot.getInstance(w.gm.user.id, w.loot.id)
    ).container.item_instances.find((i) => i.name === 'Rope');
    await callApi(ctx, 'POST', `/loot_instances/${w.loot.id}/claim`, w.players[0], {
      claim: { item_instance_id: rope?.id, character_id: w.heroes[0]?.id },
    });
    const done = await distribute(w, w.gm, { character_ids: everyone(w), seed: planned.seed });
    expect(done.statusCode).toBe(200);
    expect(body<LootDistribution>(done).data.contents_fingerprint).not.toBe(planned.contents_fingerprint);
  });
});

describe('hiding distributed loot', () => {
  it('is refused (409 ALREADY_DISTRIBUTED): the players keep the history of what they were dealt', async () => {
    const w = await world();
    const notYet = await callApi(ctx, 'PATCH', `/loot_instances/${w.loot.id}`, w.gm, {
      loot_instance: { is_revealed: false },
    });
    expect(notYet.statusCode).toBe(200);
    await callApi(ctx, 'POST', `/loot_instances/${w.loot.id}/reveal`, w.gm);
    expect((await distribute(w, w.gm, { character_ids: everyone(w) })).statusCode).toBe(200);

    const hide = await callApi(ctx, 'PATCH', `/loot_instances/${w.loot.id}`, w.gm, {
      loot_instance: { is_revealed: false },
    });
    expect(hide.statusCode).toBe(409);
    expect(body(hide).error).toMatchObject({
      code: 'ALREADY_DISTRIBUTED',
      message: 'This loot has already been distributed.',
    });
    const detail = await ctx.app.services.loot.getInstance(w.players[0]?.user.id ?? '', w.loot.id);
    expect(detail.is_revealed).toBe(true);
    // Its other edits still work, and a non-GM still cannot try.
    const renamed = await callApi(ctx, 'PATCH', `/loot_instances/${w.loot.id}`, w.gm, {
      loot_instance: { name: 'Troll Hoard (shared)' },
    });
    expect(renamed.statusCode).toBe(200);
    const byPlayer = await callApi(ctx, 'PATCH', `/loot_instances/${w.loot.id}`, w.players[0], {
      loot_instance: { is_revealed: false },
    });
    expect(byPlayer.statusCode).toBe(403);
    const history = await callApi(ctx, 'GET', `/transactions/character/${w.heroes[0]?.id}`, w.players[0]);
    expect(
      body<{ transactions: LedgerTransaction[] }>(history).data.transactions.some(
        (t) => t.transaction_type === 'loot_distribution',
      ),
    ).toBe(true);
  });
});

describe('hiding loot something was taken from', () => {
  it('is refused (409) once someone took or claimed from it: the party keeps the record of who got what', async () => {
    const refusal = {
      code: 'CONFLICT',
      message:
        'Items have already been taken from this loot, so it cannot be hidden: the party keeps the record of who got what.',
    };
    const hide = (w: World) =>
      callApi(ctx, 'PATCH', `/loot_instances/${w.loot.id}`, w.gm, { loot_instance: { is_revealed: false } });
    const ropeOf = async (w: World) =>
      (await ctx.app.services.loot.getInstance(w.gm.user.id, w.loot.id)).container.item_instances.find(
        (i) => i.name === 'Rope',
      );

    const taken = await world();
    const took = await callApi(ctx, 'POST', `/loot_instances/${taken.loot.id}/take`, taken.players[0], {
      item_instance_id: (await ropeOf(taken))?.id,
      target_container_id: taken.heroes[0]?.primary_container_id,
      quantity: 1,
    });
    expect(took.statusCode).toBe(200);
    const refused = await hide(taken);
    expect(refused.statusCode).toBe(409);
    expect(body(refused).error).toMatchObject(refusal);
    const seen = await callApi(ctx, 'GET', `/loot_instances/${taken.loot.id}`, taken.players[0]);
    expect(body<LootInstance>(seen).data).toMatchObject({ is_revealed: true });
    const history = await callApi(
      ctx,
      'GET',
      `/transactions/character/${taken.heroes[0]?.id}`,
      taken.players[0],
    );
    expect(
      body<{ transactions: LedgerTransaction[] }>(history).data.transactions.some(
        (t) => t.transaction_type === 'loot',
      ),
    ).toBe(true);

    const claimed = await world();
    const claim = await callApi(ctx, 'POST', `/loot_instances/${claimed.loot.id}/claim`, claimed.gm, {
      claim: { item_instance_id: (await ropeOf(claimed))?.id, character_id: claimed.heroes[1]?.id },
    });
    expect(claim.statusCode).toBe(200);
    const claimedRefused = await hide(claimed);
    expect(claimedRefused.statusCode).toBe(409);
    expect(body(claimedRefused).error).toMatchObject(refusal);

    // Loot nobody has had anything from may still go back into hiding.
    const untouched = await world();
    expect((await hide(untouched)).statusCode).toBe(200);
  });
});

describe('distributions that would hold the database (attack review)', () => {
  const actorOf = (w: World) => ({ id: w.gm.user.id, username: w.gm.user.username });
  const preview = (w: World) => ({
    character_ids: everyone(w),
    distribution_mode: 'even' as const,
    preview: true,
  });

  it('refuses a GM’s second distribution or preview while their first runs (429), and frees the way after', async () => {
    const w = await world();
    const other = await world();
    const loot = ctx.app.services.loot;
    // The first takes its place before it awaits anything: the second, sent right after, finds it taken,
    // even for another loot.
    const first = loot.distribute(actorOf(w), w.loot.id, preview(w));
    const second = loot.distribute(actorOf(w), w.loot.id, preview(w));
    await expect(second).rejects.toMatchObject({
      status: 429,
      code: 'RATE_LIMITED',
      message: lootMessages.distributionRunning,
    });
    expect((await first).preview).toBe(true);
    // Once it has answered, the next goes through; so does the one after a refusal.
    const strangers = { ...preview(w), character_ids: everyone(other) };
    await expect(loot.distribute(actorOf(w), w.loot.id, strangers)).rejects.toMatchObject({ status: 422 });
    expect((await loot.distribute(actorOf(w), w.loot.id, preview(w))).preview).toBe(true);
    // Another GM is not held up by it.
    const mine = loot.distribute(actorOf(w), w.loot.id, preview(w));
    expect((await loot.distribute(actorOf(other), other.loot.id, preview(other))).preview).toBe(true);
    await mine;
  });

  it('lets one user run at most 20 distributions and previews a minute; the next is 429 RATE_LIMITED', async () => {
    const w = await world({ reveal: false });
    for (let i = 0; i < 20; i++) {
      // Refused by the rules (hidden loot), but each still counts.
      expect((await distribute(w, w.gm, preview(w))).statusCode).toBe(409);
    }
    const over = await distribute(w, w.gm, { ...preview(w), preview: false });
    expect(over.statusCode).toBe(429);
    expect(body(over).error).toMatchObject({ code: 'RATE_LIMITED', status: 429 });
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    const other = await world();
    expect((await distribute(other, other.gm, preview(other))).statusCode).toBe(200);
  });

  it('writes the ledger rows of its moves together, in batches, not one INSERT per move', async () => {
    const w = await world({
      heroes: [null, null],
      lines: (t) => [{ item_template_id: t.sword.id, quantity: 60 }],
    });
    const recorded = vi.spyOn(ledgerRepository, 'recordReturningIds');
    try {
      const done = await distribute(w, w.gm, { character_ids: everyone(w), distribution_mode: 'by_value' });
      expect(done.statusCode).toBe(200);
      expect(body<LootDistribution>(done).data.transaction_ids).toHaveLength(60);
      // One call for the 60 rows: the ledger writes it as INSERTs of 50 rows and of 10.
      expect(recorded.mock.calls.map(([, entries]) => entries.length)).toEqual([60]);
    } finally {
      recorded.mockRestore();
    }
    const ids = containerIds(w);
    expect(await replay(ids)).toEqual(await contents(ids));
  });

  it('lets the event loop turn while it moves many stacks (PGlite has one connection for every request)', async () => {
    const w = await world({
      heroes: [null, null],
      lines: (t) => [{ item_template_id: t.sword.id, quantity: 64 }],
    });
    let finished = false;
    let turns = 0;
    const turn = () => {
      if (finished) return;
      turns += 1;
      setImmediate(turn);
    };
    const pending = distribute(w, w.gm, { character_ids: everyone(w), distribution_mode: 'by_value' });
    setImmediate(turn);
    const done = await pending;
    finished = true;
    expect(done.statusCode).toBe(200);
    // 64 moves: the loop turned at least once every 16 of them.
    expect(turns).toBeGreaterThanOrEqual(4);
  });
});

describe('distributing by value and at random', () => {
  it('by_value hands whole stacks, most valuable first, to whoever has least so far', async () => {
    const w = await world({
      heroes: [null, null],
      lines: (t) => [
        { item_template_id: t.gem.id, quantity: 1 },
        { item_template_id: t.sword.id, quantity: 3 },
        { currency: 'gp', quantity: 20 },
      ],
    });
    const result = body<LootDistribution>(
      await distribute(w, w.gm, { character_ids: everyone(w), distribution_mode: 'by_value' }),
    ).data;
    // Gem 5000 cp → A; gold 2000 → B; swords of 1500 → B (3500), B (5000), then a tie: the first, A.
    const [a, b] = result.recipients;
    expect(a?.items.map((i) => [i.name, i.quantity])).toEqual([
      ['Gem', 1],
      ['Sword', 1],
    ]);
    expect(b?.items.map((i) => [i.name, i.quantity])).toEqual([
      ['Gold piece', 20],
      ['Sword', 2],
    ]);
    expect([a?.value_cp, b?.value_cp]).toEqual([6500, 5000]);
    expect(result.conversion).toBeNull();
  });

  it('random draws whole stacks, and the preview’s seed repeats the same draw when confirming', async () => {
    const w = await world({
      lines: (t) => [
        { item_template_id: t.sword.id, quantity: 6 },
        { item_template_id: t.gem.id, quantity: 3 },
      ],
    });
    const preview = body<LootDistribution>(
      await distribute(w, w.gm, { character_ids: everyone(w), distribution_mode: 'random', preview: true }),
    ).data;
    const done = body<LootDistribution>(
      await distribute(w, w.gm, {
        character_ids: everyone(w),
        distribution_mode: 'random',
        seed: preview.seed,
      }),
    ).data;
    expect(done.seed).toBe(preview.seed);
    expect(done.recipients).toEqual(preview.recipients);
    // Whole stacks: the three gems (one stack) went to one character.
    expect(done.recipients.filter((r) => r.items.some((i) => i.name === 'Gem'))).toHaveLength(1);
    expect(done.recipients.flatMap((r) => r.items).reduce((sum, i) => sum + i.quantity, 0)).toBe(9);
  });
});

describe('a full container', () => {
  it('sends that character’s share to the party stash, and the preview says so', async () => {
    const w = await world({
      heroes: [5, null],
      lines: (t) => [
        { item_template_id: t.rope.id, quantity: 2 },
        { item_template_id: t.gem.id, quantity: 2 },
      ],
    });
    const preview = body<LootDistribution>(
      await distribute(w, w.gm, { character_ids: everyone(w), preview: true }),
    ).data;
    expect(preview.overflow).toBe(true);
    const [small, big] = preview.recipients;
    expect(small?.items).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          name: 'Rope',
          quantity: 1,
          destination: 'party_stash',
          container_id: w.stash?.id,
        }),
        expect.objectContaining({ name: 'Gem', quantity: 1, destination: 'character' }),
      ]),
    );
    expect(big?.items.every((i) => i.destination === 'character')).toBe(true);
    const done = body<LootDistribution>(await distribute(w, w.gm, { character_ids: everyone(w) })).data;
    expect(done.recipients).toEqual(preview.recipients);
    const ids = containerIds(w);
    const held = await contents(ids);
    expect(held.get(`${w.stash?.id}/${w.rope.id}`)).toBe(1);
    expect(held.get(`${w.heroes[0]?.primary_container_id}/${w.rope.id}`)).toBeUndefined();
    const [stashRow] = await ctx.database.db
      .select()
      .from(transactions)
      .where(
        and(
          eq(transactions.lootInstanceId, w.loot.id),
          eq(transactions.destinationContainerId, w.stash?.id ?? ''),
        ),
      );
    // The row is the character's share (her history, the CSV's Target and Notes), kept in the stash.
    const hero = w.heroes[0];
    expect(stashRow).toMatchObject({
      transactionType: 'loot_distribution',
      characterId: hero?.id,
      targetName: hero?.name,
      notes: `${hero?.name}'s share, kept in the party stash: no room with ${hero?.name}.`,
      itemName: 'Rope',
      summary: `${w.gm.user.username} gave 1 × Rope from Troll Hoard to the party stash as ${hero?.name}'s share (no room)`,
    });
    expect(stashRow?.details).toMatchObject({
      destination: 'party_stash',
      for_character_id: hero?.id,
    });
    const history = await callApi(ctx, 'GET', `/transactions/character/${hero?.id}`, w.players[0]);
    expect(
      body<{ transactions: LedgerTransaction[] }>(history)
        .data.transactions.filter((t) => t.transaction_type === 'loot_distribution')
        .map((t) => `${t.quantity} × ${t.transactable_data.name} → ${t.destination_location_data.id}`)
        .sort(),
    ).toEqual([`1 × Gem → ${hero?.primary_container_id}`, `1 × Rope → ${w.stash?.id}`]);
    const csv = await callApi(ctx, 'GET', `/transactions/character/${hero?.id}/export.csv`, w.players[0]);
    const stashLine = csv.body.split('\r\n').find((line) => line.includes('Rope'));
    expect(stashLine).toContain(`,${hero?.name},Rope,1,`);
    expect(stashLine).toContain(`${hero?.name}'s share, kept in the party stash`);
    // Loot received still counts it for her, once.
    const summary = await ctx.app.services.loot.summary(w.gm.user.id, w.party.id);
    expect(summary.find((s) => s.character_id === hero?.id)?.items_count).toBe(2);
    expect(await replay(ids)).toEqual(held);
  });

  it('with no party stash to take it, refuses the whole distribution and moves nothing', async () => {
    const w = await world({
      heroes: [5, null],
      stash: false,
      lines: (t) => [{ item_template_id: t.rope.id, quantity: 2 }],
    });
    const res = await distribute(w, w.gm, { character_ids: everyone(w) });
    expect(res.statusCode).toBe(422);
    expect(body(res).error).toMatchObject({ code: 'CAPACITY_EXCEEDED' });
    expect(body(res).error?.message).toContain('has no room for this and the party has no stash');
    const detail = await ctx.app.services.loot.getInstance(w.gm.user.id, w.loot.id);
    expect(detail.container.item_instances.map((i) => i.quantity)).toEqual([2]);
    expect(detail.distributed_at).toBeNull();
  });
});

describe('a share that a stack cannot hold', () => {
  it('is refused naming whose container is full, in the preview and the distribution alike', async () => {
    const w = await world({ lines: (t) => [{ item_template_id: t.gem.id, quantity: 10 }] });
    const hero = w.heroes[0];
    const player = w.players[0];
    if (!hero?.primary_container_id || !player) throw new Error('no hero');
    // The first hero's Backpack already holds a full stack of gems (10,000,000).
    await ctx.app.services.inventory.createInstance(
      { id: player.user.id, username: player.user.username },
      { item_template_id: w.gem.id, container_id: hero.primary_container_id, quantity: 10_000_000 },
    );
    // Every character's main container is a Backpack: the GM is told whose.
    const message = `${hero.name}’s Backpack has no room for more Gem: a stack holds at most 10,000,000.`;
    for (const preview of [true, false]) {
      const res = await distribute(w, w.gm, { character_ids: [hero.id], preview });
      expect(res.statusCode, res.body).toBe(422);
      expect(body(res).error?.message).toBe(message);
      expect(body(res).error?.details).toEqual([{ field: 'quantity', message }]);
    }
    const detail = await ctx.app.services.loot.getInstance(w.gm.user.id, w.loot.id);
    expect(detail.container.item_instances.map((i) => i.quantity)).toEqual([10]);
    expect(detail.distributed_at).toBeNull();
  });
});

describe('who may distribute', () => {
  it('only the GM, on a plan with loot_distribution, on revealed loot, among characters of the party', async () => {
    const w = await world({ reveal: false });
    const manager = await createMember(ctx, w.party, 'manager');
    const observer = await createMember(ctx, w.party, 'observer');
    const outsider = await createUser(ctx);
    const [player] = w.players;
    if (!player) throw new Error('the world has players');
    // Hidden: it does not exist for anyone but the GM, who must reveal it first.
    for (const user of [manager, observer, player, outsider])
      expect((await distribute(w, user, { character_ids: everyone(w) })).statusCode).toBe(404);
    const hidden = await distribute(w, w.gm, { character_ids: everyone(w) });
    expect(hidden.statusCode).toBe(409);
    expect(body(hidden).error?.message).toBe('Reveal this loot to the party before distributing it.');
    await callApi(ctx, 'POST', `/loot_instances/${w.loot.id}/reveal`, w.gm);
    for (const user of [manager, observer, player]) {
      const refused = await distribute(w, user, { character_ids: everyone(w) });
      expect(refused.statusCode).toBe(403);
      expect(body(refused).error?.message).toBe('Only the GM can do this.');
    }
    expect((await distribute(w, outsider, { character_ids: everyone(w) })).statusCode).toBe(404);

    const stranger = await createCharacter(ctx, outsider);
    for (const [payload, field] of [
      [{ character_ids: [] }, 'distribute.character_ids'],
      [{ character_ids: [w.heroes[0]?.id, w.heroes[0]?.id] }, 'distribute.character_ids'],
      [{ character_ids: ['hero'] }, 'distribute.character_ids.0'],
      [{ character_ids: everyone(w), distribution_mode: 'fair' }, 'distribute.distribution_mode'],
      [{ character_ids: everyone(w), seed: -1 }, 'distribute.seed'],
      [{ character_ids: everyone(w), preview: 'yes' }, 'distribute.preview'],
      [{ character_ids: [stranger.id] }, 'distribute.character_ids'],
    ] as const) {
      const res = await distribute(w, w.gm, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(422);
      expect(body(res).error?.details?.map((d) => d.field)).toContain(field);
    }
    expect(
      (
        await callApi(ctx, 'POST', `/loot_instances/${w.loot.id}/distribute`, w.gm, {
          character_ids: everyone(w),
        })
      ).statusCode,
    ).toBe(422);

    // The free plan has no loot_distribution: the GM who downgraded may still look, but not hand it out.
    await ctx.app.services.subscriptions.cancel(w.gm.user.id, { cancel_at_period_end: false });
    for (const preview of [true, false]) {
      const free = await distribute(w, w.gm, { character_ids: everyone(w), preview });
      expect(free.statusCode).toBe(403);
      expect(body(free).error).toMatchObject({ code: 'FEATURE_NOT_AVAILABLE' });
      expect(body(free).error?.details?.[0]).toMatchObject({ feature: 'loot_distribution' });
    }
    expect((await callApi(ctx, 'GET', `/loot_instances/${w.loot.id}`, w.gm)).statusCode).toBe(200);
    await upgrade(ctx, w.gm, 'tier_1');
    expect((await distribute(w, w.gm, { character_ids: everyone(w) })).statusCode).toBe(200);
  });
});

describe('live loot events on PartyInventoryChannel', () => {
  it('tells the GM everything and the party only what it may see', async () => {
    const gm = await createUser(ctx);
    await upgrade(ctx, gm, 'tier_1');
    const party = await createParty(ctx, gm, { encumbrance_style: 'none' });
    const coGm = await createMember(ctx, party, 'gm');
    const player = await createMember(ctx, party, 'player');
    const hero = await createCharacter(ctx, player, { partyId: party.id, maxWeight: null, maxSlots: null });
    const rope = await createTemplate(ctx, { name: 'Rope', stackSize: 0 });
    const template = await createLootTemplate(ctx, gm, [{ item_template_id: rope.id, quantity: 4 }], {
      name: 'Secret Cache',
    });
    const channelOf = async (user: SignedInUser) => {
      const consumer = consumerFor(baseUrl, user.token);
      consumers.push(consumer);
      const channel = subscribe(consumer, 'PartyInventoryChannel', party.id);
      await channel.connected;
      return channel;
    };
    const gmChannel = await channelOf(gm);
    const coGmChannel = await channelOf(coGm);
    const playerChannel = await channelOf(player);
    const lootEvents = (m: Record<string, unknown>) => String(m.action).startsWith('loot_');

    const deployed = body<LootInstance>(
      await callApi(ctx, 'POST', '/loot_instances', gm, {
        loot_instance: { loot_template_id: template.id, party_id: party.id },
      }),
    ).data;
    const ofLoot = (action: string) => (m: Record<string, unknown>) =>
      m.action === action && (m.ids as Record<string, string>).loot_instance_id === deployed.id;
    expect(await gmChannel.next(ofLoot('loot_deployed'))).toMatchObject({
      actor: { id: gm.user.id, name: gm.user.username },
      summary: `${gm.user.username} deployed Secret Cache`,
      party_id: party.id,
    });
    expect(await coGmChannel.next(ofLoot('loot_deployed'))).toMatchObject({ summary: expect.any(String) });
    await callApi(ctx, 'PATCH', `/loot_instances/${deployed.id}`, gm, {
      loot_instance: { name: 'Still Secret' },
    });
    expect(await gmChannel.next(ofLoot('loot_updated'))).toMatchObject({
      summary: `${gm.user.username} updated Still Secret`,
    });

    await callApi(ctx, 'POST', `/loot_instances/${deployed.id}/reveal`, gm);
    expect(await playerChannel.next(ofLoot('loot_revealed'))).toMatchObject({
      summary: `${gm.user.username} revealed Still Secret`,
    });
    // Nothing said about it while hidden reached the player before the reveal.
    expect(playerChannel.messages.filter(lootEvents)).toEqual([]);
    // Hidden again before anyone took from it (once they have, it cannot be: they keep their history).
    await callApi(ctx, 'PATCH', `/loot_instances/${deployed.id}`, gm, {
      loot_instance: { is_revealed: false },
    });
    // Hiding is told to everyone, but says nothing the party did not know: its id and "Loot hidden from party".
    expect(await playerChannel.next(ofLoot('loot_hidden'))).toMatchObject({
      summary: 'Loot hidden from party',
    });
    await callApi(ctx, 'PATCH', `/loot_instances/${deployed.id}`, gm, {
      loot_instance: { name: 'Gone Again' },
    });
    expect(await gmChannel.next(ofLoot('loot_updated'))).toMatchObject({
      summary: `${gm.user.username} updated Gone Again`,
    });
    await callApi(ctx, 'DELETE', `/loot_instances/${deployed.id}`, gm);
    expect(await gmChannel.next(ofLoot('loot_deleted'))).toMatchObject({
      summary: `${gm.user.username} removed Gone Again`,
    });
    expect(await coGmChannel.next(ofLoot('loot_deleted'))).toBeDefined();

    // Taking and claiming from revealed loot is the party's to hear.
    const second = await ctx.app.services.loot.deploy(
      { id: gm.user.id, username: gm.user.username },
      { loot_template_id: template.id, party_id: party.id },
    );
    const ofSecond = (action: string) => (m: Record<string, unknown>) =>
      m.action === action && (m.ids as Record<string, string>).loot_instance_id === second.id;
    await callApi(ctx, 'POST', `/loot_instances/${second.id}/reveal`, gm);
    await playerChannel.next(ofSecond('loot_revealed'));
    const stack = second.container.item_instances[0];
    await callApi(ctx, 'POST', `/loot_instances/${second.id}/take`, player, {
      item_instance_id: stack?.id,
      target_container_id: hero.primary_container_id,
      quantity: 1,
    });
    expect(await gmChannel.next(ofSecond('loot_taken'))).toMatchObject({
      actor: { id: player.user.id },
      ids: { destination_container_id: hero.primary_container_id, character_id: hero.id },
    });
    expect(await playerChannel.next(ofSecond('loot_taken'))).toMatchObject({
      summary: expect.stringContaining('took 1 × Rope'),
    });
    await callApi(ctx, 'POST', `/loot_instances/${second.id}/claim`, player, {
      claim: { item_instance_id: stack?.id, character_id: hero.id },
    });
    // A last event for everyone: once the player has it, every earlier one would have arrived too.
    expect(await playerChannel.next(ofSecond('loot_claimed'))).toMatchObject({
      summary: expect.stringContaining('claimed 3 × Rope'),
    });
    const seen = [...playerChannel.messages.filter(lootEvents)].map((m) => m.action);
    // What was consumed above plus what is left: never deployed, updated-while-hidden, or deleted-while-hidden.
    expect(seen.filter((a) => ['loot_deployed', 'loot_updated', 'loot_deleted'].includes(String(a)))).toEqual(
      [],
    );
    expect(JSON.stringify(playerChannel.messages)).not.toContain('Gone Again');
    expect(JSON.stringify(playerChannel.messages)).not.toContain('Still Secret');
  });
});

describe('loot worth more than Number.MAX_SAFE_INTEGER (attack review)', () => {
  it('reports its totals clamped to the safe range: template, loot, distribution and summary', async () => {
    const MAX = Number.MAX_SAFE_INTEGER;
    const jewel = () => createTemplate(ctx, { baseValue: 900_000, currency: 'pp', stackSize: 0, weight: 0 });
    const [crown, sceptre] = [await jewel(), await jewel()];
    // Two stacks of 9e15 cp each: each is exact, their sum (1.8e16) is past the range.
    const w = await world({
      heroes: [null],
      lines: () => [
        { item_template_id: crown.id, quantity: 10_000_000 },
        { item_template_id: sceptre.id, quantity: 10_000_000 },
      ],
    });
    const templateId = w.loot.loot_template_id ?? '';
    const template = await callApi(ctx, 'GET', `/loot_templates/${templateId}`, w.gm);
    expect(template.statusCode, template.body).toBe(200);
    expect(body<{ total_value_cp: number }>(template).data.total_value_cp).toBe(MAX);
    const templates = await callApi(ctx, 'GET', '/loot_templates', w.gm);
    expect(templates.statusCode, templates.body).toBe(200);

    for (const viewer of [w.gm, w.players[0]]) {
      const loot = await callApi(ctx, 'GET', `/loot_instances/${w.loot.id}`, viewer);
      expect(loot.statusCode, loot.body).toBe(200);
      expect(body<LootInstance>(loot).data.total_value_cp).toBe(MAX);
      const list = await callApi(ctx, 'GET', `/parties/${w.party.id}/loot_instances`, viewer);
      expect(list.statusCode, list.body).toBe(200);
    }

    const preview = await distribute(w, w.gm, {
      character_ids: everyone(w),
      distribution_mode: 'by_value',
      preview: true,
    });
    expect(preview.statusCode, preview.body).toBe(200);
    const done = await distribute(w, w.gm, { character_ids: everyone(w), distribution_mode: 'by_value' });
    expect(done.statusCode, done.body).toBe(200);
    const result = body<LootDistribution>(done).data;
    expect(result.total_value_cp).toBe(MAX);
    expect(result.recipients[0]?.value_cp).toBe(MAX);
    expect(result.recipients[0]?.items.map((i) => i.value_cp)).toEqual([9e15, 9e15]);

    const summary = await callApi(ctx, 'GET', `/parties/${w.party.id}/loot_summary`, w.players[0]);
    expect(summary.statusCode, summary.body).toBe(200);
    expect(body<{ value_cp: number }[]>(summary).data[0]?.value_cp).toBe(MAX);
  });
});
