import {
  type PriceQuote,
  type ShopInstance,
  type ShopTemplate,
  shopMessages,
  shopSaleMessages,
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
 * A sale is rounded down once for the whole line (value × quantity × sell modifier), not per piece; a sale
 * that would pay 0 cp is refused, as is a quote for coins (docs/decisions.md, "Sales round down once per
 * line").
 */
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
 * A GM and a player whose hero holds 20 Arrows (5 cp), 5 Candles (1 cp) and 9 gp; the stash holds 6
 * Arrows; a shop paying `sellModifier`.
 */
async function world(sellModifier: number) {
  for (const c of ['cp', 'sp', 'gp', 'pp'] as const) await coinTemplate(ctx, c);
  const gm = await createUser(ctx);
  await upgrade(ctx, gm, 'tier_1');
  const party = await createParty(ctx, gm, { encumbrance_style: 'none' });
  const player = await createMember(ctx, party, 'player');
  const player2 = await createMember(ctx, party, 'player');
  const hero = await createCharacter(ctx, player, { partyId: party.id, maxWeight: null, maxSlots: null });
  const hero2 = await createCharacter(ctx, player2, { partyId: party.id, maxWeight: null, maxSlots: null });
  const [stash] = await ctx.app.services.inventory.listContainers(gm.user.id, { partyId: party.id });
  if (!hero.primary_container_id || !hero2.primary_container_id || !stash) throw new Error('no bags');
  const arrow = await createTemplate(ctx, { name: 'Arrow', baseValue: 5, currency: 'cp', stackSize: 0 });
  const candle = await createTemplate(ctx, { name: 'Candle', baseValue: 1, currency: 'cp', stackSize: 0 });
  const gold = await coinTemplate(ctx, 'gp');
  const template = body<ShopTemplate>(
    await callApi(ctx, 'POST', '/shop_templates', gm, { shop_template: { name: 'General Store' } }),
  ).data;
  const deployed = body<ShopInstance>(
    await callApi(ctx, 'POST', '/shop_instances', gm, {
      shop_instance: { shop_template_id: template.id, party_id: party.id },
    }),
  ).data;
  const patched = await callApi(ctx, 'PATCH', `/shop_instances/${deployed.id}`, gm, {
    shop_instance: { sell_modifier: sellModifier },
  });
  expect(patched.statusCode, patched.body).toBe(200);
  const shop = body<ShopInstance>(patched).data;
  const give = async (who: SignedInUser, templateId: string, containerId: string, quantity: number) => {
    const [made] = await ctx.app.services.inventory.createInstance(actorOf(who), {
      item_template_id: templateId,
      container_id: containerId,
      quantity,
    });
    if (!made) throw new Error('nothing made');
    return made;
  };
  const bag = hero.primary_container_id;
  const arrows = await give(player, arrow.id, bag, 20);
  const candles = await give(player, candle.id, bag, 5);
  const coins = await give(player, gold.id, bag, 9);
  const stashArrows = await give(gm, arrow.id, stash.id, 6);
  return {
    gm,
    party,
    player,
    hero,
    hero2,
    bag,
    stash,
    arrow,
    candle,
    shop,
    arrows,
    candles,
    coins,
    stashArrows,
  };
}
type World = Awaited<ReturnType<typeof world>>;

const sell = (w: World, itemId: string, quantity: number) =>
  callApi(ctx, 'POST', `/shop_instances/${w.shop.id}/sell`, w.player, {
    sell: { item_instance_id: itemId, quantity, seller_character_id: w.hero.id, seller_container_id: w.bag },
  });
const preview = (w: World, itemId: string, quantity: number) =>
  callApi(
    ctx,
    'GET',
    `/shop_instances/${w.shop.id}/calculate_sell_price/${itemId}?quantity=${quantity}`,
    w.player,
  );

describe('a sale rounds down once for the line', () => {
  it('pays 50 cp for 20 arrows at 5 cp at half price (not 40), and the preview says so', async () => {
    const w = await world(0.5);
    const before = await coinsIn(w.bag);
    const quoted = await preview(w, w.arrows.id, 20);
    expect(quoted.statusCode, quoted.body).toBe(200);
    // The price each stays what one arrow alone fetches; the total is the line's.
    expect(body<PriceQuote>(quoted).data).toMatchObject({
      unit_price_cp: 2,
      total_price_cp: 50,
      formatted: '5 sp',
    });
    const res = await sell(w, w.arrows.id, 20);
    expect(res.statusCode, res.body).toBe(200);
    expect(body<TradeResult>(res).data).toMatchObject({ unit_price_cp: 2, total_price_cp: 50 });
    expect(await coinsIn(w.bag)).toBe(before + 50);
    const rows = await saleRows(w.party.id);
    const goods = rows.find((r) => r.itemTemplateId === w.arrow.id);
    expect(goods).toMatchObject({ quantity: 20, amountCp: 50 });
    // The coins' rows add up to what the goods' row says was paid.
    expect(rows.filter((r) => r !== goods).reduce((sum, r) => sum + Number(r.amountCp), 0)).toBe(50);
  });

  it('pays 33 cp for 20 arrows at 0.33 (not 20)', async () => {
    const w = await world(0.33);
    const before = await coinsIn(w.bag);
    const quoted = await preview(w, w.arrows.id, 20);
    expect(body<PriceQuote>(quoted).data).toMatchObject({ unit_price_cp: 1, total_price_cp: 33 });
    const res = await sell(w, w.arrows.id, 20);
    expect(res.statusCode, res.body).toBe(200);
    expect(body<TradeResult>(res).data.total_price_cp).toBe(33);
    expect(await coinsIn(w.bag)).toBe(before + 33);
  });

  it('shares the line total of a split sale: 6 arrows at half pay 15 cp, 8 and 7', async () => {
    const w = await world(0.5);
    const res = await callApi(ctx, 'POST', `/shop_instances/${w.shop.id}/sell`, w.gm, {
      sell: {
        item_instance_id: w.stashArrows.id,
        quantity: 6,
        seller_container_id: w.stash.id,
        split_among: [w.hero.id, w.hero2.id],
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(body<TradeResult>(res).data.total_price_cp).toBe(15);
    expect(await coinsIn(w.bag)).toBe(900 + 8);
    expect(await coinsIn(w.hero2.primary_container_id ?? '')).toBe(7);
  });
});

describe('a sale worth nothing', () => {
  const refusal = [{ field: 'item_instance_id', message: shopSaleMessages.worthlessNoOffer }];

  it('refuses one candle at half price (0 cp), and its preview alike; nothing changes', async () => {
    const w = await world(0.5);
    const before = await coinsIn(w.bag);
    const quoted = await preview(w, w.candles.id, 1);
    expect(quoted.statusCode, quoted.body).toBe(422);
    expect(body(quoted).error?.details).toEqual(refusal);
    const res = await sell(w, w.candles.id, 1);
    expect(res.statusCode, res.body).toBe(422);
    expect(body(res).error).toMatchObject({
      code: 'VALIDATION_ERROR',
      message: shopSaleMessages.worthlessNoOffer,
    });
    expect(body(res).error?.details).toEqual(refusal);
    expect(await quantityIn(w.bag, w.candle.id)).toBe(5);
    expect(await coinsIn(w.bag)).toBe(before);
    expect(await quantityIn(w.shop.container.id, w.candle.id)).toBe(0);
    expect(await saleRows(w.party.id)).toEqual([]);
  });

  it('sells 5 candles at half price for 2 cp', async () => {
    const w = await world(0.5);
    const before = await coinsIn(w.bag);
    const quoted = await preview(w, w.candles.id, 5);
    expect(body<PriceQuote>(quoted).data).toMatchObject({ unit_price_cp: 0, total_price_cp: 2 });
    const res = await sell(w, w.candles.id, 5);
    expect(res.statusCode, res.body).toBe(200);
    expect(await coinsIn(w.bag)).toBe(before + 2);
  });

  it('refuses at a shop that pays nothing (sell modifier 0)', async () => {
    const w = await world(0);
    const res = await sell(w, w.arrows.id, 20);
    expect(res.statusCode, res.body).toBe(422);
    expect(body(res).error?.details).toEqual(refusal);
    expect(await quantityIn(w.bag, w.arrow.id)).toBe(20);
  });
});

describe('a quote for coins', () => {
  it('is refused as their sale is', async () => {
    const w = await world(0.5);
    const refusal = [{ field: 'item_instance_id', message: shopMessages.currencyNotSold }];
    const res = await sell(w, w.coins.id, 9);
    expect(res.statusCode, res.body).toBe(422);
    expect(body(res).error?.details).toEqual(refusal);
    const quoted = await preview(w, w.coins.id, 9);
    expect(quoted.statusCode, quoted.body).toBe(422);
    expect(body(quoted).error).toMatchObject({ code: 'VALIDATION_ERROR' });
    expect(body(quoted).error?.details).toEqual(refusal);
  });
});
