import type { LootSummary, ShopInstance, ShopTemplate, TradeResult } from '@haversack/contracts';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transactions } from '../../db/schema/inventory.js';
import { itemInstances } from '../../db/schema/items.js';
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
import { actorOf, body, holdingsOf } from '../../test/holdings.js';

/** Issue 11 §8 "Beyond the spec: split the proceeds" (docs/decisions.md). */

let ctx: TestContext;

beforeAll(async () => {
  ctx = await buildTestApp();
});
afterAll(async () => ctx.close());
const { coinsIn, quantityIn } = holdingsOf(() => ctx.database.db);

async function saleRows(partyId: string) {
  return ctx.database.db
    .select()
    .from(transactions)
    .where(and(eq(transactions.partyId, partyId), eq(transactions.transactionType, 'sale')));
}

/**
 * A GM (no character) with a party stash holding a gem worth 1001 cp, three players with a hero each (the
 * first also holds a gem), and a shop that pays the full value (sell modifier 1).
 */
async function world() {
  for (const c of ['cp', 'sp', 'gp', 'pp'] as const) await coinTemplate(ctx, c);
  const gm = await createUser(ctx);
  await upgrade(ctx, gm, 'tier_1');
  const party = await createParty(ctx, gm, { encumbrance_style: 'none' });
  const players: SignedInUser[] = [];
  const heroes: Awaited<ReturnType<typeof createCharacter>>[] = [];
  for (const name of ['Aria', 'Bram', 'Cole']) {
    const player = await createMember(ctx, party, 'player');
    players.push(player);
    heroes.push(
      await createCharacter(ctx, player, { name, partyId: party.id, maxWeight: null, maxSlots: null }),
    );
  }
  const bags = heroes.map((h) => {
    if (!h.primary_container_id) throw new Error('hero without a bag');
    return h.primary_container_id;
  });
  const stash = await ctx.app.services.inventory.createContainer(
    actorOf(gm),
    { partyId: party.id },
    { name: 'Party Stash', description: '', max_weight: null, max_slots: null },
  );
  const gem = await createTemplate(ctx, { name: 'Gem', baseValue: 1001, currency: 'cp', stackSize: 0 });
  await ctx.app.services.inventory.createInstance(actorOf(gm), {
    item_template_id: gem.id,
    container_id: stash.id,
    quantity: 2,
  });
  await ctx.app.services.inventory.createInstance(actorOf(players[0] as SignedInUser), {
    item_template_id: gem.id,
    container_id: bags[0] as string,
    quantity: 1,
  });
  const template = body<ShopTemplate>(
    await callApi(ctx, 'POST', '/shop_templates', gm, { shop_template: { name: 'Gem Buyer' } }),
  ).data;
  const deployed = body<ShopInstance>(
    await callApi(ctx, 'POST', '/shop_instances', gm, {
      shop_instance: { shop_template_id: template.id, party_id: party.id },
    }),
  ).data;
  const shop = body<ShopInstance>(
    await callApi(ctx, 'PATCH', `/shop_instances/${deployed.id}`, gm, {
      shop_instance: { sell_modifier: 1 },
    }),
  ).data;
  const [stashGem] = await ctx.database.db
    .select()
    .from(itemInstances)
    .where(and(eq(itemInstances.containerId, stash.id), eq(itemInstances.itemTemplateId, gem.id)));
  const [heroGem] = await ctx.database.db
    .select()
    .from(itemInstances)
    .where(and(eq(itemInstances.containerId, bags[0] as string), eq(itemInstances.itemTemplateId, gem.id)));
  if (!stashGem || !heroGem) throw new Error('world setup failed');
  return { gm, party, players, heroes, bags, stash, gem, shop, stashGem, heroGem };
}
type World = Awaited<ReturnType<typeof world>>;

const sell = (w: World, user: SignedInUser, sell: Record<string, unknown>) =>
  callApi(ctx, 'POST', `/shop_instances/${w.shop.id}/sell`, user, { sell });

describe('splitting the proceeds of a sale', () => {
  it('the GM sells party loot from the stash and 1001 cp is shared 334/334/333 among the heroes', async () => {
    const w = await world();
    const res = await sell(w, w.gm, {
      item_instance_id: w.stashGem.id,
      quantity: 1,
      seller_container_id: w.stash.id,
      split_among: w.heroes.map((h) => h.id),
    });
    expect(res.statusCode).toBe(200);
    const trade = body<TradeResult>(res);
    expect(trade.data).toMatchObject({ kind: 'sale', total_price_cp: 1001, quantity: 1 });
    // The coins the party received, all shares together.
    expect(trade.data.received).toEqual({ pp: 0, gp: 9, ep: 0, sp: 9, cp: 11 });
    expect(trade.message).toBe(
      'Sale complete: 10 gp 1 cp split among Aria (3 gp 3 sp 4 cp), Bram (3 gp 3 sp 4 cp) and Cole (3 gp 3 sp 3 cp).',
    );
    expect(trade.data.message).toBe(trade.message);
    expect(await Promise.all(w.bags.map(coinsIn))).toEqual([334, 334, 333]);
    // The gem went to the shop; the stash has none of the coins.
    expect(await quantityIn(w.stash.id, w.gem.id)).toBe(1);
    expect(await coinsIn(w.stash.id)).toBe(0);

    const rows = await saleRows(w.party.id);
    const item = rows.filter((r) => r.itemName === 'Gem');
    expect(item).toHaveLength(1);
    expect(item[0]).toMatchObject({
      amountCp: 1001,
      characterId: null,
      sourceContainerId: w.stash.id,
      actorId: w.gm.user.id,
    });
    expect(item[0]?.details).toMatchObject({ split_among: w.heroes.map((h) => h.id) });
    const payments = rows.filter((r) => r.itemName !== 'Gem');
    expect(payments.every((r) => (r.details as { role?: string }).role === 'payment')).toBe(true);
    expect(payments.every((r) => (r.details as { split_share?: boolean }).split_share === true)).toBe(true);
    // Every payment row credits the character whose main container it went into, and they add up.
    expect(payments.reduce((sum, r) => sum + (r.amountCp ?? 0), 0)).toBe(1001);
    for (const [i, hero] of w.heroes.entries()) {
      const mine = payments.filter((r) => r.characterId === hero.id);
      expect(mine.every((r) => r.destinationContainerId === w.bags[i])).toBe(true);
      expect(mine.reduce((sum, r) => sum + (r.amountCp ?? 0), 0)).toBe(i < 2 ? 334 : 333);
    }

    // Each share shows in the party's Loot received summary.
    const summary = body<LootSummary>(await callApi(ctx, 'GET', `/parties/${w.party.id}/loot_summary`, w.gm));
    expect(summary.data.map((s) => [s.name, s.value_cp, s.items_count])).toEqual([
      ['Aria', 334, 0],
      ['Bram', 334, 0],
      ['Cole', 333, 0],
    ]);
  });

  it('deals the odd copper of a later split sale to whoever has received the least so far', async () => {
    const w = await world();
    const splitSale = () =>
      sell(w, w.gm, {
        item_instance_id: w.stashGem.id,
        quantity: 1,
        seller_container_id: w.stash.id,
        split_among: w.heroes.map((h) => h.id),
      });
    expect((await splitSale()).statusCode).toBe(200);
    expect(await Promise.all(w.bags.map(coinsIn))).toEqual([334, 334, 333]);
    // The same three, listed in the same order: Cole's turn for an odd copper, then Aria's (a tie with Bram).
    const second = await splitSale();
    expect(second.statusCode).toBe(200);
    expect(body<TradeResult>(second).message).toBe(
      'Sale complete: 10 gp 1 cp split among Aria (3 gp 3 sp 4 cp), Bram (3 gp 3 sp 3 cp) and Cole (3 gp 3 sp 4 cp).',
    );
    expect(await Promise.all(w.bags.map(coinsIn))).toEqual([668, 667, 667]);
  });

  it('sells only from the stash or the GM’s own characters, shared in the order chosen', async () => {
    const w = await world();
    // A player's gem is not the GM's to sell, split or not.
    const notTheirs = await sell(w, w.gm, {
      item_instance_id: w.heroGem.id,
      seller_character_id: w.heroes[0]?.id,
      seller_container_id: w.bags[0],
      split_among: [w.heroes[0]?.id],
    });
    expect(notTheirs.statusCode).toBe(422);
    expect(await quantityIn(w.bags[0] as string, w.gem.id)).toBe(1);
    // Naming no seller is the stash's way only: from a player's bag or the shop's own shelf it is a 422
    // that asks for a character (it was a 500), and nothing moves.
    for (const container of [w.bags[0], w.shop.container.id]) {
      const noSeller = await sell(w, w.gm, {
        item_instance_id: w.heroGem.id,
        seller_container_id: container,
        split_among: [w.heroes[0]?.id],
      });
      expect(noSeller.statusCode).toBe(422);
      expect(body(noSeller).error?.details).toEqual([
        { field: 'seller_character_id', message: 'Choose a character' },
      ]);
    }
    expect(await quantityIn(w.bags[0] as string, w.gem.id)).toBe(1);
    expect(await saleRows(w.party.id)).toEqual([]);

    const res = await sell(w, w.gm, {
      item_instance_id: w.stashGem.id,
      quantity: 1,
      seller_container_id: w.stash.id,
      split_among: [w.heroes[2]?.id, w.heroes[0]?.id],
    });
    expect(res.statusCode).toBe(200);
    // 1001 cp between two: the odd copper goes to the first chosen.
    expect(await Promise.all(w.bags.map(coinsIn))).toEqual([500, 0, 501]);

    // The GM's own character may sell and share too, itself among the recipients.
    const mine = await createCharacter(ctx, w.gm, {
      name: 'Dain',
      partyId: w.party.id,
      maxWeight: null,
      maxSlots: null,
    });
    const myBag = mine.primary_container_id as string;
    const [ring] = await ctx.app.services.inventory.createInstance(actorOf(w.gm), {
      item_template_id: w.gem.id,
      container_id: myBag,
      quantity: 1,
    });
    const own = await sell(w, w.gm, {
      item_instance_id: ring?.id,
      seller_character_id: mine.id,
      seller_container_id: myBag,
      split_among: [mine.id, w.heroes[1]?.id],
    });
    expect(own.statusCode).toBe(200);
    expect(await coinsIn(myBag)).toBe(501);
    expect(await Promise.all(w.bags.map(coinsIn))).toEqual([500, 500, 501]);
    const rows = await saleRows(w.party.id);
    expect(
      rows.find((r) => r.itemInstanceId !== null && r.itemName === 'Gem' && r.characterId === mine.id),
    ).toBeDefined();
  });

  it('refuses a split from anyone but the GM, and nothing changes', async () => {
    const w = await world();
    const player = w.players[0] as SignedInUser;
    const res = await sell(w, player, {
      item_instance_id: w.heroGem.id,
      seller_character_id: w.heroes[0]?.id,
      seller_container_id: w.bags[0],
      split_among: w.heroes.map((h) => h.id),
    });
    expect(res.statusCode).toBe(403);
    expect(body(res).error).toMatchObject({
      code: 'FORBIDDEN',
      message: 'Only the GM can split the proceeds of a sale.',
    });
    // A manager is not the GM either.
    const manager = await createMember(ctx, w.party, 'manager');
    await createCharacter(ctx, manager, { partyId: w.party.id });
    const byManager = await sell(w, manager, {
      item_instance_id: w.stashGem.id,
      seller_container_id: w.stash.id,
      split_among: w.heroes.map((h) => h.id),
    });
    expect(byManager.statusCode).toBe(403);
    expect(await quantityIn(w.bags[0] as string, w.gem.id)).toBe(1);
    expect(await quantityIn(w.stash.id, w.gem.id)).toBe(2);
    expect(await Promise.all(w.bags.map(coinsIn))).toEqual([0, 0, 0]);
    expect(await saleRows(w.party.id)).toHaveLength(0);
    // An outsider still hears that the shop does not exist.
    const outsider = await createUser(ctx);
    const hidden = await sell(w, outsider, {
      item_instance_id: w.stashGem.id,
      seller_container_id: w.stash.id,
      split_among: w.heroes.map((h) => h.id),
    });
    expect(hidden.statusCode).toBe(404);
  });

  it('refuses characters outside the party and bad lists, and nothing changes', async () => {
    const w = await world();
    const stranger = await createUser(ctx);
    const elsewhere = await createCharacter(ctx, stranger);
    const res = await sell(w, w.gm, {
      item_instance_id: w.stashGem.id,
      seller_container_id: w.stash.id,
      split_among: [w.heroes[0]?.id, elsewhere.id],
    });
    expect(res.statusCode).toBe(422);
    expect(body(res).error?.details).toEqual([
      { field: 'split_among', message: 'Choose characters of this party.' },
    ]);
    for (const [split, message] of [
      [[], 'Choose at least one character'],
      [[w.heroes[0]?.id, w.heroes[0]?.id], 'Choose each character once'],
      [Array.from({ length: 51 }, () => crypto.randomUUID()), 'Share among at most 50 characters'],
      [['not-an-id'], 'Choose characters of this party'],
    ] as const) {
      const bad = await sell(w, w.gm, {
        item_instance_id: w.stashGem.id,
        seller_container_id: w.stash.id,
        split_among: split,
      });
      expect(bad.statusCode, message).toBe(422);
      expect(body(bad).error?.details?.map((d) => d.message)).toContain(message);
    }
    expect(await quantityIn(w.stash.id, w.gem.id)).toBe(2);
    expect(await Promise.all(w.bags.map(coinsIn))).toEqual([0, 0, 0]);
    expect(await saleRows(w.party.id)).toHaveLength(0);
  });

  it('two split sales racing for the same stack sell it once, and pay for it once', async () => {
    const w = await world();
    const split = () =>
      sell(w, w.gm, {
        item_instance_id: w.stashGem.id,
        quantity: 2,
        seller_container_id: w.stash.id,
        split_among: w.heroes.map((h) => h.id),
      });
    const results = await Promise.all([split(), split()]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 404]);
    // 2002 cp once: 668/667/667.
    expect(await Promise.all(w.bags.map(coinsIn))).toEqual([668, 667, 667]);
    const rows = await saleRows(w.party.id);
    expect(rows.filter((r) => r.itemName === 'Gem')).toHaveLength(1);
    expect(rows.filter((r) => r.itemName !== 'Gem').reduce((sum, r) => sum + (r.amountCp ?? 0), 0)).toBe(
      2002,
    );
  });

  it('sells from the stash only when the GM splits the proceeds', async () => {
    const w = await world();
    // The GM has no character: a plain sale is refused as before.
    const plain = await sell(w, w.gm, {
      item_instance_id: w.stashGem.id,
      seller_character_id: w.heroes[0]?.id,
      seller_container_id: w.stash.id,
    });
    expect(plain.statusCode).toBe(403);
    // A player cannot sell the party's loot for themselves.
    const player = w.players[0] as SignedInUser;
    const taken = await sell(w, player, {
      item_instance_id: w.stashGem.id,
      seller_character_id: w.heroes[0]?.id,
      seller_container_id: w.stash.id,
    });
    expect(taken.statusCode).toBe(422);
    // Without split_among a character is required.
    const nobody = await sell(w, w.gm, { item_instance_id: w.stashGem.id, seller_container_id: w.stash.id });
    expect(nobody.statusCode).toBe(422);
    expect(body(nobody).error?.details?.map((d) => d.field)).toContain('sell.seller_character_id');
    expect(await quantityIn(w.stash.id, w.gem.id)).toBe(2);

    // A plain sale by a player still pays the seller alone.
    const own = await sell(w, player, {
      item_instance_id: w.heroGem.id,
      seller_character_id: w.heroes[0]?.id,
      seller_container_id: w.bags[0],
    });
    expect(own.statusCode).toBe(200);
    expect(body(own).message).toBe('Sale complete');
    expect(await Promise.all(w.bags.map(coinsIn))).toEqual([1001, 0, 0]);
    // A plain sale is not loot: the summary does not count it.
    const summary = body<LootSummary>(
      await callApi(ctx, 'GET', `/parties/${w.party.id}/loot_summary`, player),
    );
    expect(summary.data.every((s) => s.value_cp === 0)).toBe(true);
  });
});
