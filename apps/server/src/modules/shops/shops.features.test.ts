import type { AddressInfo } from 'node:net';
import {
  inventoryMessages,
  type LedgerTransaction,
  type ShopInstance,
  type ShopRequest,
  type ShopRequestResult,
  type ShopTemplate,
  shopMessages,
  type TradeResult,
} from '@haversack/contracts';
import type * as ActionCable from '@rails/actioncable';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { containers, transactions } from '../../db/schema/inventory.js';
import { itemInstances } from '../../db/schema/items.js';
import { parties } from '../../db/schema/parties.js';
import { createAdmin } from '../../test/admin.js';
import { consumerFor, subscribe } from '../../test/cable-client.js';
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
import { actualContents, replayLedger } from '../../test/ledger-replay.js';

/**
 * Issue 10 §8 (paying from the party fund, purchase requests while the GM is away), the shop events of
 * PartyInventoryChannel received by the real Action Cable client, a party deleted with its shops, the
 * public search and every role on the mutating routes.
 */
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
  error?: { code: string; message: string; details?: { field: string; message: string }[] };
};
const body = <T>(response: { json(): unknown }) => response.json() as Envelope<T>;
const actorOf = (u: SignedInUser) => ({ id: u.user.id, username: u.user.username });

async function giveCoins(owner: SignedInUser, containerId: string, currency: 'cp' | 'sp' | 'gp', n: number) {
  const coin = await coinTemplate(ctx, currency);
  await ctx.app.services.inventory.createInstance(actorOf(owner), {
    item_template_id: coin.id,
    container_id: containerId,
    quantity: n,
  });
}

async function purse(containerId: string) {
  const rows = await ctx.database.db
    .select({ key: sql<string>`t.system_key`, n: sql<string>`sum(${itemInstances.quantity})` })
    .from(itemInstances)
    .innerJoin(sql`item_templates t`, sql`t.id = ${itemInstances.itemTemplateId}`)
    .where(and(eq(itemInstances.containerId, containerId), sql`t.system_key like 'coin:%'`))
    .groupBy(sql`t.system_key`);
  return Object.fromEntries(rows.map((r) => [r.key.slice(5), Number(r.n)]));
}

async function count(containerId: string, templateId: string) {
  const [row] = await ctx.database.db
    .select({ n: sql<number>`coalesce(sum(${itemInstances.quantity}), 0)::int` })
    .from(itemInstances)
    .where(and(eq(itemInstances.containerId, containerId), eq(itemInstances.itemTemplateId, templateId)));
  return Number(row?.n ?? 0);
}

/** A GM on a paid plan, a party with a stash, a player with a character, a shop selling rope at 2.5 gp. */
async function world(options: { stock?: number; shop?: Record<string, unknown> } = {}) {
  const gm = await createUser(ctx);
  await upgrade(ctx, gm, 'tier_1');
  const party = await createParty(ctx, gm, { encumbrance_style: 'none' });
  const player = await createMember(ctx, party, 'player');
  const hero = await createCharacter(ctx, player, { partyId: party.id, maxWeight: null, maxSlots: null });
  // Every new party comes with its Party Stash (issue 12).
  const [stash] = await ctx.app.services.inventory.listContainers(gm.user.id, { partyId: party.id });
  if (!stash) throw new Error('a new party has a stash');
  const rope = await createTemplate(ctx, { name: 'Rope', baseValue: 1, currency: 'gp', stackSize: 0 });
  const template = body<ShopTemplate>(
    await callApi(ctx, 'POST', '/shop_templates', gm, { shop_template: { name: 'Ropewalk' } }),
  ).data;
  await callApi(ctx, 'POST', `/shop_templates/${template.id}/add_item`, gm, {
    shop_item: { item_template_id: rope.id, quantity: options.stock ?? 10, price_cp: 250 },
  });
  const deployed = await callApi(ctx, 'POST', '/shop_instances', gm, {
    shop_instance: { shop_template_id: template.id, party_id: party.id, ...options.shop },
  });
  expect(deployed.statusCode).toBe(201);
  const shop = body<ShopInstance>(deployed).data;
  const stack = shop.container.item_instances[0];
  if (!stack || !hero.primary_container_id) throw new Error('world setup failed');
  return { gm, party, player, hero, heroBag: hero.primary_container_id, stash, rope, template, shop, stack };
}
type World = Awaited<ReturnType<typeof world>>;

describe('item counts', () => {
  it('counts a deployed shop’s goods as its template counts them: kinds, not stacks', async () => {
    const w = await world();
    const sword = await createTemplate(ctx, { name: 'Longsword', baseValue: 15, stackSize: 1 });
    await callApi(ctx, 'POST', `/shop_templates/${w.template.id}/add_item`, w.gm, {
      shop_item: { item_template_id: sword.id, quantity: 5 },
    });
    const template = body<ShopTemplate>(
      await callApi(ctx, 'GET', `/shop_templates/${w.template.id}`, w.gm),
    ).data;
    const deployed = body<ShopInstance>(
      await callApi(ctx, 'POST', '/shop_instances', w.gm, {
        shop_instance: { shop_template_id: w.template.id, party_id: w.party.id },
      }),
    ).data;
    // Five longswords do not stack: six stacks on the shelf, two kinds of goods.
    expect(deployed.container.item_instances).toHaveLength(6);
    expect(template.items_count).toBe(2);
    expect(deployed.items_count).toBe(2);
  });
});

function buy(w: World, quantity: number, extra: Record<string, unknown> = {}, who = w.player, hero = w.hero) {
  return callApi(ctx, 'POST', `/shop_instances/${w.shop.id}/purchase`, who, {
    purchase: {
      item_instance_id: w.stack.id,
      quantity,
      buyer_character_id: hero.id,
      buyer_container_id: hero.primary_container_id,
      ...extra,
    },
  });
}

const stockOf = async (w: World) => count(w.shop.container.id, w.rope.id);

describe('paying from the party fund', () => {
  it('is refused until the GM allows it, then pays from the stash with change back to it', async () => {
    const w = await world();
    await giveCoins(w.gm, w.stash.id, 'gp', 5);
    const refused = await buy(w, 1, { payment_source: 'party' });
    expect(refused.statusCode).toBe(403);
    expect(body(refused).error).toMatchObject({
      code: 'FORBIDDEN',
      message: 'The GM has not allowed paying from the party fund at this shop.',
    });
    expect(
      (
        await callApi(ctx, 'PATCH', `/shop_instances/${w.shop.id}`, w.player, {
          shop_instance: { party_fund_allowed: true },
        })
      ).statusCode,
    ).toBe(403);
    const allowed = await callApi(ctx, 'PATCH', `/shop_instances/${w.shop.id}`, w.gm, {
      shop_instance: { party_fund_allowed: true },
    });
    expect(body<ShopInstance>(allowed).data.party_fund_allowed).toBe(true);
    expect(await purse(w.stash.id)).toEqual({ gp: 5 });

    const bought = await buy(w, 1, { payment_source: 'party' });
    expect(bought.statusCode).toBe(200);
    const trade = body<TradeResult>(bought).data;
    expect(trade).toMatchObject({
      total_price_cp: 250,
      payment_source: 'party',
      paid: { gp: 3 },
      change: { sp: 5 },
    });
    expect(await purse(w.stash.id)).toEqual({ gp: 2, sp: 5 });
    expect(await purse(w.heroBag)).toEqual({});
    expect(await count(w.heroBag, w.rope.id)).toBe(1);
    const rows = await ctx.database.db
      .select()
      .from(transactions)
      .where(and(eq(transactions.partyId, w.party.id), eq(transactions.transactionType, 'purchase')));
    expect(rows.every((r) => r.characterId === w.hero.id)).toBe(true);
    const item = rows.find((r) => r.itemTemplateId === w.rope.id);
    expect(item).toMatchObject({ destinationContainerId: w.heroBag, amountCp: 250 });
    expect(item?.details).toMatchObject({ payment_source: 'party', payer_container_id: w.stash.id });
    const coinRows = rows.filter((r) => r.itemTemplateId !== w.rope.id);
    expect(coinRows.map((r) => [r.sourceContainerId ?? r.destinationContainerId, r.amountCp]).sort()).toEqual(
      [
        [w.stash.id, 300],
        [w.stash.id, 50],
      ].sort(),
    );
    // The coin rows say the party fund paid, not the buyer's purse.
    const stashName = `${w.stash.name} (${w.party.name})`;
    expect(coinRows.map((r) => r.summary).sort()).toEqual(
      [
        `${w.player.user.username} paid 3 × Gold piece from ${stashName} to ${w.shop.name} for 1 × ${w.rope.name}`,
        `${w.player.user.username} got 5 × Silver piece in change from ${w.shop.name} into ${stashName}`,
      ].sort(),
    );
  });

  it('answers a wrong stash, a poor stash and a bad source with 4xx and changes nothing', async () => {
    const w = await world({ shop: { party_fund_allowed: true } });
    const other = await world();
    await giveCoins(w.gm, w.stash.id, 'sp', 4);
    await giveCoins(w.player, w.heroBag, 'gp', 9);
    const wrong = await buy(w, 1, { payment_source: 'party', payer_container_id: other.stash.id });
    expect(wrong.statusCode).toBe(422);
    expect(body(wrong).error?.details?.[0]?.field).toBe('payer_container_id');
    // The buyer's own bag is not a party stash.
    expect((await buy(w, 1, { payment_source: 'party', payer_container_id: w.heroBag })).statusCode).toBe(
      422,
    );
    const poor = await buy(w, 1, { payment_source: 'party' });
    expect(poor.statusCode).toBe(422);
    expect(body(poor).error).toMatchObject({
      code: 'INSUFFICIENT_FUNDS',
      details: [{ field: 'payer_container_id' }],
    });
    expect((await buy(w, 1, { payment_source: 'bank' })).statusCode).toBe(422);
    // A stash named for a purchase the buyer's purse pays would be ignored: it is refused instead.
    for (const source of [{ payment_source: 'character' }, {}]) {
      const mixed = await buy(w, 1, { ...source, payer_container_id: w.stash.id });
      expect(mixed.statusCode).toBe(422);
      expect(body(mixed).error?.details?.[0]).toEqual({
        field: 'purchase.payer_container_id',
        message:
          'Only a purchase paid from the party fund names a stash to pay: set payment_source to party, or leave payer_container_id out.',
      });
    }
    expect((await buy(w, 1, { payment_source: 'party', payer_container_id: 'nope' })).statusCode).toBe(422);
    expect(await purse(w.stash.id)).toEqual({ sp: 4 });
    expect(await purse(w.heroBag)).toEqual({ gp: 9 });
    expect(await stockOf(w)).toBe(10);
    const noStash = await world({ shop: { party_fund_allowed: true } });
    // A party made before every party had a stash (the API keeps a party's last container).
    await ctx.database.db.delete(containers).where(eq(containers.id, noStash.stash.id));
    const none = await buy(noStash, 1, { payment_source: 'party' });
    expect(body(none).error?.details?.[0]).toMatchObject({ message: 'This party has no stash to pay from.' });
  });
});

describe('the money of a trade in the ledger', () => {
  it('stands once, on the goods row, so a sum of the amounts is the price', async () => {
    const w = await world();
    await giveCoins(w.player, w.heroBag, 'gp', 5);
    // 2 ropes at 2 gp 5 sp: 5 gp paid, nothing back.
    expect((await buy(w, 2)).statusCode).toBe(200);
    await giveCoins(w.player, w.heroBag, 'gp', 3);
    // 1 rope: 3 gp paid, 5 sp back.
    expect((await buy(w, 1)).statusCode).toBe(200);
    const listed = body<{ transactions: { transactable_data: { name: string }; amount: number | null }[] }>(
      await callApi(
        ctx,
        'GET',
        `/transactions/party/${w.party.id}?transaction_type=purchase&per_page=50`,
        w.gm,
      ),
    ).data.transactions;
    expect(listed.length).toBeGreaterThan(2);
    expect(listed.filter((r) => r.amount !== null).map((r) => [r.transactable_data.name, r.amount])).toEqual([
      [w.rope.name, 250],
      [w.rope.name, 500],
    ]);
    const csv = await callApi(
      ctx,
      'GET',
      `/transactions/party/${w.party.id}/export.csv?transaction_type=purchase`,
      w.gm,
    );
    expect(csv.statusCode).toBe(200);
    const amounts = csv.body
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => line.split(',')[6] ?? '');
    expect(
      amounts
        .filter((a) => a !== '')
        .map(Number)
        .reduce((a, b) => a + b, 0),
    ).toBe(750);
  });
});

describe('purchase requests while the GM is away', () => {
  it('completes a purchase of exactly the threshold at once: only one strictly above it waits', async () => {
    const w = await world({ shop: { approval_threshold_cp: 250 } });
    await giveCoins(w.player, w.heroBag, 'gp', 10);
    const exact = await buy(w, 1);
    expect(exact.statusCode).toBe(200);
    expect(await purse(w.heroBag)).toEqual({ gp: 7, sp: 5 });
    expect(await count(w.heroBag, w.rope.id)).toBe(1);
    expect((await buy(w, 2)).statusCode).toBe(202);
  });

  it('holds the goods above the threshold, moves coins only on approval, once', async () => {
    const w = await world({ shop: { approval_threshold_cp: 300 } });
    expect(w.shop.approval_threshold_cp).toBe(300);
    await giveCoins(w.player, w.heroBag, 'gp', 10);
    // At or below the threshold: at once.
    expect((await buy(w, 1)).statusCode).toBe(200);
    expect(await purse(w.heroBag)).toEqual({ gp: 7, sp: 5 });
    const asked = await buy(w, 2);
    expect(asked.statusCode).toBe(202);
    const pending = body<TradeResult>(asked).data;
    expect(body(asked).message).toBe('Your purchase is waiting for the GM’s approval.');
    expect(pending.request).toMatchObject({
      status: 'pending',
      quantity: 2,
      unit_price_cp: 250,
      total_price_cp: 500,
      formatted: '5 gp',
      can_cancel: true,
      can_decide: false,
      character: { id: w.hero.id },
    });
    const request = pending.request as ShopRequest;
    // No coin moved; the goods left the shelves for the hold.
    expect(await purse(w.heroBag)).toEqual({ gp: 7, sp: 5 });
    expect(await stockOf(w)).toBe(7);
    expect(await count(request.hold_container_id ?? '', w.rope.id)).toBe(2);
    const shopNow = body<ShopInstance>(await callApi(ctx, 'GET', `/shop_instances/${w.shop.id}`, w.gm)).data;
    expect(shopNow.pending_requests_count).toBe(1);
    expect(shopNow.container.item_instances.reduce((n, i) => n + i.quantity, 0)).toBe(7);

    // Another player neither sees it nor may decide it; the buyer may not approve their own.
    const rival = await createMember(ctx, w.party, 'player');
    const rivalList = await callApi(ctx, 'GET', `/shop_instances/${w.shop.id}/requests`, rival);
    expect(body<ShopRequest[]>(rivalList).data).toEqual([]);
    expect((await callApi(ctx, 'POST', `/shop_requests/${request.id}/approve`, rival)).statusCode).toBe(404);
    expect((await callApi(ctx, 'POST', `/shop_requests/${request.id}/approve`, w.player)).statusCode).toBe(
      403,
    );
    const gmCancel = await callApi(ctx, 'POST', `/shop_requests/${request.id}/cancel`, w.gm);
    expect(gmCancel.statusCode).toBe(403);
    expect(body(gmCancel).error?.message).toBe('Only who asked for this purchase can cancel it.');
    const listed = body<ShopRequest[]>(
      await callApi(ctx, 'GET', `/shop_instances/${w.shop.id}/requests`, w.gm),
    );
    expect(listed.data.map((r) => [r.id, r.can_decide])).toEqual([[request.id, true]]);

    const approved = await callApi(ctx, 'POST', `/shop_requests/${request.id}/approve`, w.gm);
    expect(approved.statusCode).toBe(200);
    const result = body<ShopRequestResult>(approved).data;
    expect(result.request).toMatchObject({ status: 'approved', decided_by: { id: w.gm.user.id } });
    expect(result.trade).toMatchObject({ total_price_cp: 500, quantity: 2, paid: { gp: 5 } });
    expect(await purse(w.heroBag)).toEqual({ gp: 2, sp: 5 });
    expect(await count(w.heroBag, w.rope.id)).toBe(3);
    expect(await stockOf(w)).toBe(7);
    // The hold is gone, through the ledger.
    expect(
      await ctx.database.db
        .select()
        .from(containers)
        .where(eq(containers.id, request.hold_container_id ?? '')),
    ).toEqual([]);
    const again = await callApi(ctx, 'POST', `/shop_requests/${request.id}/approve`, w.gm);
    expect(again.statusCode).toBe(409);
    expect(body(again).error?.message).toBe('This request has already been approved.');
    expect((await callApi(ctx, 'POST', `/shop_requests/${request.id}/decline`, w.gm)).statusCode).toBe(409);
    expect(await purse(w.heroBag)).toEqual({ gp: 2, sp: 5 });
    const log = body<{ transactions: { transactable_data: { name: string }; quantity: number }[] }>(
      await callApi(ctx, 'GET', `/shop_instances/${w.shop.id}/sales`, w.gm),
    ).data.transactions;
    expect(log.map((t) => [t.transactable_data.name, t.quantity])).toEqual([
      ['Rope', 2],
      ['Rope', 1],
    ]);
    // The ledger tells it as the player's purchase, let through by the GM; each row says something new.
    const sentences = (
      await ctx.database.db
        .select({ summary: transactions.summary })
        .from(transactions)
        .where(sql`${transactions.details} @> ${JSON.stringify({ shop_request_id: request.id })}::jsonb`)
    ).map((row) => row.summary);
    const asker = w.player.user.username;
    const gm = w.gm.user.username;
    expect(sentences).toEqual(
      expect.arrayContaining([
        `${asker} asked to buy 2 × Rope from Ropewalk for 5 gp`,
        `Ropewalk sets goods aside for ${asker}’s request`,
        `${asker} bought 2 × Rope from Ropewalk for 5 gp (approved by ${gm})`,
        `${asker} paid 5 × Gold piece to Ropewalk for 2 × Rope (approved by ${gm})`,
        `Ropewalk no longer sets goods aside for ${asker}’s request`,
      ]),
    );
    expect(new Set(sentences).size).toBe(sentences.length);
    // The GM's team buys above the threshold at once.
    const gmHero = await createCharacter(ctx, w.gm, { partyId: w.party.id, maxWeight: null, maxSlots: null });
    await giveCoins(w.gm, gmHero.primary_container_id ?? '', 'gp', 10);
    expect((await buy(w, 2, {}, w.gm, gmHero)).statusCode).toBe(200);
  });

  it('puts the goods back on decline and on cancel; refuses what cannot be paid', async () => {
    const w = await world({ shop: { approval_threshold_cp: 0 } });
    await giveCoins(w.player, w.heroBag, 'gp', 3);
    const poor = await buy(w, 2);
    expect(body(poor).error?.code).toBe('INSUFFICIENT_FUNDS');
    expect(await stockOf(w)).toBe(10);
    const first = body<TradeResult>(await buy(w, 1)).data.request as ShopRequest;
    const declined = await callApi(ctx, 'POST', `/shop_requests/${first.id}/decline`, w.gm, {
      reason: 'Not today',
    });
    expect(declined.statusCode).toBe(200);
    expect(body<ShopRequestResult>(declined).data).toMatchObject({
      request: { status: 'declined', reason: 'Not today', can_cancel: false },
      trade: null,
    });
    expect(await stockOf(w)).toBe(10);
    expect(await purse(w.heroBag)).toEqual({ gp: 3 });

    const second = body<TradeResult>(await buy(w, 1)).data.request as ShopRequest;
    const stranger = await createUser(ctx);
    expect((await callApi(ctx, 'POST', `/shop_requests/${second.id}/cancel`, stranger)).statusCode).toBe(404);
    const cancelled = await callApi(ctx, 'POST', `/shop_requests/${second.id}/cancel`, w.player);
    expect(cancelled.statusCode).toBe(200);
    expect(body<ShopRequestResult>(cancelled).data.request.status).toBe('cancelled');
    expect(await stockOf(w)).toBe(10);

    // The coins went elsewhere meanwhile: approval is refused and nothing moves.
    const third = body<TradeResult>(await buy(w, 1)).data.request as ShopRequest;
    const [gold] = await ctx.database.db
      .select()
      .from(itemInstances)
      .where(eq(itemInstances.containerId, w.heroBag));
    await ctx.app.services.inventory.destroyInstance(actorOf(w.player), gold?.id ?? '');
    const broke = await callApi(ctx, 'POST', `/shop_requests/${third.id}/approve`, w.gm);
    expect(broke.statusCode).toBe(422);
    expect(body(broke).error?.code).toBe('INSUFFICIENT_FUNDS');
    const still = body<ShopRequest[]>(
      await callApi(ctx, 'GET', `/shop_instances/${w.shop.id}/requests`, w.player),
    );
    expect(still.data.map((r) => r.status)).toEqual(['pending']);
    expect(await stockOf(w)).toBe(9);

    const all = body<ShopRequest[]>(
      await callApi(ctx, 'GET', `/shop_instances/${w.shop.id}/requests?status=all`, w.gm),
    ).data;
    expect(all.map((r) => r.status).sort()).toEqual(['cancelled', 'declined', 'pending']);
    expect(
      (await callApi(ctx, 'GET', `/shop_instances/${w.shop.id}/requests?status=bogus`, w.gm)).statusCode,
    ).toBe(422);
    expect((await callApi(ctx, 'POST', '/shop_requests/not-a-uuid/approve', w.gm)).statusCode).toBe(422);
    expect(
      (await callApi(ctx, 'POST', `/shop_requests/${crypto.randomUUID()}/approve`, w.gm)).statusCode,
    ).toBe(404);
    const badThreshold = await callApi(ctx, 'PATCH', `/shop_instances/${w.shop.id}`, w.gm, {
      shop_instance: { approval_threshold_cp: -1, party_fund_allowed: 'yes' },
    });
    expect(badThreshold.statusCode).toBe(422);
    expect(
      body(badThreshold)
        .error?.details?.map((d) => d.field)
        .sort(),
    ).toEqual(['shop_instance.approval_threshold_cp', 'shop_instance.party_fund_allowed']);
    const after = body<ShopInstance>(await callApi(ctx, 'GET', `/shop_instances/${w.shop.id}`, w.gm)).data;
    expect(after).toMatchObject({ approval_threshold_cp: 0, party_fund_allowed: false });
  });

  it('refuses a request whose goods would not fit in the buyer’s bag, holding nothing', async () => {
    const w = await world({ shop: { approval_threshold_cp: 0 } });
    await giveCoins(w.player, w.heroBag, 'gp', 5);
    // A bag of one slot, already taken by the coins, in a party that counts slots.
    await ctx.database.db
      .update(parties)
      .set({ encumbranceStyle: 'slots' })
      .where(eq(parties.id, w.party.id));
    await ctx.database.db.update(containers).set({ maxSlots: 1 }).where(eq(containers.id, w.heroBag));
    const full = await buy(w, 1);
    expect(full.statusCode).toBe(422);
    expect(body(full).error?.code).toBe('CAPACITY_EXCEEDED');
    expect(await stockOf(w)).toBe(10);
    const waiting = body<ShopRequest[]>(
      await callApi(ctx, 'GET', `/shop_instances/${w.shop.id}/requests?status=all`, w.gm),
    ).data;
    expect(waiting).toEqual([]);
    // With room made, the same request is filed.
    await ctx.database.db.update(containers).set({ maxSlots: 2 }).where(eq(containers.id, w.heroBag));
    const filed = await buy(w, 1);
    expect(filed.statusCode).toBe(202);
    // The goods it holds keep their room: a second request for the same bag no longer fits...
    const second = await buy(w, 1);
    expect(second.statusCode).toBe(422);
    expect(body(second).error?.code).toBe('CAPACITY_EXCEEDED');
    // ...until the first is decided.
    const first = body<TradeResult>(filed).data.request as ShopRequest;
    expect((await callApi(ctx, 'POST', `/shop_requests/${first.id}/decline`, w.gm)).statusCode).toBe(200);
    expect((await buy(w, 1)).statusCode).toBe(202);
  });

  it('sells the rest of a line to a buyer who named a stack another request took whole', async () => {
    const w = await world({ shop: { approval_threshold_cp: 0 } });
    await giveCoins(w.player, w.heroBag, 'gp', 50);
    const nugget = await createTemplate(ctx, { name: 'Nugget', baseValue: 1, currency: 'gp', stackSize: 5 });
    await callApi(ctx, 'POST', `/shop_templates/${w.template.id}/add_item`, w.gm, {
      shop_item: { item_template_id: nugget.id, quantity: 10 },
    });
    const shop = body<ShopInstance>(
      await callApi(ctx, 'POST', '/shop_instances', w.gm, {
        shop_instance: { shop_template_id: w.template.id, party_id: w.party.id, approval_threshold_cp: 0 },
      }),
    ).data;
    const stacks = shop.container.item_instances.filter((i) => i.item_template_id === nugget.id);
    expect(stacks.map((i) => i.quantity)).toEqual([5, 5]);
    const ask = (quantity: number) =>
      callApi(ctx, 'POST', `/shop_instances/${shop.id}/purchase`, w.player, {
        purchase: {
          item_instance_id: stacks[0]?.id,
          quantity,
          buyer_character_id: w.hero.id,
          buyer_container_id: w.heroBag,
        },
      });
    // The first request holds the whole first stack; the same stack named again takes the second one.
    expect((await ask(5)).statusCode).toBe(202);
    const second = await ask(5);
    expect(second.statusCode, second.body).toBe(202);
    const third = await ask(1);
    expect(third.statusCode).toBe(409);
    expect(body(third).error).toMatchObject({
      code: 'ITEM_OUT_OF_STOCK',
      message: 'This item is out of stock.',
    });
  });

  it('is cancelled when the buyer leaves the party: the goods go back on sale, no coin moves', async () => {
    const w = await world({ shop: { approval_threshold_cp: 0 } });
    await giveCoins(w.player, w.heroBag, 'gp', 5);
    const request = body<TradeResult>(await buy(w, 1)).data.request as ShopRequest;
    expect(await stockOf(w)).toBe(9);
    expect((await callApi(ctx, 'DELETE', `/parties/${w.party.id}/leave`, w.player)).statusCode).toBe(204);
    // Nobody is left who may cancel it, so it went with them; the GM has nothing to decline.
    expect(await stockOf(w)).toBe(10);
    expect(await purse(w.heroBag)).toEqual({ gp: 5 });
    const listed = body<ShopRequest[]>(
      await callApi(ctx, 'GET', `/shop_instances/${w.shop.id}/requests?status=all`, w.gm),
    ).data;
    expect(listed.map((r) => [r.id, r.status])).toEqual([[request.id, 'cancelled']]);
    const approved = await callApi(ctx, 'POST', `/shop_requests/${request.id}/approve`, w.gm);
    expect([approved.statusCode, body(approved).error?.message]).toEqual([
      409,
      shopMessages.requestDecided('cancelled'),
    ]);
    expect(await count(w.heroBag, w.rope.id)).toBe(0);
  });

  it('is declined by the GM who removes the buyer, with the reason, and goes back on sale', async () => {
    const w = await world({ shop: { approval_threshold_cp: 0 } });
    await giveCoins(w.player, w.heroBag, 'gp', 5);
    const request = body<TradeResult>(await buy(w, 1)).data.request as ShopRequest;
    const removed = await callApi(ctx, 'DELETE', `/parties/${w.party.id}/members/${w.player.user.id}`, w.gm);
    expect(removed.statusCode, removed.body).toBe(204);
    expect(await stockOf(w)).toBe(10);
    const [listed] = body<ShopRequest[]>(
      await callApi(ctx, 'GET', `/shop_instances/${w.shop.id}/requests?status=all`, w.gm),
    ).data;
    expect(listed).toMatchObject({ id: request.id, status: 'declined', reason: shopMessages.requesterGone });
  });

  it('is cancelled when the buyer’s account is deleted, and goes back on sale', async () => {
    const w = await world({ shop: { approval_threshold_cp: 0 } });
    await giveCoins(w.player, w.heroBag, 'gp', 5);
    const request = body<TradeResult>(await buy(w, 1)).data.request as ShopRequest;
    const deleted = await callApi(ctx, 'DELETE', '/users/me', w.player, { password: w.player.password });
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect(await stockOf(w)).toBe(10);
    const approved = await callApi(ctx, 'POST', `/shop_requests/${request.id}/approve`, w.gm);
    expect([approved.statusCode, body(approved).error?.code]).toEqual([409, 'CONFLICT']);
    const declined = await callApi(ctx, 'POST', `/shop_requests/${request.id}/decline`, w.gm, {});
    expect(declined.statusCode).toBe(409);
    expect(await stockOf(w)).toBe(10);
  });

  it('is cancelled when staff delete the buyer’s account too', async () => {
    const w = await world({ shop: { approval_threshold_cp: 0 } });
    await giveCoins(w.player, w.heroBag, 'gp', 5);
    const request = body<TradeResult>(await buy(w, 1)).data.request as ShopRequest;
    const admin = await createAdmin(ctx);
    const deleted = await callApi(ctx, 'DELETE', `/admin/users/${w.player.user.id}`, admin.adminAuth, {
      confirm_email: w.player.user.email,
    });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(await stockOf(w)).toBe(10);
    const [listed] = body<ShopRequest[]>(
      await callApi(ctx, 'GET', `/shop_instances/${w.shop.id}/requests?status=all`, w.gm),
    ).data;
    expect(listed).toMatchObject({ id: request.id, status: 'cancelled' });
  });

  it('a request paid from the party fund is charged to the stash on approval', async () => {
    const w = await world({ shop: { approval_threshold_cp: 100, party_fund_allowed: true } });
    await giveCoins(w.gm, w.stash.id, 'gp', 10);
    const asked = await buy(w, 2, { payment_source: 'party', payer_container_id: w.stash.id });
    expect(asked.statusCode).toBe(202);
    const request = body<TradeResult>(asked).data.request as ShopRequest;
    expect(request).toMatchObject({ payment_source: 'party', payer_container_id: w.stash.id });
    expect(await purse(w.stash.id)).toEqual({ gp: 10 });
    await callApi(ctx, 'POST', `/shop_requests/${request.id}/approve`, w.gm);
    expect(await purse(w.stash.id)).toEqual({ gp: 5 });
    expect(await count(w.heroBag, w.rope.id)).toBe(2);
  });

  it('racing approve and decline: exactly one wins, and coins and goods agree with it', async () => {
    const w = await world({ stock: 20, shop: { approval_threshold_cp: 0 } });
    await giveCoins(w.player, w.heroBag, 'gp', 30);
    let approvedCount = 0;
    for (let round = 0; round < 5; round++) {
      const request = body<TradeResult>(await buy(w, 2)).data.request as ShopRequest;
      const manager = round % 2 === 0 ? w.gm : await createMember(ctx, w.party, 'manager');
      const [a, d] = await Promise.all([
        callApi(ctx, 'POST', `/shop_requests/${request.id}/approve`, w.gm),
        callApi(ctx, 'POST', `/shop_requests/${request.id}/decline`, manager),
      ]);
      expect([a.statusCode, d.statusCode].sort()).toEqual([200, 409]);
      if (a.statusCode === 200) approvedCount++;
      const bought = await count(w.heroBag, w.rope.id);
      expect(bought).toBe(approvedCount * 2);
      expect(await stockOf(w)).toBe(20 - bought);
      const left = await purse(w.heroBag);
      expect((left.gp ?? 0) * 100 + (left.sp ?? 0) * 10).toBe(3000 - bought * 250);
    }
  });
});

describe('live shop events on PartyInventoryChannel', () => {
  it('delivers shop_deployed, shop_updated, item_traded, request events and shop_closed to the party', async () => {
    const gm = await createUser(ctx);
    await upgrade(ctx, gm, 'tier_1');
    const party = await createParty(ctx, gm, { encumbrance_style: 'none' });
    const player = await createMember(ctx, party, 'player');
    const hero = await createCharacter(ctx, player, { partyId: party.id, maxWeight: null, maxSlots: null });
    const gmConsumer = consumerFor(baseUrl, gm.token);
    const playerConsumer = consumerFor(baseUrl, player.token);
    consumers.push(gmConsumer, playerConsumer);
    const gmChannel = subscribe(gmConsumer, 'PartyInventoryChannel', party.id);
    const playerChannel = subscribe(playerConsumer, 'PartyInventoryChannel', party.id);
    await Promise.all([gmChannel.connected, playerChannel.connected]);
    const next = (action: string) => gmChannel.next((m) => m.action === action);

    const rope = await createTemplate(ctx, { name: 'Rope', baseValue: 1, currency: 'gp', stackSize: 0 });
    const template = body<ShopTemplate>(
      await callApi(ctx, 'POST', '/shop_templates', gm, { shop_template: { name: 'Live Shop' } }),
    ).data;
    await callApi(ctx, 'POST', `/shop_templates/${template.id}/add_item`, gm, {
      shop_item: { item_template_id: rope.id, quantity: 5 },
    });
    // Refused (a bad discount): nothing is announced for it.
    await callApi(ctx, 'POST', '/shop_instances', gm, {
      shop_instance: { shop_template_id: template.id, party_id: party.id, discount_rate: 2 },
    });
    const shop = body<ShopInstance>(
      await callApi(ctx, 'POST', '/shop_instances', gm, {
        shop_instance: { shop_template_id: template.id, party_id: party.id, approval_threshold_cp: 150 },
      }),
    ).data;
    expect(await next('shop_deployed')).toMatchObject({
      party_id: party.id,
      actor: { id: gm.user.id, name: gm.user.username },
      summary: `${gm.user.username} deployed Live Shop`,
      ids: { shop_instance_id: shop.id },
    });
    await callApi(ctx, 'PATCH', `/shop_instances/${shop.id}`, gm, { shop_instance: { name: 'Live Market' } });
    expect(await next('shop_updated')).toMatchObject({
      summary: `${gm.user.username} updated Live Market`,
      ids: { shop_instance_id: shop.id },
    });
    // Stocked from the GM's own character: the event names the container the goods left, whose screens
    // (the GM's other device, the party's wealth table) refresh with the shop's.
    const gmHero = await createCharacter(ctx, gm, { partyId: party.id, maxWeight: null, maxSlots: null });
    const [spare] = await ctx.app.services.inventory.createInstance(
      { id: gm.user.id, username: gm.user.username },
      { item_template_id: rope.id, container_id: gmHero.primary_container_id ?? '', quantity: 1 },
    );
    const stocked = await callApi(ctx, 'POST', `/shop_instances/${shop.id}/stock`, gm, {
      item_id: spare?.id,
      source_container_id: gmHero.primary_container_id,
      quantity: 1,
    });
    expect(stocked.statusCode, stocked.body).toBe(200);
    expect(
      await playerChannel.next((m) => m.summary === `${gm.user.username} stocked Live Market`),
    ).toMatchObject({
      action: 'shop_updated',
      ids: {
        shop_instance_id: shop.id,
        source_container_id: gmHero.primary_container_id,
        character_id: gmHero.id,
      },
    });
    await giveCoins(player, hero.primary_container_id ?? '', 'gp', 5);
    const stack = shop.container.item_instances[0];
    const purchase = (quantity: number) =>
      callApi(ctx, 'POST', `/shop_instances/${shop.id}/purchase`, player, {
        purchase: {
          item_instance_id: stack?.id,
          quantity,
          buyer_character_id: hero.id,
          buyer_container_id: hero.primary_container_id,
        },
      });
    expect((await purchase(1)).statusCode).toBe(200);
    const traded = await playerChannel.next((m) => m.action === 'item_traded');
    expect(traded).toMatchObject({
      actor: { id: player.user.id },
      summary: `${player.user.username} bought 1 × Rope from Live Market for 1 gp`,
      ids: {
        shop_instance_id: shop.id,
        destination_container_id: hero.primary_container_id,
        character_id: hero.id,
      },
    });
    expect(await next('item_traded')).toMatchObject({ ids: { shop_instance_id: shop.id } });
    const asked = await purchase(2);
    expect(asked.statusCode).toBe(202);
    const request = body<TradeResult>(asked).data.request as ShopRequest;
    expect(await next('shop_request_created')).toMatchObject({
      ids: { shop_instance_id: shop.id, shop_request_id: request.id, status: 'pending' },
    });
    await callApi(ctx, 'POST', `/shop_requests/${request.id}/approve`, gm);
    expect(await playerChannel.next((m) => m.action === 'shop_request_approved')).toMatchObject({
      ids: { shop_request_id: request.id, status: 'approved' },
    });
    // Who asked is told on their own screens, as for a gift: the trade names them and says what happened.
    expect(await next('item_traded')).toMatchObject({
      ids: {
        shop_request_id: request.id,
        recipient_user_id: player.user.id,
        recipient_notice: `${gm.user.username} approved your purchase of 2 × Rope`,
      },
    });
    const declined = body<TradeResult>(await purchase(2)).data.request as ShopRequest;
    await callApi(ctx, 'POST', `/shop_requests/${declined.id}/decline`, gm, { reason: 'Not tonight' });
    expect(await next('shop_request_declined')).toMatchObject({
      ids: {
        shop_request_id: declined.id,
        status: 'declined',
        recipient_user_id: player.user.id,
        recipient_notice: `${gm.user.username} declined your purchase of 2 × Rope: Not tonight`,
      },
    });
    // Who cancels their own request has nobody to tell.
    const cancelled = body<TradeResult>(await purchase(2)).data.request as ShopRequest;
    await callApi(ctx, 'POST', `/shop_requests/${cancelled.id}/cancel`, player);
    const cancelEvent = await next('shop_request_cancelled');
    expect(cancelEvent.ids).not.toHaveProperty('recipient_notice');
    await callApi(ctx, 'PATCH', `/shop_instances/${shop.id}`, gm, { shop_instance: { is_active: false } });
    expect(await next('shop_closed')).toMatchObject({ summary: `${gm.user.username} closed Live Market` });
    // Opened again: said so, for those looking at its shelf (the web's notice), not "updated".
    await callApi(ctx, 'PATCH', `/shop_instances/${shop.id}`, gm, { shop_instance: { is_active: true } });
    const reopened = `${gm.user.username} reopened Live Market`;
    expect(await gmChannel.next((m) => m.action === 'shop_updated' && m.summary === reopened)).toMatchObject({
      ids: { shop_instance_id: shop.id },
    });
    expect(gmChannel.messages.some((m) => m.summary === `${gm.user.username} updated Live Market`)).toBe(
      false,
    );
    await callApi(ctx, 'DELETE', `/shop_instances/${shop.id}`, gm);
    const removed = (m: Record<string, unknown>) =>
      m.action === 'shop_closed' && (m.ids as Record<string, string>).deleted === 'true';
    expect(await playerChannel.next(removed)).toMatchObject({
      ids: { shop_instance_id: shop.id, deleted: 'true' },
    });
    // The refused deployment never reached anyone: exactly one shop_deployed was delivered.
    expect(gmChannel.messages.filter((m) => m.action === 'shop_deployed')).toEqual([]);
    expect(playerChannel.messages.filter((m) => m.action === 'shop_deployed')).toHaveLength(1);
  });
});

describe('a party deleted with its shops', () => {
  it('destroys the stock and the holds of pending requests through the ledger', async () => {
    const w = await world({ shop: { approval_threshold_cp: 0 } });
    await giveCoins(w.player, w.heroBag, 'gp', 8);
    const request = body<TradeResult>(await buy(w, 3)).data.request as ShopRequest;
    const hold = request.hold_container_id ?? '';
    expect((await callApi(ctx, 'DELETE', `/parties/${w.party.id}`, w.gm)).statusCode).toBe(204);
    const ids = [w.shop.container.id, hold];
    expect(
      await ctx.database.db.select().from(itemInstances).where(inArray(itemInstances.containerId, ids)),
    ).toEqual([]);
    const rows = await ctx.database.db
      .select()
      .from(transactions)
      .where(and(eq(transactions.partyId, w.party.id), eq(transactions.itemTemplateId, w.rope.id)));
    // Replaying the ledger empties both containers.
    for (const id of ids) {
      const net = rows.reduce(
        (n, r) =>
          n +
          (r.destinationContainerId === id ? (r.quantity ?? 0) : 0) -
          (r.sourceContainerId === id ? (r.quantity ?? 0) : 0),
        0,
      );
      expect(net).toBe(0);
    }
    const destroyed = rows.filter((r) => r.transactionType === 'container_deletion');
    expect(destroyed.map((r) => [r.sourceContainerId, r.quantity]).sort()).toEqual(
      [
        [w.shop.container.id, 7],
        [hold, 3],
      ].sort(),
    );
    expect((await callApi(ctx, 'GET', `/shop_instances/${w.shop.id}`, w.gm)).statusCode).toBe(404);
    expect((await callApi(ctx, 'POST', `/shop_requests/${request.id}/approve`, w.gm)).statusCode).toBe(404);
    // The player's coins and character are untouched.
    expect(await purse(w.heroBag)).toEqual({ gp: 8 });
  });
});

describe('search and filters', () => {
  it('search/shops finds only public templates; party_id lists what the party deployed, for members', async () => {
    const w = await world();
    const tag = `q${crypto.randomUUID().slice(0, 8)}`;
    const mine = await callApi(ctx, 'POST', '/shop_templates', w.gm, {
      shop_template: { name: `Hidden ${tag}` },
    });
    expect(mine.statusCode).toBe(201);
    const pub = body<ShopTemplate>(
      await callApi(ctx, 'POST', '/shop_templates', w.gm, {
        shop_template: { name: `Open ${tag}`, visibility: 'public' },
      }),
    ).data;
    const searched = await callApi(ctx, 'GET', `/search/shops?search=${tag}`, w.gm);
    expect(body<ShopTemplate[]>(searched).data.map((t) => t.id)).toEqual([pub.id]);
    const stranger = await createUser(ctx);
    expect(
      body<ShopTemplate[]>(await callApi(ctx, 'GET', `/search/shops?search=${tag}`, stranger)).data.map(
        (t) => t.id,
      ),
    ).toEqual([pub.id]);
    // The GM's own listing holds both; the party filter only the template deployed into the party.
    expect(
      body<ShopTemplate[]>(await callApi(ctx, 'GET', `/shop_templates?search=${tag}`, w.gm)).data,
    ).toHaveLength(2);
    const deployed = await callApi(ctx, 'GET', `/shop_templates?party_id=${w.party.id}`, w.gm);
    expect(deployed.statusCode).toBe(200);
    expect(body<ShopTemplate[]>(deployed).data.map((t) => t.id)).toEqual([w.template.id]);
    // A player of the party sees the deployed template only once it is not private.
    const byPlayer = () => callApi(ctx, 'GET', `/shop_templates?party_id=${w.party.id}`, w.player);
    expect(body<ShopTemplate[]>(await byPlayer()).data).toEqual([]);
    await callApi(ctx, 'PATCH', `/shop_templates/${w.template.id}`, w.gm, {
      shop_template: { visibility: 'public' },
    });
    expect(body<ShopTemplate[]>(await byPlayer()).data.map((t) => t.id)).toEqual([w.template.id]);
    expect((await callApi(ctx, 'GET', `/shop_templates?party_id=${w.party.id}`, stranger)).statusCode).toBe(
      404,
    );
    expect((await callApi(ctx, 'GET', '/shop_templates?party_id=nope', w.gm)).statusCode).toBe(422);
  });
});

describe('stocking from another party', () => {
  it('refuses goods from a container of another party, which would leave that party’s ledger short', async () => {
    const w = await world();
    const other = await createParty(ctx, w.gm, { encumbrance_style: 'none' });
    const [otherStash] = await ctx.app.services.inventory.listContainers(w.gm.user.id, { partyId: other.id });
    const [rope] = await ctx.app.services.inventory.createInstance(actorOf(w.gm), {
      item_template_id: w.rope.id,
      container_id: otherStash?.id ?? '',
      quantity: 10,
    });
    const stocked = await callApi(ctx, 'POST', `/shop_instances/${w.shop.id}/stock`, w.gm, {
      item_id: rope?.id,
      source_container_id: otherStash?.id,
      quantity: 4,
    });
    expect(stocked.statusCode, stocked.body).toBe(422);
    expect(body(stocked).error?.details).toEqual([
      { field: 'source_container_id', message: inventoryMessages.otherParty },
    ]);
    expect(await count(otherStash?.id ?? '', w.rope.id)).toBe(10);
  });
});

describe('undo and shops', () => {
  it('does not undo a GM stocking a shop: a shop’s stock changes by its own rules', async () => {
    const w = await world();
    const gmHero = await createCharacter(ctx, w.gm, { partyId: w.party.id, maxWeight: null, maxSlots: null });
    const sword = await createTemplate(ctx, { name: 'Sword', baseValue: 5, currency: 'gp' });
    const [blade] = await ctx.app.services.inventory.createInstance(actorOf(w.gm), {
      item_template_id: sword.id,
      container_id: gmHero.primary_container_id ?? '',
      quantity: 1,
    });
    const stocked = await callApi(ctx, 'POST', `/shop_instances/${w.shop.id}/stock`, w.gm, {
      item_id: blade?.id,
      source_container_id: gmHero.primary_container_id,
      quantity: 1,
    });
    expect(stocked.statusCode, stocked.body).toBe(200);
    const [row] = await ctx.database.db
      .select()
      .from(transactions)
      .where(
        and(
          eq(transactions.sourceContainerId, gmHero.primary_container_id ?? ''),
          eq(transactions.destinationContainerId, w.shop.container.id),
        ),
      );
    expect(row).toBeDefined();
    // The history offers no Undo on it: the ledger's JSON says it is not a move Undo takes back.
    const listed = body<{ transactions: LedgerTransaction[] }>(
      await callApi(ctx, 'GET', `/transactions/party/${w.party.id}?per_page=50`, w.gm),
    ).data.transactions.find((transaction) => transaction.id === row?.id);
    expect(listed).toMatchObject({ transaction_type: 'transfer', undoable: false });
    const undone = await callApi(ctx, 'POST', `/transactions/${row?.id}/undo`, w.gm);
    expect(undone.statusCode).toBe(409);
    expect(body(undone).error?.message).toBe(inventoryMessages.undoNotAMove);
  });
});

describe('who may change a shop', () => {
  it('lets a manager manage shops where members add items, and only the GM where only the GM does', async () => {
    const w = await world();
    const manager = await createMember(ctx, w.party, 'manager');
    await upgrade(ctx, manager, 'tier_1');
    const own = body<ShopTemplate>(
      await callApi(ctx, 'POST', '/shop_templates', manager, { shop_template: { name: 'Half-Price Hal' } }),
    ).data;
    const deploy = () =>
      callApi(ctx, 'POST', '/shop_instances', manager, {
        shop_instance: { shop_template_id: own.id, party_id: w.party.id, discount_rate: 1 },
      });
    const free = await deploy();
    expect(free.statusCode, free.body).toBe(201);

    await callApi(ctx, 'PATCH', `/parties/${w.party.id}`, w.gm, { party: { item_conjuring: 'gm_only' } });
    const refused = await deploy();
    expect(refused.statusCode).toBe(403);
    expect(body(refused).error?.message).toBe(shopMessages.gmOnlyParty);
    const edit = await callApi(ctx, 'PATCH', `/shop_instances/${w.shop.id}`, manager, {
      shop_instance: { discount_rate: 1 },
    });
    expect(edit.statusCode).toBe(403);
    expect(body(edit).error?.message).toBe(shopMessages.gmOnlyParty);
    const shop = body<ShopInstance>(await callApi(ctx, 'GET', `/shop_instances/${w.shop.id}`, w.gm)).data;
    expect(shop.discount_rate).toBe(0);
    expect(
      body<ShopInstance>(await callApi(ctx, 'GET', `/shop_instances/${w.shop.id}`, manager)).data.can_manage,
    ).toBe(false);
    // The GM still manages it.
    const byGm = await callApi(ctx, 'PATCH', `/shop_instances/${w.shop.id}`, w.gm, {
      shop_instance: { discount_rate: 0.1 },
    });
    expect(byGm.statusCode).toBe(200);
  });

  it('answers 403 to players and observers and 404 to outsiders on every mutating route, changing nothing', async () => {
    const w = await world();
    const observer = await createMember(ctx, w.party, 'observer');
    const stranger = await createUser(ctx);
    await upgrade(ctx, stranger, 'tier_1');
    const gmHero = await createCharacter(ctx, w.gm, { partyId: w.party.id, maxWeight: null, maxSlots: null });
    const sword = await createTemplate(ctx, { name: 'Sword', baseValue: 5, currency: 'gp' });
    const [blade] = await ctx.app.services.inventory.createInstance(actorOf(w.gm), {
      item_template_id: sword.id,
      container_id: gmHero.primary_container_id ?? '',
      quantity: 1,
    });
    const routes: [string, string, unknown][] = [
      [
        'PATCH',
        `/shop_instances/${w.shop.id}`,
        { shop_instance: { name: 'Taken', party_fund_allowed: true } },
      ],
      ['DELETE', `/shop_instances/${w.shop.id}`, undefined],
      ['POST', `/shop_instances/${w.shop.id}/restock`, undefined],
      [
        'POST',
        `/shop_instances/${w.shop.id}/stock`,
        { item_id: blade?.id, source_container_id: gmHero.primary_container_id, quantity: 1 },
      ],
      [
        'POST',
        `/shop_instances/${w.shop.id}/unstock`,
        { unstock: { item_id: w.stack.id, target_container_id: w.heroBag, quantity: 1 } },
      ],
      ['GET', `/shop_instances/${w.shop.id}/sales`, undefined],
      [
        'POST',
        '/shop_instances',
        { shop_instance: { shop_template_id: w.template.id, party_id: w.party.id } },
      ],
    ];
    for (const [method, url, payload] of routes) {
      for (const [who, status] of [
        [w.player, 403],
        [observer, 403],
        [stranger, 404],
      ] as const) {
        const res = await callApi(ctx, method as 'POST', url, who, payload);
        expect([method, url, res.statusCode]).toEqual([method, url, status]);
        expect(body(res).status).toBe('error');
      }
    }
    for (const [action, payload] of [
      [
        'purchase',
        {
          purchase: {
            item_instance_id: w.stack.id,
            buyer_character_id: w.hero.id,
            buyer_container_id: w.heroBag,
          },
        },
      ],
      [
        'sell',
        {
          sell: {
            item_instance_id: w.stack.id,
            seller_character_id: w.hero.id,
            seller_container_id: w.heroBag,
          },
        },
      ],
    ] as const) {
      expect(
        (await callApi(ctx, 'POST', `/shop_instances/${w.shop.id}/${action}`, observer, payload)).statusCode,
      ).toBe(403);
      expect(
        (await callApi(ctx, 'POST', `/shop_instances/${w.shop.id}/${action}`, stranger, payload)).statusCode,
      ).toBe(404);
    }
    const after = body<ShopInstance>(await callApi(ctx, 'GET', `/shop_instances/${w.shop.id}`, w.gm)).data;
    expect(after).toMatchObject({ name: 'Ropewalk', party_fund_allowed: false, items_count: 1 });
    expect(await count(gmHero.primary_container_id ?? '', sword.id)).toBe(1);
    const shops = body<{ instances: ShopInstance[] }>(
      await callApi(ctx, 'GET', `/shop_instances?party_id=${w.party.id}`, w.gm),
    ).data.instances;
    expect(shops).toHaveLength(1);
  });
});

describe('taking stock back', () => {
  it('takes back from a shelf line, across its stacks, in one ledger row that replays', async () => {
    const w = await world();
    const sword = await createTemplate(ctx, { name: 'Longsword', baseValue: 15, stackSize: 1 });
    const deployed = body<ShopInstance>(
      await callApi(ctx, 'POST', `/shop_templates/${w.template.id}/add_item`, w.gm, {
        shop_item: { item_template_id: sword.id, quantity: 5 },
      }).then(() =>
        callApi(ctx, 'POST', '/shop_instances', w.gm, {
          shop_instance: { shop_template_id: w.template.id, party_id: w.party.id },
        }),
      ),
    ).data;
    // Longswords do not stack: five stacks, one line of 5 on the shop page.
    const swords = deployed.container.item_instances.filter((i) => i.item_template_id === sword.id);
    expect(swords).toHaveLength(5);
    const unstock = (itemId: string | undefined, quantity: number) =>
      callApi(ctx, 'POST', `/shop_instances/${deployed.id}/unstock`, w.gm, {
        unstock: { item_id: itemId, target_container_id: w.stash.id, quantity },
      });

    const taken = await unstock(swords[0]?.id, 3);
    expect(taken.statusCode, taken.body).toBe(200);
    const left = body<ShopInstance>(taken).data.container.item_instances.filter(
      (i) => i.item_template_id === sword.id,
    );
    expect(left.reduce((sum, i) => sum + i.quantity, 0)).toBe(2);
    const [row, ...others] = await ctx.database.db
      .select()
      .from(transactions)
      .where(
        and(
          eq(transactions.sourceContainerId, deployed.container.id),
          eq(transactions.itemTemplateId, sword.id),
        ),
      );
    expect(others).toEqual([]);
    expect(row).toMatchObject({ quantity: 3, destinationContainerId: w.stash.id });
    expect(
      (row?.details as { source_instance_ids?: string[] } | undefined)?.source_instance_ids,
    ).toHaveLength(3);
    const ids = [deployed.container.id, w.stash.id];
    expect(await replayLedger(ctx.database.db, ids)).toEqual(await actualContents(ctx.database.db, ids));

    // More than the line holds: refused, nothing moves.
    const refused = await unstock(left[0]?.id, 3);
    expect(refused.statusCode).toBe(422);
    expect(body(refused).error?.details?.[0]).toEqual({
      field: 'quantity',
      message: 'There are only 2 of these on the shelf.',
    });
  });
});
