import {
  type ShopInstance,
  type ShopRequestResult,
  type ShopTemplate,
  shopMessages,
  type TradeResult,
} from '@haversack/contracts';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { transactions } from '../../db/schema/inventory.js';
import { itemInstances } from '../../db/schema/items.js';
import type { DomainEvent } from '../../realtime/events.js';
import {
  coinTemplate,
  createCharacter,
  createLootTemplate,
  createMember,
  createParty,
  createTemplate,
  createUser,
  deployLoot,
  type SignedInUser,
  upgrade,
} from '../../test/factories.js';
import { buildTestApp, callApi, type TestContext } from '../../test/helper.js';
import { actualContents, replayLedger } from '../../test/ledger-replay.js';

/**
 * Stock taken back off the shelf (POST shop_instances/{id}/unstock): who may, where the goods may go, the
 * ledger row that moves them (every container still equals its ledger's replay) and the races with buyers.
 */
let ctx: TestContext;

beforeAll(async () => {
  ctx = await buildTestApp();
});
afterAll(async () => ctx.close());

type Envelope<T> = {
  status: string;
  data: T;
  message?: string;
  error?: { code: string; message: string; details?: { field: string; message: string }[] };
};
const body = <T>(response: { json(): unknown }) => response.json() as Envelope<T>;
const actorOf = (u: SignedInUser) => ({ id: u.user.id, username: u.user.username });

async function giveCoins(owner: SignedInUser, containerId: string, n: number) {
  const coin = await coinTemplate(ctx, 'gp');
  await ctx.app.services.inventory.createInstance(actorOf(owner), {
    item_template_id: coin.id,
    container_id: containerId,
    quantity: n,
  });
}

/** How many of a template a container holds, over all its stacks. */
async function heldIn(containerId: string, templateId: string) {
  const rows = await ctx.database.db
    .select({ quantity: itemInstances.quantity })
    .from(itemInstances)
    .where(and(eq(itemInstances.containerId, containerId), eq(itemInstances.itemTemplateId, templateId)));
  return rows.reduce((n, r) => n + r.quantity, 0);
}

async function stacksIn(containerId: string, templateId: string) {
  return ctx.database.db
    .select()
    .from(itemInstances)
    .where(and(eq(itemInstances.containerId, containerId), eq(itemInstances.itemTemplateId, templateId)));
}

async function ledgerRowsOf(partyId: string) {
  return ctx.database.db.select().from(transactions).where(eq(transactions.partyId, partyId));
}

/**
 * DESIGN §4: replaying the ledger from empty gives every container's contents. Each container the party's
 * ledger ever named, as the replay gives it and as it is, by template.
 */
async function replayAndActual(partyId: string) {
  const named = await ctx.database.db
    .select({ s: transactions.sourceContainerId, d: transactions.destinationContainerId })
    .from(transactions)
    .where(eq(transactions.partyId, partyId));
  const ids = [...new Set(named.flatMap((r) => [r.s, r.d]).filter((id): id is string => id !== null))];
  return {
    replayed: await replayLedger(ctx.database.db, ids),
    actual: await actualContents(ctx.database.db, ids),
  };
}

/**
 * A GM on a paid plan with a party, its stash and a character of the GM's; a player with a character; a
 * shop selling ropes (10 lb each) at the GM's own price of 3 gp.
 */
async function world(
  options: {
    stock?: number;
    stackSize?: number;
    encumbrance?: 'none' | 'both';
    gmMaxWeight?: number | null;
  } = {},
) {
  const gm = await createUser(ctx);
  await upgrade(ctx, gm, 'tier_3');
  const party = await createParty(ctx, gm, { encumbrance_style: options.encumbrance ?? 'none' });
  const gmHero = await createCharacter(ctx, gm, {
    partyId: party.id,
    maxWeight: options.gmMaxWeight ?? null,
    maxSlots: null,
  });
  const player = await createMember(ctx, party, 'player');
  await upgrade(ctx, player, 'tier_3');
  const hero = await createCharacter(ctx, player, { partyId: party.id, maxWeight: null, maxSlots: null });
  const [stash] = await ctx.app.services.inventory.listContainers(gm.user.id, { partyId: party.id });
  if (!stash) throw new Error('a new party has a stash');
  const rope = await createTemplate(ctx, {
    name: 'Rope',
    baseValue: 1,
    currency: 'gp',
    stackSize: options.stackSize ?? 0,
    weight: 10,
  });
  const template = body<ShopTemplate>(
    await callApi(ctx, 'POST', '/shop_templates', gm, { shop_template: { name: 'Corner Shop' } }),
  ).data;
  await callApi(ctx, 'POST', `/shop_templates/${template.id}/add_item`, gm, {
    shop_item: { item_template_id: rope.id, quantity: options.stock ?? 5, price_cp: 300 },
  });
  const shop = body<ShopInstance>(
    await callApi(ctx, 'POST', '/shop_instances', gm, {
      shop_instance: { shop_template_id: template.id, party_id: party.id },
    }),
  ).data;
  const stack = shop.container.item_instances[0];
  if (!stack || !hero.primary_container_id || !gmHero.primary_container_id)
    throw new Error('world setup failed');
  const unstock = (who: SignedInUser, payload: Record<string, unknown>, shopId = shop.id) =>
    callApi(ctx, 'POST', `/shop_instances/${shopId}/unstock`, who, { unstock: payload });
  return {
    gm,
    party,
    gmBag: gmHero.primary_container_id,
    gmHero,
    player,
    hero,
    heroBag: hero.primary_container_id,
    stashId: stash.id,
    rope,
    template,
    shop,
    shelf: shop.container.id,
    stack,
    unstock,
  };
}

describe('taking stock back off the shelf', () => {
  it('moves part of a stack into a character and the rest into the party stash, one transfer row each', async () => {
    const w = await world({ stock: 5 });
    // The stash already holds a rope: the one taken back joins its stack.
    await ctx.app.services.inventory.createInstance(actorOf(w.gm), {
      item_template_id: w.rope.id,
      container_id: w.stashId,
      quantity: 1,
    });
    const publish = vi.spyOn(ctx.app.services.events, 'publish');

    const first = await w.unstock(w.gm, { item_id: w.stack.id, target_container_id: w.gmBag, quantity: 2 });
    expect(first.statusCode, first.body).toBe(200);
    expect(body<ShopInstance>(first).message).toBe(shopMessages.unstocked);
    expect(body<ShopInstance>(first).data.container.item_instances).toEqual([
      expect.objectContaining({ id: w.stack.id, quantity: 3 }),
    ]);
    expect(await heldIn(w.gmBag, w.rope.id)).toBe(2);

    // Bare fields are accepted as well as {unstock}; no quantity takes the whole stack.
    const rest = await callApi(ctx, 'POST', `/shop_instances/${w.shop.id}/unstock`, w.gm, {
      item_id: w.stack.id,
      target_container_id: w.stashId,
    });
    expect(rest.statusCode, rest.body).toBe(200);
    expect(body<ShopInstance>(rest).data.container.item_instances).toEqual([]);
    expect(await heldIn(w.shelf, w.rope.id)).toBe(0);
    expect(await stacksIn(w.stashId, w.rope.id)).toEqual([expect.objectContaining({ quantity: 4 })]);

    const rows = (await ledgerRowsOf(w.party.id)).filter(
      (r) => (r.details as { reason?: string } | null)?.reason === 'unstock',
    );
    expect(rows).toHaveLength(2);
    const intoBag = rows.find((r) => r.destinationContainerId === w.gmBag);
    expect(intoBag).toMatchObject({
      transactionType: 'transfer',
      actorId: w.gm.user.id,
      characterId: w.gmHero.id,
      itemTemplateId: w.rope.id,
      itemName: 'Rope',
      quantity: 2,
      sourceContainerId: w.shelf,
      scope: 'party',
      details: { reason: 'unstock', shop_instance_id: w.shop.id, source_item_instance_id: w.stack.id },
      summary: `${w.gm.user.username} took 2 × Rope back from ${w.shop.name}`,
    });
    expect(rows.find((r) => r.destinationContainerId === w.stashId)).toMatchObject({
      quantity: 3,
      characterId: null,
      sourceContainerId: w.shelf,
    });

    // Every container equals its ledger's replay: the shelf, the GM's bag and the stash.
    const { replayed, actual } = await replayAndActual(w.party.id);
    expect(replayed).toEqual(actual);
    expect(actual.get(`${w.stashId}/${w.rope.id}`)).toBe(4);
    expect(actual.has(`${w.shelf}/${w.rope.id}`)).toBe(false);

    // Announced as a change of the shop naming the container the goods went into (its screens refresh).
    const events = publish.mock.calls.flatMap(([batch]) => batch as DomainEvent[]);
    const updated = events.filter((e) => e.action === 'shop_updated' && e.partyId === w.party.id);
    expect(updated.map((e) => e.ids)).toEqual([
      { shop_instance_id: w.shop.id, destination_container_id: w.gmBag, character_id: w.gmHero.id },
      { shop_instance_id: w.shop.id, destination_container_id: w.stashId, character_id: null },
    ]);
    publish.mockRestore();
  });

  it('keeps the shop’s own price for the item when its last unit leaves, for the next stock', async () => {
    const w = await world({ stock: 2 });
    expect(w.stack.buy_price_cp).toBe(300);
    const taken = await w.unstock(w.gm, { item_id: w.stack.id, target_container_id: w.gmBag });
    expect(taken.statusCode, taken.body).toBe(200);
    const [back] = await stacksIn(w.gmBag, w.rope.id);
    const stocked = await callApi(ctx, 'POST', `/shop_instances/${w.shop.id}/stock`, w.gm, {
      stock: { item_id: back?.id, source_container_id: w.gmBag, quantity: 1 },
    });
    expect(stocked.statusCode, stocked.body).toBe(200);
    expect(body<ShopInstance>(stocked).data.container.item_instances).toEqual([
      expect.objectContaining({ quantity: 1, buy_price_cp: 300, has_own_price: true }),
    ]);
  });

  it('lets the GM put it in a player’s character, and a manager only in their own or the stash', async () => {
    const w = await world({ stock: 6 });
    const toPlayer = await w.unstock(w.gm, {
      item_id: w.stack.id,
      target_container_id: w.heroBag,
      quantity: 1,
    });
    expect(toPlayer.statusCode, toPlayer.body).toBe(200);
    expect(await heldIn(w.heroBag, w.rope.id)).toBe(1);

    const manager = await createMember(ctx, w.party, 'manager');
    const managerHero = await createCharacter(ctx, manager, {
      partyId: w.party.id,
      maxWeight: null,
      maxSlots: null,
    });
    const own = await w.unstock(manager, {
      item_id: w.stack.id,
      target_container_id: managerHero.primary_container_id,
      quantity: 1,
    });
    expect(own.statusCode, own.body).toBe(200);
    const stash = await w.unstock(manager, {
      item_id: w.stack.id,
      target_container_id: w.stashId,
      quantity: 1,
    });
    expect(stash.statusCode, stash.body).toBe(200);
    const others = await w.unstock(manager, {
      item_id: w.stack.id,
      target_container_id: w.heroBag,
      quantity: 1,
    });
    expect(others.statusCode).toBe(403);
    expect(await heldIn(w.heroBag, w.rope.id)).toBe(1);
    expect(await heldIn(w.shelf, w.rope.id)).toBe(3);
  });
});

describe('refusals', () => {
  it('refuses players and observers (403) and outsiders (404), and changes nothing', async () => {
    const w = await world({ stock: 3 });
    const observer = await createMember(ctx, w.party, 'observer');
    const stranger = await createUser(ctx);
    const before = (await ledgerRowsOf(w.party.id)).length;
    for (const [who, target, status] of [
      [w.player, w.heroBag, 403],
      [w.player, w.stashId, 403],
      [observer, w.stashId, 403],
      [stranger, w.stashId, 404],
    ] as const) {
      const res = await w.unstock(who, { item_id: w.stack.id, target_container_id: target, quantity: 1 });
      expect(res.statusCode, res.body).toBe(status);
      expect(body(res).status).toBe('error');
    }
    const refused = await w.unstock(w.player, { item_id: w.stack.id, target_container_id: w.heroBag });
    expect(body(refused).error).toMatchObject({ code: 'FORBIDDEN', message: shopMessages.cannotManage });
    expect(await heldIn(w.shelf, w.rope.id)).toBe(3);
    expect(await heldIn(w.heroBag, w.rope.id)).toBe(0);
    expect(await ledgerRowsOf(w.party.id)).toHaveLength(before);
  });

  it('cannot take goods held for a pending purchase request (404), nor put anything in the hold', async () => {
    const w = await world({ stock: 3 });
    await callApi(ctx, 'PATCH', `/shop_instances/${w.shop.id}`, w.gm, {
      shop_instance: { approval_threshold_cp: 100 },
    });
    await giveCoins(w.player, w.heroBag, 10);
    const asked = await callApi(ctx, 'POST', `/shop_instances/${w.shop.id}/purchase`, w.player, {
      purchase: {
        item_instance_id: w.stack.id,
        quantity: 2,
        buyer_character_id: w.hero.id,
        buyer_container_id: w.heroBag,
      },
    });
    expect(asked.statusCode, asked.body).toBe(202);
    const hold = body<TradeResult>(asked).data.request?.hold_container_id ?? '';
    const [held] = await stacksIn(hold, w.rope.id);
    expect(held?.quantity).toBe(2);

    const grab = await w.unstock(w.gm, { item_id: held?.id, target_container_id: w.gmBag });
    expect(grab.statusCode).toBe(404);
    expect(body(grab).error?.message).toBe(shopMessages.unstockNotInShop);
    const intoHold = await w.unstock(w.gm, { item_id: w.stack.id, target_container_id: hold, quantity: 1 });
    expect(intoHold.statusCode).toBe(404);
    expect(await heldIn(hold, w.rope.id)).toBe(2);
    expect(await heldIn(w.gmBag, w.rope.id)).toBe(0);

    // The request still completes with the goods it held.
    const id = body<TradeResult>(asked).data.request?.id;
    const approved = await callApi(ctx, 'POST', `/shop_requests/${id}/approve`, w.gm, {});
    expect(body<ShopRequestResult>(approved).data.request.status).toBe('approved');
    expect(await heldIn(w.heroBag, w.rope.id)).toBe(2);
  });

  it('puts nothing in a container of a stranger, another party, another shop or a loot (404)', async () => {
    const w = await world({ stock: 3 });
    const other = await world({ stock: 1 });
    const stranger = await createUser(ctx);
    const strangerHero = await createCharacter(ctx, stranger);
    const loot = await createLootTemplate(ctx, w.gm, [{ item_template_id: w.rope.id, quantity: 1 }]);
    const deployed = await deployLoot(ctx, w.gm, w.party.id, loot.id, { reveal: true });
    const lootContainer = (deployed as { container: { id: string } }).container.id;
    for (const target of [
      strangerHero.primary_container_id,
      other.stashId,
      other.heroBag,
      other.shelf,
      w.shelf,
      lootContainer,
      '00000000-0000-4000-8000-000000000000',
    ]) {
      const res = await w.unstock(w.gm, { item_id: w.stack.id, target_container_id: target, quantity: 1 });
      expect([target, res.statusCode]).toEqual([target, 404]);
      expect(body(res).error?.message).toBe('Container not found.');
    }
    // A stack of another shop is not in this one.
    const elsewhere = await w.unstock(w.gm, { item_id: other.stack.id, target_container_id: w.gmBag });
    expect(elsewhere.statusCode).toBe(404);
    expect(body(elsewhere).error?.message).toBe(shopMessages.unstockNotInShop);
    expect(await heldIn(w.shelf, w.rope.id)).toBe(3);
    expect(await heldIn(other.shelf, other.rope.id)).toBe(1);
  });

  it('keeps the goods in the party: the GM’s own character elsewhere is a 422 on the target', async () => {
    const w = await world({ stock: 3 });
    const loner = await createCharacter(ctx, w.gm, { maxWeight: null, maxSlots: null });
    const res = await w.unstock(w.gm, {
      item_id: w.stack.id,
      target_container_id: loner.primary_container_id,
      quantity: 1,
    });
    expect(res.statusCode).toBe(422);
    expect(body(res).error?.details).toEqual([
      { field: 'target_container_id', message: shopMessages.unstockNotInParty },
    ]);
    expect(await heldIn(w.shelf, w.rope.id)).toBe(3);
  });

  it('refuses more than the shelf line holds (422 on quantity) and malformed bodies (422)', async () => {
    const w = await world({ stock: 3 });
    const tooMany = await w.unstock(w.gm, { item_id: w.stack.id, target_container_id: w.gmBag, quantity: 4 });
    expect(tooMany.statusCode).toBe(422);
    expect(body(tooMany).error).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: [{ field: 'quantity', message: 'There are only 3 of these on the shelf.' }],
    });
    for (const payload of [
      { item_id: w.stack.id },
      { item_id: w.stack.id, target_container_id: w.gmBag, quantity: 0 },
      { item_id: 'nope', target_container_id: w.gmBag },
    ]) {
      const res = await w.unstock(w.gm, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(422);
    }
    expect(await heldIn(w.shelf, w.rope.id)).toBe(3);
    expect(await heldIn(w.gmBag, w.rope.id)).toBe(0);
    // One left on the shelf is said in the singular.
    expect(
      (await w.unstock(w.gm, { item_id: w.stack.id, target_container_id: w.gmBag, quantity: 2 })).statusCode,
    ).toBe(200);
    const lastOne = await w.unstock(w.gm, { item_id: w.stack.id, target_container_id: w.gmBag, quantity: 2 });
    expect(body(lastOne).error?.details).toEqual([
      { field: 'quantity', message: 'There is only 1 of these on the shelf.' },
    ]);
    expect(await heldIn(w.shelf, w.rope.id)).toBe(1);
  });

  it('refuses a move that does not fit the target whole (CAPACITY_EXCEEDED), writing nothing', async () => {
    // Ropes weigh 10 lb; the GM's character carries at most 15 lb.
    const w = await world({ stock: 3, encumbrance: 'both', gmMaxWeight: 15 });
    const before = (await ledgerRowsOf(w.party.id)).length;
    const res = await w.unstock(w.gm, { item_id: w.stack.id, target_container_id: w.gmBag, quantity: 2 });
    expect(res.statusCode).toBe(422);
    expect(body(res).error?.code).toBe('CAPACITY_EXCEEDED');
    expect(await heldIn(w.shelf, w.rope.id)).toBe(3);
    expect(await heldIn(w.gmBag, w.rope.id)).toBe(0);
    expect(await ledgerRowsOf(w.party.id)).toHaveLength(before);
    const one = await w.unstock(w.gm, { item_id: w.stack.id, target_container_id: w.gmBag, quantity: 1 });
    expect(one.statusCode, one.body).toBe(200);
  });

  it('is read-only in an archived party (403, the party’s message)', async () => {
    const w = await world({ stock: 3 });
    expect((await callApi(ctx, 'POST', `/parties/${w.party.id}/archive`, w.gm)).statusCode).toBe(200);
    const res = await w.unstock(w.gm, { item_id: w.stack.id, target_container_id: w.gmBag, quantity: 1 });
    expect(res.statusCode).toBe(403);
    expect(body(res).error?.code).toBe('FORBIDDEN');
    expect(await heldIn(w.shelf, w.rope.id)).toBe(3);
  });
});

describe('racing buyers', () => {
  /** Ten players of the party, each with a character holding 10 gp. */
  async function buyers(w: Awaited<ReturnType<typeof world>>) {
    const list: { user: SignedInUser; heroId: string; bag: string }[] = [];
    for (let i = 0; i < 10; i++) {
      const user = await createMember(ctx, w.party, 'player');
      await upgrade(ctx, user, 'tier_3');
      const hero = await createCharacter(ctx, user, { partyId: w.party.id, maxWeight: null, maxSlots: null });
      const bag = hero.primary_container_id ?? '';
      await giveCoins(user, bag, 10);
      list.push({ user, heroId: hero.id, bag });
    }
    return list;
  }

  const buy = (
    w: Awaited<ReturnType<typeof world>>,
    b: { user: SignedInUser; heroId: string; bag: string },
  ) =>
    callApi(ctx, 'POST', `/shop_instances/${w.shop.id}/purchase`, b.user, {
      purchase: {
        item_instance_id: w.stack.id,
        quantity: 1,
        buyer_character_id: b.heroId,
        buyer_container_id: b.bag,
      },
    });

  it('the GM taking back the last unit while ten players buy it: exactly one side gets it', async () => {
    const w = await world({ stock: 1 });
    const list = await buyers(w);
    const results = await Promise.all([
      w.unstock(w.gm, { item_id: w.stack.id, target_container_id: w.gmBag, quantity: 1 }),
      ...list.map((b) => buy(w, b)),
    ]);
    for (const r of results) expect(r.statusCode, r.body).toBeLessThan(500);
    const won = results.filter((r) => r.statusCode === 200);
    expect(won).toHaveLength(1);
    const [taken, ...purchases] = results;
    if (!taken) throw new Error('the take-back did not answer');
    // Whoever lost was told it is gone: the GM that it is no longer in the shop, a buyer that it sold out
    // (someone bought it) or that it is no longer for sale (the GM took it back).
    if (taken.statusCode !== 200) expect(body(taken).error?.message).toBe(shopMessages.unstockNotInShop);
    for (const r of purchases.filter((p) => p.statusCode !== 200)) {
      expect(body(r).error?.code).toBe(taken.statusCode === 200 ? 'RESOURCE_NOT_FOUND' : 'ITEM_OUT_OF_STOCK');
    }
    const inBags = await Promise.all(list.map((b) => heldIn(b.bag, w.rope.id)));
    const gold = await Promise.all(list.map(async (b) => heldIn(b.bag, (await coinTemplate(ctx, 'gp')).id)));
    const gmGot = await heldIn(w.gmBag, w.rope.id);
    // One rope in all, wherever it went; whoever did not get it kept their coins.
    expect(gmGot + inBags.reduce((a, b) => a + b, 0) + (await heldIn(w.shelf, w.rope.id))).toBe(1);
    expect(gmGot).toBe(taken.statusCode === 200 ? 1 : 0);
    purchases.forEach((r, i) => {
      expect(inBags[i]).toBe(r.statusCode === 200 ? 1 : 0);
      expect(gold[i]).toBe(r.statusCode === 200 ? 7 : 10);
    });
    const { replayed, actual } = await replayAndActual(w.party.id);
    expect(replayed).toEqual(actual);
  });

  it('the GM taking back part of a stack while ten players buy from it: no unit made or lost', async () => {
    const w = await world({ stock: 6 });
    const list = await buyers(w);
    const results = await Promise.all([
      ...list.slice(0, 5).map((b) => buy(w, b)),
      w.unstock(w.gm, { item_id: w.stack.id, target_container_id: w.stashId, quantity: 3 }),
      ...list.slice(5).map((b) => buy(w, b)),
    ]);
    for (const r of results) expect(r.statusCode, r.body).toBeLessThan(500);
    const taken = results[5];
    if (!taken) throw new Error('the take-back did not answer');
    // Too late for three, the GM is told how many are left (in the stack, or on the shelf when the shelf's
    // count saw the sales first, on the quantity field), or that the stack is gone.
    if (taken.statusCode !== 200) {
      expect([422, 404]).toContain(taken.statusCode);
      const error = body(taken).error;
      expect(error?.details?.[0]?.message ?? error?.message).toMatch(
        /^There (are only [02]|is only 1) (in this stack|of these on the shelf)\.$|^Item not found in this shop\.$/,
      );
    }
    const bought = results.filter((r, i) => i !== 5 && r.statusCode === 200).length;
    const inStash = await heldIn(w.stashId, w.rope.id);
    const onShelf = await heldIn(w.shelf, w.rope.id);
    const inBags = (await Promise.all(list.map((b) => heldIn(b.bag, w.rope.id)))).reduce((a, b) => a + b, 0);
    expect(inStash).toBe(taken.statusCode === 200 ? 3 : 0);
    expect(inBags).toBe(bought);
    expect(inStash + inBags + onShelf).toBe(6);
    expect(onShelf).toBeGreaterThanOrEqual(0);
    const { replayed, actual } = await replayAndActual(w.party.id);
    expect(replayed).toEqual(actual);
  });
});
