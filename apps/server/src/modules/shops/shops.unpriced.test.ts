import {
  type PriceQuote,
  type ShopInstance,
  type ShopRequest,
  type ShopRequestResult,
  type ShopStockItem,
  type ShopTemplate,
  shopMessages,
  type TradeResult,
} from '@haversack/contracts';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transactions } from '../../db/schema/inventory.js';
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
 * Selling an unpriced item (an SRD magic item: `metadata.priced` false, no `value_override`): the shop
 * offers its own price for it, or nothing, and then refuses the sale; and buying one off the shelf: it sells
 * at its own price there, or not at all (docs/decisions.md, "Unpriced SRD items").
 */
let ctx: TestContext;

beforeAll(async () => {
  ctx = await buildTestApp();
});
afterAll(async () => ctx.close());
const { coinsIn, quantityIn } = holdingsOf(() => ctx.database.db);

const refusal = [{ field: 'item_instance_id', message: shopMessages.unpricedNoOffer }];

async function saleRows(partyId: string, type: 'sale' | 'purchase' = 'sale') {
  return ctx.database.db
    .select()
    .from(transactions)
    .where(and(eq(transactions.partyId, partyId), eq(transactions.transactionType, type)));
}

/**
 * A GM with a character of their own, a player whose hero holds two Bags of Holding (unpriced, as the SRD
 * seeds them), a Rope (1 gp) and a Lantern (5 gp), and a shop paying 45% that sells Rope at its own 2.5 gp.
 */
async function world() {
  for (const c of ['cp', 'sp', 'gp', 'pp'] as const) await coinTemplate(ctx, c);
  const gm = await createUser(ctx);
  await upgrade(ctx, gm, 'tier_1');
  const party = await createParty(ctx, gm, { encumbrance_style: 'none' });
  const player = await createMember(ctx, party, 'player');
  const hero = await createCharacter(ctx, player, { partyId: party.id, maxWeight: null, maxSlots: null });
  const gmHero = await createCharacter(ctx, gm, { partyId: party.id, maxWeight: null, maxSlots: null });
  const [stash] = await ctx.app.services.inventory.listContainers(gm.user.id, { partyId: party.id });
  if (!hero.primary_container_id || !gmHero.primary_container_id || !stash) throw new Error('no bags');
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
  await callApi(ctx, 'POST', `/shop_templates/${template.id}/add_item`, gm, {
    shop_item: { item_template_id: rope.id, quantity: 5, price_cp: 250 },
  });
  const deployed = body<ShopInstance>(
    await callApi(ctx, 'POST', '/shop_instances', gm, {
      shop_instance: { shop_template_id: template.id, party_id: party.id },
    }),
  ).data;
  const shop = body<ShopInstance>(
    await callApi(ctx, 'PATCH', `/shop_instances/${deployed.id}`, gm, {
      shop_instance: { sell_modifier: 0.45 },
    }),
  ).data;
  const give = (who: SignedInUser, templateId: string, containerId: string, data = {}) =>
    ctx.app.services.inventory.createInstance(actorOf(who), {
      item_template_id: templateId,
      container_id: containerId,
      quantity: 1,
      instance_data: data,
    });
  const [heroBag] = await give(player, bag.id, hero.primary_container_id);
  const [heroRope] = await give(player, rope.id, hero.primary_container_id);
  const [heroLantern] = await give(player, lantern.id, hero.primary_container_id);
  const [stashBag] = await give(gm, bag.id, stash.id);
  if (!heroBag || !heroRope || !heroLantern || !stashBag) throw new Error('world setup failed');
  return {
    gm,
    gmHero,
    party,
    player,
    hero,
    bagOf: hero.primary_container_id,
    stash,
    bag,
    rope,
    lantern,
    shop,
    template,
    give,
    heroBag,
    heroRope,
    heroLantern,
    stashBag,
  };
}
type World = Awaited<ReturnType<typeof world>>;

const sell = (w: World, itemId: string, extra: Record<string, unknown> = {}, who = w.player) =>
  callApi(ctx, 'POST', `/shop_instances/${w.shop.id}/sell`, who, {
    sell: {
      item_instance_id: itemId,
      quantity: 1,
      seller_character_id: w.hero.id,
      seller_container_id: w.bagOf,
      ...extra,
    },
  });
/** The GM sells the stash's Bag of Holding, the proceeds shared with the hero. */
const splitSaleFromStash = (w: World) =>
  sell(
    w,
    w.stashBag.id,
    { seller_character_id: undefined, seller_container_id: w.stash.id, split_among: [w.hero.id] },
    w.gm,
  );
const preview = (w: World, itemId: string, quantity = 1) =>
  callApi(
    ctx,
    'GET',
    `/shop_instances/${w.shop.id}/calculate_sell_price/${itemId}?quantity=${quantity}`,
    w.player,
  );

/**
 * The GM puts a Bag of Holding of their own on the shelf at `priceCp`: the shop's own price for bags (null
 * clears it; left out, it stays as it was).
 */
async function priceBags(w: World, priceCp?: number | null, data = {}) {
  const gmBags = w.gmHero.primary_container_id ?? '';
  const [own] = await w.give(w.gm, w.bag.id, gmBags, data);
  const stocked = await callApi(ctx, 'POST', `/shop_instances/${w.shop.id}/stock`, w.gm, {
    item_id: own?.id,
    source_container_id: gmBags,
    quantity: 1,
    ...(priceCp === undefined ? {} : { price: priceCp }),
  });
  expect(stocked.statusCode, stocked.body).toBe(200);
  return body<ShopInstance>(stocked).data;
}

describe('selling an unpriced item', () => {
  it('refuses it where the shop has no price of its own, and nothing changes', async () => {
    const w = await world();
    const before = await coinsIn(w.bagOf);
    const res = await sell(w, w.heroBag.id);
    expect(res.statusCode, res.body).toBe(422);
    expect(body(res).error).toMatchObject({
      code: 'VALIDATION_ERROR',
      message: shopMessages.unpricedNoOffer,
    });
    expect(body(res).error?.details).toEqual(refusal);
    // The bag stays with the hero, no coins came, the shop has none, and the ledger has no sale.
    expect(await quantityIn(w.bagOf, w.bag.id)).toBe(1);
    expect(await coinsIn(w.bagOf)).toBe(before);
    expect(await quantityIn(w.shop.container.id, w.bag.id)).toBe(0);
    expect(await saleRows(w.party.id)).toEqual([]);
  });

  it('refuses the preview alike, and the shop says it has no own price for it', async () => {
    const w = await world();
    const quoted = await preview(w, w.heroBag.id);
    expect(quoted.statusCode, quoted.body).toBe(422);
    expect(body(quoted).error?.details).toEqual(refusal);
    expect(w.shop.own_prices_cp).toEqual({ [w.rope.id]: 250 });
  });

  it('refuses the GM’s split sale of an unpriced item from the stash', async () => {
    const w = await world();
    const res = await splitSaleFromStash(w);
    expect(res.statusCode, res.body).toBe(422);
    expect(body(res).error?.details).toEqual(refusal);
    expect(await quantityIn(w.stash.id, w.bag.id)).toBe(1);
    expect(await coinsIn(w.bagOf)).toBe(0);
    expect(await saleRows(w.party.id)).toEqual([]);
  });

  it('pays the shop’s own price times its sell modifier, rounded down, and the preview agrees', async () => {
    const w = await world();
    const stocked = await priceBags(w, 1001);
    // 1001 cp × 0.45 = 450.45 cp: a sale rounds down to the copper, as for a priced item's value.
    const shelved = stocked.container.item_instances.find((s) => s.item_template_id === w.bag.id);
    expect(shelved).toMatchObject({ has_own_price: true, sell_price_cp: 450 });
    expect(stocked.own_prices_cp).toEqual({ [w.rope.id]: 250, [w.bag.id]: 1001 });
    const quoted = await preview(w, w.heroBag.id);
    expect(quoted.statusCode, quoted.body).toBe(200);
    expect(body<PriceQuote>(quoted).data).toMatchObject({
      unit_price_cp: 450,
      total_price_cp: 450,
      has_own_price: true,
      modifier: 0.45,
    });
    const res = await sell(w, w.heroBag.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(body<TradeResult>(res).data).toMatchObject({ unit_price_cp: 450, total_price_cp: 450 });
    expect(await coinsIn(w.bagOf)).toBe(450);
    expect(await quantityIn(w.bagOf, w.bag.id)).toBe(0);
    expect(await quantityIn(w.shop.container.id, w.bag.id)).toBe(2);
  });

  it('shares the own-price offer in the GM’s split sale', async () => {
    const w = await world();
    await priceBags(w, 2000);
    const res = await splitSaleFromStash(w);
    expect(res.statusCode, res.body).toBe(200);
    expect(await coinsIn(w.bagOf)).toBe(900);
  });
});

describe('selling priced items', () => {
  it('pays by value as before: an own shop price sets only what the shop sells at', async () => {
    const w = await world();
    await priceBags(w, 2000);
    // Rope sells here at its own 2.5 gp, but the shop pays 45% of its 1 gp value.
    const rope = await preview(w, w.heroRope.id);
    expect(body<PriceQuote>(rope).data).toMatchObject({ unit_price_cp: 45, has_own_price: false });
    const lantern = await preview(w, w.heroLantern.id);
    expect(body<PriceQuote>(lantern).data).toMatchObject({ unit_price_cp: 225, has_own_price: false });
    expect((await sell(w, w.heroRope.id)).statusCode).toBe(200);
    expect((await sell(w, w.heroLantern.id)).statusCode).toBe(200);
    expect(await coinsIn(w.bagOf)).toBe(45 + 225);
  });

  it('pays a value override on an unpriced item by that value, not the shop’s own price', async () => {
    const w = await world();
    await priceBags(w, 2000);
    const [valued] = await w.give(w.player, w.bag.id, w.bagOf, {
      value_override: 40,
      currency_override: 'gp',
    });
    const quoted = await preview(w, valued?.id ?? '');
    expect(body<PriceQuote>(quoted).data).toMatchObject({ unit_price_cp: 1800, has_own_price: false });
    const res = await sell(w, valued?.id ?? '');
    expect(body<TradeResult>(res).data).toMatchObject({ unit_price_cp: 1800 });
  });
});

/** The world's shop template with the bag at a price of its own (1001 cp) and an unpriced orb at none. */
async function waresWithUnpriced(w: World) {
  const orb = await createTemplate(ctx, { name: 'Orb', baseValue: 0, metadata: { priced: false } });
  for (const [item, price] of [
    [w.bag.id, 1001],
    [orb.id, null],
  ] as const) {
    await callApi(ctx, 'POST', `/shop_templates/${w.template.id}/add_item`, w.gm, {
      shop_item: { item_template_id: item, quantity: 1, price_cp: price },
    });
  }
  const template = body<ShopTemplate>(
    await callApi(ctx, 'GET', `/shop_templates/${w.template.id}`, w.gm),
  ).data;
  const ware = (id: string) => template.shop_items?.find((i) => i.item_template_id === id);
  return { orb, ware };
}

describe('a shop template’s wares', () => {
  it('says what the shop pays for an unpriced ware: its price there times the modifier, or nothing', async () => {
    const w = await world();
    const { orb, ware } = await waresWithUnpriced(w);
    const sellFor = (id: string) => ware(id)?.sell_price_cp;
    // A new template pays half: 1001 cp × 0.5, rounded down.
    expect(sellFor(w.bag.id)).toBe(500);
    expect(sellFor(orb.id)).toBeNull();
    expect(sellFor(w.rope.id)).toBe(50);
  });
});

const buy = (w: World, itemId: string) =>
  callApi(ctx, 'POST', `/shop_instances/${w.shop.id}/purchase`, w.player, {
    purchase: {
      item_instance_id: itemId,
      quantity: 1,
      buyer_character_id: w.hero.id,
      buyer_container_id: w.bagOf,
    },
  });
const buyPreview = (w: World, itemId: string) =>
  callApi(ctx, 'GET', `/shop_instances/${w.shop.id}/calculate_buy_price/${itemId}?quantity=1`, w.player);
const shelfLine = (shop: ShopInstance, templateId: string, data: Record<string, unknown> = {}) =>
  shop.container.item_instances.find(
    (s) =>
      s.item_template_id === templateId &&
      Object.entries(data).every(([key, value]) => s.instance_data[key] === value),
  );
const notForSale = [{ field: 'item_instance_id', message: shopMessages.unpricedNotForSale }];

/** 100 gp in the hero's bag, to buy with. */
async function fund(w: World) {
  const gp = await coinTemplate(ctx, 'gp');
  await ctx.app.services.inventory.createInstance(actorOf(w.player), {
    item_template_id: gp.id,
    container_id: w.bagOf,
    quantity: 100,
    instance_data: {},
  });
}

async function setThreshold(w: World, cp: number | null) {
  const res = await callApi(ctx, 'PATCH', `/shop_instances/${w.shop.id}`, w.gm, {
    shop_instance: { approval_threshold_cp: cp },
  });
  expect(res.statusCode, res.body).toBe(200);
}

describe('buying an unpriced item off the shelf', () => {
  it('lists it without a price where the shop has none of its own', async () => {
    const w = await world();
    const shop = await priceBags(w);
    expect(shelfLine(shop, w.bag.id)).toMatchObject({
      buy_price_cp: null,
      sell_price_cp: null,
      has_own_price: false,
    });
    const stock = body<ShopStockItem[]>(
      await callApi(ctx, 'GET', `/shop_instances/${w.shop.id}/stock`, w.player),
    ).data;
    expect(stock.find((s) => s.item_template_id === w.bag.id)?.buy_price_cp).toBeNull();
    // Rope keeps its own 2.5 gp.
    expect(stock.find((s) => s.item_template_id === w.rope.id)?.buy_price_cp).toBe(250);
  });

  it('refuses the purchase and its preview, and nothing changes', async () => {
    const w = await world();
    await fund(w);
    const shelved = shelfLine(await priceBags(w), w.bag.id);
    const before = await coinsIn(w.bagOf);
    const res = await buy(w, shelved?.id ?? '');
    expect(res.statusCode, res.body).toBe(422);
    expect(body(res).error).toMatchObject({
      code: 'VALIDATION_ERROR',
      message: shopMessages.unpricedNotForSale,
    });
    expect(body(res).error?.details).toEqual(notForSale);
    // The bag stays on the shelf, the hero has only the bag they had, their coins are all there, and the
    // ledger has no purchase.
    expect(await quantityIn(w.shop.container.id, w.bag.id)).toBe(1);
    expect(await quantityIn(w.bagOf, w.bag.id)).toBe(1);
    expect(await coinsIn(w.bagOf)).toBe(before);
    expect(await saleRows(w.party.id, 'purchase')).toEqual([]);
    const quoted = await buyPreview(w, shelved?.id ?? '');
    expect(quoted.statusCode, quoted.body).toBe(422);
    expect(body(quoted).error?.details).toEqual(notForSale);
  });

  it('refuses a purchase request for it alike: nothing is held for the GM to approve', async () => {
    const w = await world();
    await fund(w);
    await setThreshold(w, 0);
    const shelved = shelfLine(await priceBags(w), w.bag.id);
    const res = await buy(w, shelved?.id ?? '');
    expect(res.statusCode, res.body).toBe(422);
    expect(body(res).error?.details).toEqual(notForSale);
    const requests = await callApi(ctx, 'GET', `/shop_instances/${w.shop.id}/requests?status=all`, w.gm);
    expect(body<ShopRequest[]>(requests).data).toEqual([]);
    expect(await quantityIn(w.shop.container.id, w.bag.id)).toBe(1);
  });

  it('sells it at the shop’s own price, less its discount, as a priced item with one', async () => {
    const w = await world();
    await fund(w);
    await callApi(ctx, 'PATCH', `/shop_instances/${w.shop.id}`, w.gm, {
      shop_instance: { discount_rate: 0.1 },
    });
    const shelved = shelfLine(await priceBags(w, 1001), w.bag.id);
    // 1001 cp less 10%: 900.9 cp, to the nearest copper.
    expect(shelved).toMatchObject({ buy_price_cp: 901, has_own_price: true });
    const quoted = await buyPreview(w, shelved?.id ?? '');
    expect(body<PriceQuote>(quoted).data).toMatchObject({ unit_price_cp: 901, has_own_price: true });
    const res = await buy(w, shelved?.id ?? '');
    expect(res.statusCode, res.body).toBe(200);
    expect(body<TradeResult>(res).data).toMatchObject({ unit_price_cp: 901, total_price_cp: 901 });
    expect(await coinsIn(w.bagOf)).toBe(10_000 - 901);
    expect(await quantityIn(w.bagOf, w.bag.id)).toBe(2);
  });

  it('refuses the GM’s approval of a request once the item lost its price, until it has one again', async () => {
    const w = await world();
    await fund(w);
    await setThreshold(w, 0);
    const shelved = shelfLine(await priceBags(w, 1000), w.bag.id);
    const asked = await buy(w, shelved?.id ?? '');
    expect(asked.statusCode, asked.body).toBe(202);
    const request = body<TradeResult & { request: ShopRequest }>(asked).data.request;
    // The GM stocks another bag and clears the shop's price for bags.
    expect(shelfLine(await priceBags(w, null), w.bag.id)?.buy_price_cp).toBeNull();
    const approve = () => callApi(ctx, 'POST', `/shop_requests/${request.id}/approve`, w.gm);
    const refused = await approve();
    expect(refused.statusCode, refused.body).toBe(409);
    expect(body(refused).error).toMatchObject({ code: 'CONFLICT', message: shopMessages.requestUnpriced });
    // Still pending, the bag still held, no coin moved, no purchase in the ledger.
    const [pending] = body<ShopRequest[]>(
      await callApi(ctx, 'GET', `/shop_instances/${w.shop.id}/requests?status=all`, w.gm),
    ).data;
    expect(pending).toMatchObject({ id: request.id, status: 'pending' });
    expect(await quantityIn(request.hold_container_id ?? '', w.bag.id)).toBe(1);
    expect(await quantityIn(w.bagOf, w.bag.id)).toBe(1);
    expect(await coinsIn(w.bagOf)).toBe(10_000);
    expect(await saleRows(w.party.id, 'purchase')).toEqual([]);
    // Priced again (at another price), it goes through at the price the buyer agreed to.
    await priceBags(w, 3000);
    const approved = await approve();
    expect(approved.statusCode, approved.body).toBe(200);
    expect(body<ShopRequestResult>(approved).data.trade).toMatchObject({ unit_price_cp: 1000 });
    expect(await coinsIn(w.bagOf)).toBe(9_000);
  });
});

describe('buying priced items', () => {
  it('goes by value or own price as before, and a value override prices an unpriced item', async () => {
    const w = await world();
    await fund(w);
    const gmBags = w.gmHero.primary_container_id ?? '';
    const [lantern] = await w.give(w.gm, w.lantern.id, gmBags);
    await callApi(ctx, 'POST', `/shop_instances/${w.shop.id}/stock`, w.gm, {
      item_id: lantern?.id,
      source_container_id: gmBags,
    });
    const shop = await priceBags(w, undefined, { value_override: 40, currency_override: 'gp' });
    expect(shelfLine(shop, w.rope.id)).toMatchObject({ buy_price_cp: 250, has_own_price: true });
    expect(shelfLine(shop, w.lantern.id)).toMatchObject({ buy_price_cp: 500, has_own_price: false });
    const valued = shelfLine(shop, w.bag.id, { value_override: 40 });
    expect(valued).toMatchObject({ buy_price_cp: 4000, has_own_price: false });
    for (const [id, cp] of [
      [shelfLine(shop, w.rope.id)?.id, 250],
      [shelfLine(shop, w.lantern.id)?.id, 500],
      [valued?.id, 4000],
    ] as const) {
      const res = await buy(w, id ?? '');
      expect(res.statusCode, res.body).toBe(200);
      expect(body<TradeResult>(res).data).toMatchObject({ unit_price_cp: cp });
    }
    expect(await coinsIn(w.bagOf)).toBe(10_000 - 250 - 500 - 4000);
  });
});

describe('a shop template’s wares for sale', () => {
  it('says an unpriced ware without a price there sells for nothing yet: no price, not 0 cp', async () => {
    const w = await world();
    const { orb, ware } = await waresWithUnpriced(w);
    const buyFor = (id: string) => ware(id)?.buy_price_cp;
    expect(buyFor(w.bag.id)).toBe(1001);
    expect(buyFor(orb.id)).toBeNull();
    expect(buyFor(w.rope.id)).toBe(250);
  });
});
