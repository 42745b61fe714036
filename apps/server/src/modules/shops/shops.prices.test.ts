import {
  type PriceQuote,
  partyMessages,
  type ShopInstance,
  type ShopRequest,
  type ShopRequestResult,
  type ShopTemplate,
  shopMessages,
  type TradeResult,
} from '@haversack/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { transactions } from '../../db/schema/inventory.js';
import { shopInstances } from '../../db/schema/shops.js';
import type { DomainEvent } from '../../realtime/events.js';
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

/**
 * The shop's own price for one line of its shelf (PUT shop_instances/{id}/prices/{itemTemplateId}): set and
 * cleared by its GM or a manager without stocking anything, what the line then sells and buys at (an
 * unpriced SRD item becomes tradeable), who may, and the races with other prices and with buyers.
 */
let ctx: TestContext;

beforeAll(async () => {
  ctx = await buildTestApp();
});
afterAll(async () => ctx.close());
const { coinsIn } = holdingsOf(() => ctx.database.db);

async function ledgerRowsOf(partyId: string) {
  return ctx.database.db.select().from(transactions).where(eq(transactions.partyId, partyId));
}

async function pricesOf(shopId: string) {
  const [row] = await ctx.database.db
    .select({ prices: shopInstances.prices, updatedAt: shopInstances.updatedAt })
    .from(shopInstances)
    .where(eq(shopInstances.id, shopId));
  return row?.prices;
}

/**
 * A GM on a paid plan with a party; a player whose hero holds a Bag of Holding (unpriced, as the SRD seeds
 * them) and 100 gp; a shop (10% off, paying 45%) selling Rope (1 gp, no own price) and a Bag of Holding.
 */
async function world() {
  for (const c of ['cp', 'sp', 'gp', 'pp'] as const) await coinTemplate(ctx, c);
  const gm = await createUser(ctx);
  await upgrade(ctx, gm, 'tier_3');
  const party = await createParty(ctx, gm, { encumbrance_style: 'none' });
  const player = await createMember(ctx, party, 'player');
  await upgrade(ctx, player, 'tier_3');
  const hero = await createCharacter(ctx, player, { partyId: party.id, maxWeight: null, maxSlots: null });
  const bagOf = hero.primary_container_id ?? '';
  const bag = await createTemplate(ctx, {
    name: 'Bag of Holding',
    baseValue: 0,
    stackSize: 1,
    metadata: { priced: false, rarity: 'uncommon' },
  });
  const rope = await createTemplate(ctx, { name: 'Rope', baseValue: 1, currency: 'gp', stackSize: 0 });
  const lantern = await createTemplate(ctx, { name: 'Lantern', baseValue: 5, currency: 'gp', stackSize: 0 });
  const template = body<ShopTemplate>(
    await callApi(ctx, 'POST', '/shop_templates', gm, { shop_template: { name: 'Curios' } }),
  ).data;
  for (const [item, quantity] of [
    [rope.id, 5],
    [bag.id, 2],
  ] as const) {
    await callApi(ctx, 'POST', `/shop_templates/${template.id}/add_item`, gm, {
      shop_item: { item_template_id: item, quantity },
    });
  }
  const deployed = body<ShopInstance>(
    await callApi(ctx, 'POST', '/shop_instances', gm, {
      shop_instance: { shop_template_id: template.id, party_id: party.id },
    }),
  ).data;
  const patched = await callApi(ctx, 'PATCH', `/shop_instances/${deployed.id}`, gm, {
    shop_instance: { discount_rate: 0.1, sell_modifier: 0.45 },
  });
  expect(patched.statusCode, patched.body).toBe(200);
  const shop = body<ShopInstance>(patched).data;
  const give = async (who: SignedInUser, templateId: string, containerId: string, quantity = 1) => {
    const [made] = await ctx.app.services.inventory.createInstance(actorOf(who), {
      item_template_id: templateId,
      container_id: containerId,
      quantity,
      instance_data: {},
    });
    if (!made) throw new Error('no item made');
    return made;
  };
  const heroBag = await give(player, bag.id, bagOf);
  await give(player, (await coinTemplate(ctx, 'gp')).id, bagOf, 100);
  /** `who` null: without a session. */
  const setPrice = (templateId: string, payload: unknown, who: SignedInUser | null = gm) =>
    callApi(ctx, 'PUT', `/shop_instances/${shop.id}/prices/${templateId}`, who ?? undefined, payload);
  return { gm, party, player, hero, bagOf, bag, rope, lantern, shop, template, heroBag, give, setPrice };
}
type World = Awaited<ReturnType<typeof world>>;

const lineOf = (shop: ShopInstance, templateId: string) =>
  shop.container.item_instances.find((s) => s.item_template_id === templateId);
const getShop = async (w: World, who: SignedInUser = w.player) =>
  body<ShopInstance>(await callApi(ctx, 'GET', `/shop_instances/${w.shop.id}`, who)).data;
const buy = (w: World, itemId: string, extra: Record<string, unknown> = {}) =>
  callApi(ctx, 'POST', `/shop_instances/${w.shop.id}/purchase`, w.player, {
    purchase: {
      item_instance_id: itemId,
      quantity: 1,
      buyer_character_id: w.hero.id,
      buyer_container_id: w.bagOf,
      ...extra,
    },
  });
const sell = (w: World, itemId: string) =>
  callApi(ctx, 'POST', `/shop_instances/${w.shop.id}/sell`, w.player, {
    sell: {
      item_instance_id: itemId,
      quantity: 1,
      seller_character_id: w.hero.id,
      seller_container_id: w.bagOf,
    },
  });

describe('setting a shelf line’s own price', () => {
  it('prices an unpriced line, which players can then buy and sell, and says so', async () => {
    const w = await world();
    const before = lineOf(w.shop, w.bag.id);
    expect(before).toMatchObject({ buy_price_cp: null, sell_price_cp: null, has_own_price: false });
    const ledgerBefore = (await ledgerRowsOf(w.party.id)).length;
    const publish = vi.spyOn(ctx.app.services.events, 'publish');

    const res = await w.setPrice(w.bag.id, { price: { price_cp: 1001 } });
    expect(res.statusCode, res.body).toBe(200);
    const answer = body<ShopInstance>(res);
    expect(answer).toMatchObject({ status: 'success', message: shopMessages.priceSaved });
    // The shop as GET answers it: 1001 cp less 10% is 900.9, to the nearest copper; 45% of it is 450.45,
    // rounded down.
    expect(answer.data).toEqual(await getShop(w, w.gm));
    expect(lineOf(answer.data, w.bag.id)).toMatchObject({
      buy_price_cp: 901,
      sell_price_cp: 450,
      has_own_price: true,
    });
    expect(answer.data.own_prices_cp).toEqual({ [w.bag.id]: 1001 });
    // The rope's line is as it was.
    expect(lineOf(answer.data, w.rope.id)).toMatchObject({ buy_price_cp: 90, has_own_price: false });

    // No item or coin moved: no ledger row, as for the shop's other settings.
    expect(await ledgerRowsOf(w.party.id)).toHaveLength(ledgerBefore);
    // Announced to the party as a change of the shop, so players see the new price.
    const events = publish.mock.calls.flatMap(([batch]) => batch as DomainEvent[]);
    publish.mockRestore();
    expect(events.filter((e) => e.partyId === w.party.id)).toEqual([
      expect.objectContaining({
        channel: 'PartyInventoryChannel',
        action: 'shop_updated',
        ids: { shop_instance_id: w.shop.id },
        summary: `${w.gm.user.username} priced Bag of Holding at 10 gp 1 cp in ${w.shop.name}`,
      }),
    ]);

    // The player sees it, and can buy and sell at it.
    expect(lineOf(await getShop(w), w.bag.id)).toMatchObject({ buy_price_cp: 901, sell_price_cp: 450 });
    const shelved = lineOf(answer.data, w.bag.id)?.id ?? '';
    const quote = await callApi(
      ctx,
      'GET',
      `/shop_instances/${w.shop.id}/calculate_buy_price/${shelved}?quantity=1`,
      w.player,
    );
    expect(body<PriceQuote>(quote).data).toMatchObject({ unit_price_cp: 901, has_own_price: true });
    const bought = await buy(w, shelved);
    expect(bought.statusCode, bought.body).toBe(200);
    expect(body<TradeResult>(bought).data).toMatchObject({ unit_price_cp: 901 });
    const sold = await sell(w, w.heroBag.id);
    expect(sold.statusCode, sold.body).toBe(200);
    expect(body<TradeResult>(sold).data).toMatchObject({ unit_price_cp: 450 });
    expect(await coinsIn(w.bagOf)).toBe(10_000 - 901 + 450);
  });

  it('prices a priced line over its value, and accepts the field bare and as digits', async () => {
    const w = await world();
    const res = await w.setPrice(w.rope.id, { price_cp: '250' });
    expect(res.statusCode, res.body).toBe(200);
    // 250 cp less 10%; the shop still pays 45% of the rope's 1 gp value for one.
    expect(lineOf(body<ShopInstance>(res).data, w.rope.id)).toMatchObject({
      buy_price_cp: 225,
      sell_price_cp: 45,
      has_own_price: true,
    });
    const free = await w.setPrice(w.rope.id, { price: { price_cp: 0 } });
    expect(free.statusCode, free.body).toBe(200);
    expect(lineOf(body<ShopInstance>(free).data, w.rope.id)).toMatchObject({ buy_price_cp: 0 });
  });

  it('clears it: the line goes by value again, and an unpriced one is neither sold nor bought', async () => {
    const w = await world();
    await w.setPrice(w.bag.id, { price: { price_cp: 2000 } });
    await w.setPrice(w.rope.id, { price: { price_cp: 250 } });
    const publish = vi.spyOn(ctx.app.services.events, 'publish');

    const res = await w.setPrice(w.bag.id, { price: { price_cp: null } });
    expect(res.statusCode, res.body).toBe(200);
    const answer = body<ShopInstance>(res);
    expect(answer.message).toBe(shopMessages.priceCleared);
    expect(lineOf(answer.data, w.bag.id)).toMatchObject({
      buy_price_cp: null,
      sell_price_cp: null,
      has_own_price: false,
    });
    expect(answer.data.own_prices_cp).toEqual({ [w.rope.id]: 250 });
    const events = publish.mock.calls.flatMap(([batch]) => batch as DomainEvent[]);
    publish.mockRestore();
    expect(events.filter((e) => e.partyId === w.party.id)).toEqual([
      expect.objectContaining({
        action: 'shop_updated',
        summary: `${w.gm.user.username} cleared ${w.shop.name}’s own price for Bag of Holding`,
      }),
    ]);

    const refused = await buy(w, lineOf(answer.data, w.bag.id)?.id ?? '');
    expect(refused.statusCode, refused.body).toBe(422);
    expect(body(refused).error?.message).toBe(shopMessages.unpricedNotForSale);
    const noOffer = await sell(w, w.heroBag.id);
    expect(noOffer.statusCode, noOffer.body).toBe(422);
    expect(body(noOffer).error?.message).toBe(shopMessages.unpricedNoOffer);

    // A priced line cleared goes by its value: 1 gp less 10%.
    const rope = await w.setPrice(w.rope.id, { price: { price_cp: null } });
    expect(lineOf(body<ShopInstance>(rope).data, w.rope.id)).toMatchObject({
      buy_price_cp: 90,
      has_own_price: false,
    });
    // Clearing what is not there is no error: the line has no own price, as asked.
    const again = await w.setPrice(w.rope.id, { price: { price_cp: null } });
    expect(again.statusCode, again.body).toBe(200);
    expect(body<ShopInstance>(again).data.own_prices_cp).toEqual({});
  });

  it('tells a player only the own prices of what is on the shelf or what they could sell; the GM all', async () => {
    const w = await world();
    const relic = await createTemplate(ctx, { name: 'Relic', baseValue: 3, currency: 'gp', stackSize: 1 });
    await w.give(w.player, relic.id, w.bagOf);
    // Prices the GM set on lines since taken back: the lantern nobody here holds, the relic the hero does.
    const prices = { [w.rope.id]: 250, [w.lantern.id]: 700, [relic.id]: 900 };
    await ctx.database.db.update(shopInstances).set({ prices }).where(eq(shopInstances.id, w.shop.id));
    expect((await getShop(w, w.player)).own_prices_cp).toEqual({ [w.rope.id]: 250, [relic.id]: 900 });
    const other = await createMember(ctx, w.party, 'player');
    expect((await getShop(w, other)).own_prices_cp).toEqual({ [w.rope.id]: 250 });
    expect((await getShop(w, w.gm)).own_prices_cp).toEqual(prices);
  });

  it('lets a manager price a line too', async () => {
    const w = await world();
    const manager = await createMember(ctx, w.party, 'manager');
    const res = await w.setPrice(w.bag.id, { price: { price_cp: 500 } }, manager);
    expect(res.statusCode, res.body).toBe(200);
    expect(await pricesOf(w.shop.id)).toEqual({ [w.bag.id]: 500 });
  });

  it('leaves a pending purchase request at the price it agreed to', async () => {
    const w = await world();
    await w.setPrice(w.bag.id, { price: { price_cp: 1000 } });
    await callApi(ctx, 'PATCH', `/shop_instances/${w.shop.id}`, w.gm, {
      shop_instance: { approval_threshold_cp: 0 },
    });
    const asked = await buy(w, lineOf(await getShop(w), w.bag.id)?.id ?? '');
    expect(asked.statusCode, asked.body).toBe(202);
    const request = body<TradeResult & { request: ShopRequest }>(asked).data.request;
    expect(request.unit_price_cp).toBe(900);
    expect((await w.setPrice(w.bag.id, { price: { price_cp: 3000 } })).statusCode).toBe(200);
    const approved = await callApi(ctx, 'POST', `/shop_requests/${request.id}/approve`, w.gm);
    expect(approved.statusCode, approved.body).toBe(200);
    expect(body<ShopRequestResult>(approved).data.trade).toMatchObject({ unit_price_cp: 900 });
    expect(await coinsIn(w.bagOf)).toBe(10_000 - 900);
  });
});

describe('refusing a price', () => {
  it('answers 401 without a session', async () => {
    const w = await world();
    const res = await w.setPrice(w.bag.id, { price: { price_cp: 100 } }, null);
    expect(res.statusCode).toBe(401);
    expect(await pricesOf(w.shop.id)).toEqual({});
  });

  it('answers 403 to a member who may see the shop but not manage it, and 404 to an outsider', async () => {
    const w = await world();
    const observer = await createMember(ctx, w.party, 'observer');
    for (const who of [w.player, observer]) {
      const res = await w.setPrice(w.bag.id, { price: { price_cp: 100 } }, who);
      expect(res.statusCode, res.body).toBe(403);
      expect(body(res).error).toMatchObject({ code: 'FORBIDDEN', message: shopMessages.cannotManage });
    }
    const outsider = await createUser(ctx);
    const hidden = await w.setPrice(w.bag.id, { price: { price_cp: 100 } }, outsider);
    expect(hidden.statusCode, hidden.body).toBe(404);
    expect(body(hidden).error?.message).toBe(shopMessages.instanceNotFound);
    const missing = await callApi(
      ctx,
      'PUT',
      `/shop_instances/00000000-0000-4000-8000-000000000000/prices/${w.bag.id}`,
      w.gm,
      { price: { price_cp: 100 } },
    );
    expect(missing.statusCode, missing.body).toBe(404);
    expect(await pricesOf(w.shop.id)).toEqual({});
  });

  it('answers 403 to a manager where only the GM manages shops', async () => {
    const w = await world();
    const manager = await createMember(ctx, w.party, 'manager');
    const gmOnly = await callApi(ctx, 'PATCH', `/parties/${w.party.id}`, w.gm, {
      party: { item_conjuring: 'gm_only' },
    });
    expect(gmOnly.statusCode, gmOnly.body).toBe(200);
    const res = await w.setPrice(w.bag.id, { price: { price_cp: 100 } }, manager);
    expect(res.statusCode, res.body).toBe(403);
    expect(body(res).error?.message).toBe(shopMessages.gmOnlyParty);
  });

  it('answers 422 for an item the shelf does not hold: nothing to price', async () => {
    const w = await world();
    // The lantern exists but was never stocked; the rope is sold out by taking it all back.
    const res = await w.setPrice(w.lantern.id, { price: { price_cp: 100 } });
    expect(res.statusCode, res.body).toBe(422);
    expect(body(res).error).toMatchObject({
      code: 'VALIDATION_ERROR',
      message: shopMessages.priceNotOnShelf,
      details: [{ field: 'item_template_id', message: shopMessages.priceNotOnShelf }],
    });
    const rope = lineOf(w.shop, w.rope.id);
    const [stash] = await ctx.app.services.inventory.listContainers(w.gm.user.id, { partyId: w.party.id });
    const taken = await callApi(ctx, 'POST', `/shop_instances/${w.shop.id}/unstock`, w.gm, {
      unstock: { item_id: rope?.id, target_container_id: stash?.id, quantity: 5 },
    });
    expect(taken.statusCode, taken.body).toBe(200);
    const gone = await w.setPrice(w.rope.id, { price: { price_cp: 100 } });
    expect(gone.statusCode, gone.body).toBe(422);
    const unknown = await w.setPrice('00000000-0000-4000-8000-000000000000', { price: { price_cp: 1 } });
    expect(unknown.statusCode, unknown.body).toBe(422);
    expect(await pricesOf(w.shop.id)).toEqual({});
  });

  it('answers 422 for a bad price or a malformed id, and 400 for a body that is not JSON', async () => {
    const w = await world();
    const cases: [unknown, string][] = [
      [{ price: { price_cp: -1 } }, 'Price cannot be negative'],
      [{ price: { price_cp: 2.5 } }, 'Price must be a whole number of copper pieces'],
      [{ price: { price_cp: 900_000_001 } }, 'A price can be at most 9,000,000 gp'],
      [{ price: { price_cp: '12gp' } }, 'Price must be a number of copper pieces'],
      [{ price: { price_cp: true } }, 'Price must be a number of copper pieces'],
      // Left out is not "clear": clearing is an explicit null.
      [{ price: {} }, 'Price must be a number of copper pieces'],
      [{}, 'Price must be a number of copper pieces'],
    ];
    for (const [payload, message] of cases) {
      const res = await w.setPrice(w.bag.id, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(422);
      expect(body(res).error?.code).toBe('VALIDATION_ERROR');
      expect(body(res).error?.details, JSON.stringify(payload)).toEqual([{ field: 'price_cp', message }]);
    }
    const badId = await w.setPrice('not-a-uuid', { price: { price_cp: 1 } });
    expect(badId.statusCode, badId.body).toBe(422);
    const notJson = await ctx.app.inject({
      method: 'PUT',
      url: `/api/v1/shop_instances/${w.shop.id}/prices/${w.bag.id}`,
      headers: { ...w.gm.auth, 'content-type': 'application/json' },
      payload: '{"price": {',
    });
    expect(notJson.statusCode, notJson.body).toBe(400);
    expect(body(notJson).error?.code).toBe('BAD_REQUEST');
    expect(await pricesOf(w.shop.id)).toEqual({});
  });

  it('is read-only in an archived party (403, the party’s message)', async () => {
    const w = await world();
    await w.setPrice(w.bag.id, { price: { price_cp: 700 } });
    expect((await callApi(ctx, 'POST', `/parties/${w.party.id}/archive`, w.gm)).statusCode).toBe(200);
    for (const price_cp of [100, null]) {
      const res = await w.setPrice(w.bag.id, { price: { price_cp } });
      expect(res.statusCode, res.body).toBe(403);
      expect(body(res).error).toMatchObject({ code: 'FORBIDDEN', message: partyMessages.archived });
    }
    expect(await pricesOf(w.shop.id)).toEqual({ [w.bag.id]: 700 });
  });
});

describe('racing prices', () => {
  it('two prices for one line at once: the shop ends at one of them, never a mixture', async () => {
    const w = await world();
    await w.setPrice(w.rope.id, { price: { price_cp: 111 } });
    for (let round = 0; round < 5; round++) {
      const [a, b] = await Promise.all([
        w.setPrice(w.bag.id, { price: { price_cp: 1000 + round } }),
        w.setPrice(w.bag.id, { price: { price_cp: 5000 + round } }),
      ]);
      expect(a.statusCode, a.body).toBe(200);
      expect(b.statusCode, b.body).toBe(200);
      const prices = await pricesOf(w.shop.id);
      expect([1000 + round, 5000 + round]).toContain(prices?.[w.bag.id]);
      // The other line's price survives both writes.
      expect(prices).toEqual({ [w.rope.id]: 111, [w.bag.id]: prices?.[w.bag.id] });
      // Each answer shows the shop as its own write left it, or as the other's left it after: one price.
      for (const r of [a, b]) {
        const answered = body<ShopInstance>(r).data.own_prices_cp?.[w.bag.id];
        expect([1000 + round, 5000 + round]).toContain(answered);
        const line = lineOf(body<ShopInstance>(r).data, w.bag.id);
        expect(line?.buy_price_cp).toBe(Math.round((answered ?? 0) * 0.9));
      }
    }
  });

  it('prices for two lines at once: both are kept', async () => {
    const w = await world();
    const [a, b] = await Promise.all([
      w.setPrice(w.bag.id, { price: { price_cp: 1500 } }),
      w.setPrice(w.rope.id, { price: { price_cp: 300 } }),
    ]);
    expect(a.statusCode, a.body).toBe(200);
    expect(b.statusCode, b.body).toBe(200);
    expect(await pricesOf(w.shop.id)).toEqual({ [w.bag.id]: 1500, [w.rope.id]: 300 });
  });

  it('a price racing a purchase: the buyer pays the old price or the new one, never another', async () => {
    for (let round = 0; round < 4; round++) {
      const w = await world();
      await w.setPrice(w.rope.id, { price: { price_cp: 200 } });
      const rope = lineOf(await getShop(w), w.rope.id)?.id ?? '';
      const [priced, bought] = await Promise.all([
        w.setPrice(w.rope.id, { price: { price_cp: 1000 } }),
        buy(w, rope),
      ]);
      expect(priced.statusCode, priced.body).toBe(200);
      expect(bought.statusCode, bought.body).toBe(200);
      // 200 cp or 1000 cp, less 10%.
      const paid = body<TradeResult>(bought).data.unit_price_cp;
      expect([180, 900]).toContain(paid);
      expect(await coinsIn(w.bagOf)).toBe(10_000 - paid);
      const [row] = (await ledgerRowsOf(w.party.id)).filter((r) => r.transactionType === 'purchase');
      expect(row?.details).toMatchObject({ unit_price_cp: paid });
    }
  });

  it('a buyer who agreed to the old price is refused once the new one is in, and pays nothing', async () => {
    const w = await world();
    await w.setPrice(w.rope.id, { price: { price_cp: 200 } });
    const rope = lineOf(await getShop(w), w.rope.id)?.id ?? '';
    const [priced, bought] = await Promise.all([
      w.setPrice(w.rope.id, { price: { price_cp: 1000 } }),
      buy(w, rope, { expected_unit_price_cp: 180 }),
    ]);
    expect(priced.statusCode, priced.body).toBe(200);
    if (bought.statusCode === 200) {
      expect(body<TradeResult>(bought).data.unit_price_cp).toBe(180);
      expect(await coinsIn(w.bagOf)).toBe(10_000 - 180);
    } else {
      expect(bought.statusCode, bought.body).toBe(409);
      expect(body(bought).error?.message).toBe(shopMessages.priceChanged(900));
      expect(await coinsIn(w.bagOf)).toBe(10_000);
    }
  });
});
