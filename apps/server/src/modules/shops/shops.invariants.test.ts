import type { ShopInstance, ShopTemplate, TradeResult } from '@haversack/contracts';
import { and, eq, inArray, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { containers, transactions } from '../../db/schema/inventory.js';
import { itemInstances, itemTemplates } from '../../db/schema/items.js';
import { shopRequests } from '../../db/schema/shop-requests.js';
import {
  coinTemplate,
  createCharacter,
  createMember,
  createParty,
  createTemplate,
  createUser,
  type SignedInUser,
  upgrade,
} from '../../test/factories.js';
import { buildTestApp, callApi, type TestContext } from '../../test/helper.js';
import { actualContents as heldNow, replayLedger as replayFrom } from '../../test/ledger-replay.js';

/**
 * The inventory's ledger invariants (inventory.invariants.test.ts), extended to trading: random purchases
 * (paid by the buyer or the party fund, some waiting for approval), sales, restocks, stocking, taking stock
 * back, approvals, declines and cancellations, several at once. After each sequence: replaying the ledger gives every
 * container (the shop's stock and request holds included), no coin is made or lost, no stock goes negative.
 */
let ctx: TestContext;
let gm: SignedInUser;
let partyId: string;
let shopId: string;
let shopContainer: string;
let stashId: string;
let gmBag: string;
let swordId: string;
let arrowId: string;
let traders: { user: SignedInUser; heroId: string; bag: string }[];
const copper: Record<string, number> = { cp: 1, sp: 10, ep: 50, gp: 100, pp: 1000 };
const tally = {
  purchase: 0,
  party: 0,
  requested: 0,
  sale: 0,
  restock: 0,
  stock: 0,
  unstock: 0,
  approved: 0,
  released: 0,
};

beforeAll(async () => {
  ctx = await buildTestApp();
  gm = await createUser(ctx);
  await upgrade(ctx, gm, 'tier_3');
  const party = await createParty(ctx, gm, { encumbrance_style: 'none' });
  partyId = party.id;
  const gmHero = await createCharacter(ctx, gm, { partyId, maxWeight: null, maxSlots: null });
  gmBag = gmHero.primary_container_id ?? '';
  traders = [];
  for (let i = 0; i < 2; i++) {
    const user = await createMember(ctx, party, 'player');
    await upgrade(ctx, user, 'tier_3');
    const hero = await createCharacter(ctx, user, { partyId, maxWeight: null, maxSlots: null });
    traders.push({ user, heroId: hero.id, bag: hero.primary_container_id ?? '' });
  }
  // Every new party comes with its Party Stash (issue 12): the party fund pays from it.
  const [stash] = await ctx.app.services.inventory.listContainers(gm.user.id, { partyId });
  if (!stash) throw new Error('a new party has a stash');
  stashId = stash.id;
  const rope = await createTemplate(ctx, { name: 'Rope', baseValue: 1, currency: 'gp', stackSize: 0 });
  const arrow = await createTemplate(ctx, { name: 'Arrow', baseValue: 1, currency: 'sp', stackSize: 20 });
  const sword = await createTemplate(ctx, { name: 'Sword', baseValue: 7, currency: 'gp', stackSize: 1 });
  swordId = sword.id;
  arrowId = arrow.id;
  const template = body<ShopTemplate>(
    await callApi(ctx, 'POST', '/shop_templates', gm, { shop_template: { name: 'Bazaar' } }),
  ).data;
  for (const [item, quantity, price] of [
    [rope.id, 8, 250],
    [arrow.id, 30, null],
    [sword.id, 3, null],
  ] as const) {
    await callApi(ctx, 'POST', `/shop_templates/${template.id}/add_item`, gm, {
      shop_item: { item_template_id: item, quantity, price_cp: price },
    });
  }
  const shop = body<ShopInstance>(
    await callApi(ctx, 'POST', '/shop_instances', gm, {
      shop_instance: {
        shop_template_id: template.id,
        party_id: partyId,
        party_fund_allowed: true,
        approval_threshold_cp: 500,
        discount_rate: 0.1,
      },
    }),
  ).data;
  shopId = shop.id;
  shopContainer = shop.container.id;
  const give = async (container: string, currency: 'cp' | 'sp' | 'gp', n: number) => {
    const coin = await coinTemplate(ctx, currency);
    await ctx.app.services.inventory.createInstance(
      { id: gm.user.id, username: gm.user.username },
      { item_template_id: coin.id, container_id: container, quantity: n },
    );
  };
  for (const t of traders) {
    await give(t.bag, 'gp', 40);
    await give(t.bag, 'sp', 25);
    await give(t.bag, 'cp', 37);
  }
  await give(stashId, 'gp', 60);
});
afterAll(async () => ctx.close());

type Envelope<T> = { data: T; error?: { code: string } };
function body<T>(response: { json(): unknown }) {
  return response.json() as Envelope<T>;
}

/** Every container the party's ledger ever named, deleted ones (request holds) included. */
async function ledgerContainers(): Promise<string[]> {
  const rows = await ctx.database.db
    .select({ s: transactions.sourceContainerId, d: transactions.destinationContainerId })
    .from(transactions)
    .where(eq(transactions.partyId, partyId));
  const ids = new Set<string>();
  for (const r of rows) {
    if (r.s) ids.add(r.s);
    if (r.d) ids.add(r.d);
  }
  return [...ids];
}

const replayLedger = (ids: string[]) => replayFrom(ctx.database.db, ids);

const actualContents = (ids: string[]) => heldNow(ctx.database.db, ids);

/** Copper held in coins by the traders and the stash, now. */
async function coinsHeld(): Promise<number> {
  const rows = await ctx.database.db
    .select({ key: itemTemplates.systemKey, n: sql<string>`sum(${itemInstances.quantity})` })
    .from(itemInstances)
    .innerJoin(itemTemplates, eq(itemTemplates.id, itemInstances.itemTemplateId))
    .where(
      and(
        inArray(itemInstances.containerId, [stashId, gmBag, ...traders.map((t) => t.bag)]),
        sql`${itemTemplates.systemKey} like 'coin:%'`,
      ),
    )
    .groupBy(itemTemplates.systemKey);
  return rows.reduce((sum, r) => sum + Number(r.n) * (copper[(r.key ?? '').slice(5)] ?? 0), 0);
}

/** What the ledger says about money: coins created, and the item rows of every purchase and sale. */
async function ledgerMoney() {
  const rows = await ctx.database.db
    .select({
      type: transactions.transactionType,
      role: sql<string | null>`${transactions.details}->>'role'`,
      amount: transactions.amountCp,
      key: itemTemplates.systemKey,
      quantity: transactions.quantity,
    })
    .from(transactions)
    .leftJoin(itemTemplates, eq(itemTemplates.id, transactions.itemTemplateId))
    .where(eq(transactions.partyId, partyId));
  let created = 0;
  let purchases = 0;
  let sales = 0;
  let paid = 0;
  let change = 0;
  let received = 0;
  for (const r of rows) {
    const amount = r.amount ?? 0;
    // Coins made from nothing: added from the marketplace, or stocked by a shop (`create`, issue 14).
    if ((r.type === 'item_creation' || r.type === 'create') && r.key?.startsWith('coin:'))
      created += (r.quantity ?? 0) * (copper[r.key.slice(5)] ?? 0);
    if (r.type === 'purchase' && r.role === null) purchases += amount;
    if (r.type === 'purchase' && r.role === 'payment') paid += amount;
    if (r.type === 'purchase' && r.role === 'change') change += amount;
    if (r.type === 'sale' && r.role === null) sales += amount;
    if (r.type === 'sale' && r.role === 'payment') received += amount;
  }
  return { created, purchases, sales, paid, change, received };
}

const operation = fc.record({
  kind: fc.constantFrom(
    'purchase',
    'purchase',
    'purchase',
    'sell',
    'sell',
    'restock',
    'stock',
    'unstock',
    'approve',
    'decline',
    'cancel',
  ),
  trader: fc.nat(1),
  pick: fc.nat(1000),
  quantity: fc.integer({ min: 1, max: 6 }),
  fromParty: fc.boolean(),
});
/** `item` pins a purchase to one template's stacks; random operations leave it out. */
type Operation = (typeof operation extends fc.Arbitrary<infer T> ? T : never) & { item?: string };

/**
 * Every sequence opens with these, one at a time, so that each run trades for certain: a purchase paid by
 * the buyer and one paid by the party fund (arrows, far below the approval threshold), one above it (a
 * sword, which waits for the GM), a sale and a decision on the waiting request.
 */
function openingMoves(): Operation[] {
  const move = { trader: 0, pick: 1, quantity: 1, fromParty: false };
  return [
    { ...move, kind: 'restock' },
    { ...move, kind: 'purchase', item: arrowId },
    { ...move, kind: 'purchase', item: arrowId, trader: 1, fromParty: true },
    { ...move, kind: 'purchase', item: swordId },
    { ...move, kind: 'sell' },
    { ...move, kind: 'decline' },
    { ...move, kind: 'unstock' },
  ];
}

async function stacksIn(containerId: string) {
  return ctx.database.db
    .select({ instance: itemInstances, key: itemTemplates.systemKey })
    .from(itemInstances)
    .innerJoin(itemTemplates, eq(itemTemplates.id, itemInstances.itemTemplateId))
    .where(eq(itemInstances.containerId, containerId))
    .orderBy(itemInstances.id);
}

async function pendingRequests() {
  return ctx.database.db
    .select()
    .from(shopRequests)
    .where(and(eq(shopRequests.shopInstanceId, shopId), eq(shopRequests.status, 'pending')))
    .orderBy(shopRequests.id);
}

/** One random operation through the HTTP API; 4xx refusals are fine (and change nothing), 5xx are not. */
async function run(op: Operation): Promise<void> {
  const trader = traders[op.trader] ?? traders[0];
  if (!trader) return;
  let res: { statusCode: number; json(): unknown } | undefined;
  switch (op.kind) {
    case 'purchase': {
      const stock = (await stacksIn(shopContainer)).filter(
        (s) => !op.item || s.instance.itemTemplateId === op.item,
      );
      const stack = stock[op.pick % Math.max(1, stock.length)];
      if (!stack) return;
      res = await callApi(ctx, 'POST', `/shop_instances/${shopId}/purchase`, trader.user, {
        purchase: {
          item_instance_id: stack.instance.id,
          // Mostly what the stack holds at most; now and then more than it holds, to be refused.
          quantity:
            op.pick % 4 === 0
              ? stack.instance.quantity + op.quantity
              : Math.min(op.quantity, stack.instance.quantity),
          buyer_character_id: trader.heroId,
          buyer_container_id: trader.bag,
          payment_source: op.fromParty ? 'party' : 'character',
        },
      });
      if (res.statusCode === 200) {
        tally.purchase++;
        if (op.fromParty) tally.party++;
      }
      if (res.statusCode === 202) tally.requested++;
      break;
    }
    case 'sell': {
      const goods = (await stacksIn(trader.bag)).filter((s) => !s.key?.startsWith('coin:'));
      const stack = goods[op.pick % Math.max(1, goods.length)];
      if (!stack) return;
      res = await callApi(ctx, 'POST', `/shop_instances/${shopId}/sell`, trader.user, {
        sell: {
          item_instance_id: stack.instance.id,
          quantity: Math.min(op.quantity, stack.instance.quantity),
          seller_character_id: trader.heroId,
          seller_container_id: trader.bag,
        },
      });
      if (res.statusCode === 200) tally.sale++;
      break;
    }
    case 'restock':
      res = await callApi(ctx, 'POST', `/shop_instances/${shopId}/restock`, gm);
      if (res.statusCode === 200) tally.restock++;
      break;
    case 'stock': {
      const [made] = await ctx.app.services.inventory.createInstance(
        { id: gm.user.id, username: gm.user.username },
        { item_template_id: swordId, container_id: gmBag, quantity: 1 },
      );
      res = await callApi(ctx, 'POST', `/shop_instances/${shopId}/stock`, gm, {
        item_id: made?.id,
        source_container_id: gmBag,
        quantity: 1,
        ...(op.pick % 2 === 0 ? { price: 650 + op.quantity } : {}),
      });
      if (res.statusCode === 200) tally.stock++;
      break;
    }
    case 'unstock': {
      // The GM takes some of a stack back into the stash or the GM's own bag; now and then more than it holds.
      const stock = await stacksIn(shopContainer);
      const stack = stock[op.pick % Math.max(1, stock.length)];
      if (!stack) return;
      res = await callApi(ctx, 'POST', `/shop_instances/${shopId}/unstock`, gm, {
        unstock: {
          item_id: stack.instance.id,
          target_container_id: op.fromParty ? stashId : gmBag,
          quantity:
            op.pick % 5 === 0
              ? stack.instance.quantity + op.quantity
              : Math.min(op.quantity, stack.instance.quantity),
        },
      });
      if (res.statusCode === 200) tally.unstock++;
      break;
    }
    case 'approve':
    case 'decline':
    case 'cancel': {
      const pending = await pendingRequests();
      const request = pending[op.pick % Math.max(1, pending.length)];
      if (!request) return;
      const requester = traders.find((t) => t.user.user.id === request.requesterId) ?? trader;
      res = await callApi(
        ctx,
        'POST',
        `/shop_requests/${request.id}/${op.kind}`,
        op.kind === 'cancel' ? requester.user : gm,
      );
      if (res.statusCode === 200) {
        if (op.kind === 'approve') tally.approved++;
        else tally.released++;
      }
      break;
    }
  }
  if (res && res.statusCode >= 500)
    throw new Error(`${op.kind}: ${res.statusCode} ${JSON.stringify(res.json())}`);
}

describe('trading invariants', () => {
  it('replays every container, makes or loses no coin and never sells below zero, under racing trades', async () => {
    const startCopper = await coinsHeld();
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(operation, { minLength: 1, maxLength: 3 }), { minLength: 3, maxLength: 7 }),
        async (rounds) => {
          for (const move of openingMoves()) await run(move);
          // Each round's operations run at once, as players at one table would.
          for (const round of rounds) await Promise.all(round.map(run));
          const ids = await ledgerContainers();
          for (const id of [shopContainer, stashId, gmBag, ...traders.map((t) => t.bag)])
            expect(ids).toContain(id);
          const replayed = await replayLedger(ids);
          expect(replayed).toEqual(await actualContents(ids));
          // A deleted container (a closed request hold), replayed, holds nothing.
          const live = new Set(
            (
              await ctx.database.db
                .select({ id: containers.id })
                .from(containers)
                .where(inArray(containers.id, ids))
            ).map((c) => c.id),
          );
          for (const key of replayed.keys()) expect(live.has(key.split('/')[0] ?? '')).toBe(true);

          // No coin made or lost: what was given, less what was bought, plus what was sold.
          const money = await ledgerMoney();
          expect(money.paid - money.change).toBe(money.purchases);
          expect(money.received).toBe(money.sales);
          expect(await coinsHeld()).toBe(money.created - money.purchases + money.sales);
          expect(money.created).toBe(startCopper);

          // Stock never below zero; every pending request's hold holds exactly what it asked for.
          const shopStacks = await ctx.database.db
            .select()
            .from(itemInstances)
            .innerJoin(containers, eq(containers.id, itemInstances.containerId))
            .where(eq(containers.shopInstanceId, shopId));
          for (const s of shopStacks) expect(s.item_instances.quantity).toBeGreaterThan(0);
          for (const request of await pendingRequests()) {
            const held = await stacksIn(request.holdContainerId ?? '');
            expect(held.reduce((n, s) => n + s.instance.quantity, 0)).toBe(request.quantity);
          }
          const closed = await ctx.database.db
            .select()
            .from(shopRequests)
            .where(and(eq(shopRequests.shopInstanceId, shopId), sql`${shopRequests.status} <> 'pending'`));
          for (const request of closed) expect(request.holdContainerId).toBeNull();
        },
      ),
      { numRuns: 10 },
    );
    // The property cannot pass by never trading.
    expect(tally.purchase).toBeGreaterThanOrEqual(10);
    expect(tally.party).toBeGreaterThan(0);
    expect(tally.requested).toBeGreaterThan(0);
    expect(tally.sale).toBeGreaterThan(0);
    expect(tally.restock + tally.stock).toBeGreaterThan(0);
    expect(tally.unstock).toBeGreaterThan(0);
    expect(tally.approved + tally.released).toBeGreaterThan(0);
  });

  it('two players racing for a whole shelf line, held, and its approval never oversell', async () => {
    const [a, b] = traders as [(typeof traders)[number], (typeof traders)[number]];
    const gold = await coinTemplate(ctx, 'gp');
    await ctx.app.services.inventory.createInstance(
      { id: gm.user.id, username: gm.user.username },
      { item_template_id: gold.id, container_id: stashId, quantity: 500 },
    );
    await callApi(ctx, 'POST', `/shop_instances/${shopId}/restock`, gm);
    const ropes = (await stacksIn(shopContainer)).find((s) => s.instance.quantity >= 2 && s.key === null);
    if (!ropes) throw new Error('no stack to race for');
    // The whole shelf line: a buyer too late for the named stack is sold the rest of its line instead.
    const available = (await stacksIn(shopContainer))
      .filter((s) => s.instance.itemTemplateId === ropes.instance.itemTemplateId)
      .reduce((n, s) => n + s.instance.quantity, 0);
    const ask = (t: typeof a) =>
      callApi(ctx, 'POST', `/shop_instances/${shopId}/purchase`, t.user, {
        purchase: {
          item_instance_id: ropes.instance.id,
          quantity: available,
          buyer_character_id: t.heroId,
          buyer_container_id: t.bag,
          payment_source: 'party',
        },
      });
    const results = await Promise.all([ask(a), ask(b)]);
    const codes = results.map((r) => r.statusCode).sort();
    // One gets the whole line (at once or as a request); the other finds it gone.
    expect(codes.filter((c) => c === 200 || c === 202)).toHaveLength(1);
    expect(codes.every((c) => c < 500)).toBe(true);
    const won = results.find((r) => r.statusCode === 202);
    const request = won ? body<TradeResult>(won).data.request : null;
    if (request) {
      const decisions = await Promise.all([
        callApi(ctx, 'POST', `/shop_requests/${request.id}/approve`, gm),
        callApi(ctx, 'POST', `/shop_requests/${request.id}/approve`, gm),
        callApi(
          ctx,
          'POST',
          `/shop_requests/${request.id}/cancel`,
          traders.find((t) => t.user.user.id === request.requester.id)?.user ?? a.user,
        ),
      ]);
      expect(decisions.filter((d) => d.statusCode === 200)).toHaveLength(1);
      expect(decisions.filter((d) => d.statusCode === 409)).toHaveLength(2);
    }
    const ids = await ledgerContainers();
    expect(await replayLedger(ids)).toEqual(await actualContents(ids));
    const money = await ledgerMoney();
    expect(await coinsHeld()).toBe(money.created - money.purchases + money.sales);
  });
});
