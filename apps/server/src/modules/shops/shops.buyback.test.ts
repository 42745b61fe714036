import {
  type ItemInstance,
  itemSellOfferCp,
  type PriceQuote,
  type ShopInstance,
  type ShopTemplate,
  shopSaleMessages,
  type TradeResult,
} from '@haversack/contracts';
import { and, desc, eq } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transactions } from '../../db/schema/inventory.js';
import {
  coinTemplate,
  createCharacter,
  createMember,
  createParty,
  createTemplate,
  createUser,
  upgrade,
} from '../../test/factories.js';
import { buildTestApp, callApi, type TestContext } from '../../test/helper.js';
import { actorOf, body, holdingsOf } from '../../test/holdings.js';

/**
 * Buying back: a shop never pays a player more for an item than it asks for the same item, so buying one and
 * selling it straight back never makes coins, whatever its modifiers, discount and own prices (an own price
 * below the item's value, a sell modifier above the buy modifier). The preview, the sale, its ledger row and
 * the figure the web app's sell list works out from the shop and the item all agree.
 */
let ctx: TestContext;
/** One shop for every case: each sets the modifiers, discount and own price it is about. */
let w: World;
beforeAll(async () => {
  ctx = await buildTestApp();
  w = await world();
}, 120_000);
afterAll(async () => ctx.close());
const { coinsIn } = holdingsOf(() => ctx.database.db);

/**
 * A player whose hero carries 2,000 pp, and a shop selling lanterns (5 gp), arrows (1 sp, in twenties) and
 * a Bag of Holding (unpriced, as the SRD seeds it), plenty of each.
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
  const lantern = await createTemplate(ctx, { name: 'Lantern', baseValue: 5, currency: 'gp', stackSize: 0 });
  const arrow = await createTemplate(ctx, { name: 'Arrow', baseValue: 1, currency: 'sp', stackSize: 20 });
  const bag = await createTemplate(ctx, {
    name: 'Bag of Holding',
    baseValue: 0,
    stackSize: 1,
    metadata: { priced: false, rarity: 'uncommon' },
  });
  const template = body<ShopTemplate>(
    await callApi(ctx, 'POST', '/shop_templates', gm, { shop_template: { name: 'Pawnbroker' } }),
  ).data;
  for (const item of [lantern, arrow, bag]) {
    const added = await callApi(ctx, 'POST', `/shop_templates/${template.id}/add_item`, gm, {
      shop_item: { item_template_id: item.id, quantity: 1_000 },
    });
    expect(added.statusCode, added.body).toBe(201);
  }
  const shop = body<ShopInstance>(
    await callApi(ctx, 'POST', '/shop_instances', gm, {
      shop_instance: { shop_template_id: template.id, party_id: party.id },
    }),
  ).data;
  const [coins] = await ctx.app.services.inventory.createInstance(actorOf(player), {
    item_template_id: (await coinTemplate(ctx, 'pp')).id,
    container_id: bagOf,
    quantity: 2_000,
    instance_data: {},
  });
  if (!coins) throw new Error('no coins made');

  /** The GM sets the shop's modifiers and discount, and its own price for one item (null clears it). */
  const settle = async (
    settings: { buy_modifier: number; sell_modifier: number; discount_rate: number },
    templateId: string,
    priceCp: number | null,
  ) => {
    const patched = await callApi(ctx, 'PATCH', `/shop_instances/${shop.id}`, gm, {
      shop_instance: settings,
    });
    expect(patched.statusCode, patched.body).toBe(200);
    const priced = await callApi(ctx, 'PUT', `/shop_instances/${shop.id}/prices/${templateId}`, gm, {
      price: { price_cp: priceCp },
    });
    expect(priced.statusCode, priced.body).toBe(200);
  };
  /** The shop as the player sees it, and the stack of its shelf holding `templateId`. */
  const shelf = async (templateId: string) => {
    const seen = body<ShopInstance>(await callApi(ctx, 'GET', `/shop_instances/${shop.id}`, player)).data;
    const line = seen.container.item_instances.find((s) => s.item_template_id === templateId);
    if (!line) throw new Error('the shop stocks it');
    return { seen, line };
  };
  const buy = (itemId: string, quantity: number) =>
    callApi(ctx, 'POST', `/shop_instances/${shop.id}/purchase`, player, {
      purchase: {
        item_instance_id: itemId,
        quantity,
        buyer_character_id: hero.id,
        buyer_container_id: bagOf,
      },
    });
  const quoteSale = (itemId: string, quantity: number) =>
    callApi(
      ctx,
      'GET',
      `/shop_instances/${shop.id}/calculate_sell_price/${itemId}?quantity=${quantity}`,
      player,
    );
  const sell = (itemId: string, quantity: number) =>
    callApi(ctx, 'POST', `/shop_instances/${shop.id}/sell`, player, {
      sell: { item_instance_id: itemId, quantity, seller_character_id: hero.id, seller_container_id: bagOf },
    });
  /** The player's stack of a template, as the sell list reads it (GET containers/{id}/items). */
  const held = async (templateId: string) => {
    const items = body<ItemInstance[]>(
      await callApi(ctx, 'GET', `/containers/${bagOf}/items?per_page=100`, player),
    ).data;
    return items.find((item) => item.item_template_id === templateId);
  };
  /** The ledger's last sale of a template in the party (its coin rows aside). */
  const lastSale = async (templateId: string) => {
    const [row] = await ctx.database.db
      .select()
      .from(transactions)
      .where(
        and(
          eq(transactions.partyId, party.id),
          eq(transactions.transactionType, 'sale'),
          eq(transactions.itemTemplateId, templateId),
        ),
      )
      .orderBy(desc(transactions.writeOrder))
      .limit(1);
    return row;
  };
  return { bagOf, lantern, arrow, bag, settle, shelf, buy, quoteSale, sell, held, lastSale };
}
type World = Awaited<ReturnType<typeof world>>;

/**
 * Buys `quantity` of a template's shelf line and sells them straight back: the coins before and after, and
 * what the sale's preview, the sale, its ledger row and the web's sell list said (null: the sale refused).
 */
async function cycle(templateId: string, quantity: number) {
  const before = await coinsIn(w.bagOf);
  const { line } = await w.shelf(templateId);
  const bought = await w.buy(line.id, quantity);
  expect(bought.statusCode, bought.body).toBe(200);
  const purchase = body<TradeResult>(bought).data;
  const stack = purchase.item_instances.find((item) => item.item_template_id === templateId);
  if (!stack) throw new Error('the purchase lands in the bag');
  const afterBuying = await coinsIn(w.bagOf);
  expect(before - afterBuying).toBe(purchase.total_price_cp);

  const { seen } = await w.shelf(templateId);
  const mine = await w.held(templateId);
  if (!mine) throw new Error('the bag holds it');
  // What the web app's sell list shows for one (SellList in shop-trading.tsx).
  const shown = itemSellOfferCp(seen, mine);
  const quoted = await w.quoteSale(stack.id, quantity);
  const sold = await w.sell(stack.id, quantity);
  const after = await coinsIn(w.bagOf);
  if (sold.statusCode !== 200) {
    // Refused (a sale worth nothing), and refused alike by its preview: nothing moved.
    expect(sold.statusCode, sold.body).toBe(422);
    expect(quoted.statusCode, quoted.body).toBe(422);
    expect(body(sold).error?.message).toBe(body(quoted).error?.message);
    expect(after).toBe(afterBuying);
    return { before, after, purchase, sale: null };
  }
  expect(quoted.statusCode, quoted.body).toBe(200);
  const quote = body<PriceQuote>(quoted).data;
  const sale = body<TradeResult>(sold).data;
  const row = await w.lastSale(templateId);
  // The preview, the sale, the coins received and the ledger say one figure; the sell list shows its price each.
  expect(sale.total_price_cp).toBe(quote.total_price_cp);
  expect(sale.unit_price_cp).toBe(quote.unit_price_cp);
  expect(after - afterBuying).toBe(sale.total_price_cp);
  expect(row?.amountCp).toBe(sale.total_price_cp);
  expect(row?.details).toMatchObject({ unit_price_cp: sale.unit_price_cp });
  expect(shown).toBe(quote.unit_price_cp);
  return { before, after, purchase, sale };
}

describe('buying back what the shop sells', () => {
  it('pays no more than its own price for an item it sells below its value', async () => {
    // Lanterns (5 gp) at 1 gp: half their value would be 2 gp 5 sp for each one bought at 1 gp.
    await w.settle({ buy_modifier: 1, sell_modifier: 0.5, discount_rate: 0 }, w.lantern.id, 100);
    const { line } = await w.shelf(w.lantern.id);
    expect(line).toMatchObject({ buy_price_cp: 100, sell_price_cp: 100 });
    const { before, after, purchase, sale } = await cycle(w.lantern.id, 3);
    expect(purchase.total_price_cp).toBe(300);
    expect(sale).toMatchObject({ unit_price_cp: 100, total_price_cp: 300 });
    expect(after).toBe(before);
  });

  it('pays no more than it asks when it buys dearer than it sells, its discount included', async () => {
    // Arrows (1 sp) sold at half and bought at double, 20% off: 4 cp asked each, 20 cp offered uncapped.
    await w.settle({ buy_modifier: 0.5, sell_modifier: 2, discount_rate: 0.2 }, w.arrow.id, null);
    const { before, after, purchase, sale } = await cycle(w.arrow.id, 7);
    expect(purchase).toMatchObject({ unit_price_cp: 4, total_price_cp: 28 });
    expect(sale).toMatchObject({ unit_price_cp: 4, total_price_cp: 28 });
    expect(after).toBe(before);
  });

  it('pays for an unpriced item no more than its own price less its discount', async () => {
    // A Bag of Holding priced 10 gp, 10% off, bought back at 150% of its price: 9 gp either way.
    await w.settle({ buy_modifier: 1, sell_modifier: 1.5, discount_rate: 0.1 }, w.bag.id, 1_000);
    const { line } = await w.shelf(w.bag.id);
    expect(line).toMatchObject({ buy_price_cp: 900, sell_price_cp: 900 });
    const { before, after, sale } = await cycle(w.bag.id, 1);
    expect(sale).toMatchObject({ unit_price_cp: 900, total_price_cp: 900 });
    expect(after).toBe(before);
  });

  it('buys nothing back that it gives away', async () => {
    await w.settle({ buy_modifier: 1, sell_modifier: 0.5, discount_rate: 1 }, w.lantern.id, null);
    const { before, after, purchase } = await cycle(w.lantern.id, 2);
    expect(purchase.total_price_cp).toBe(0);
    expect(after).toBe(before);
    const mine = await w.held(w.lantern.id);
    if (!mine) throw new Error('the bag holds the lanterns');
    const refused = await w.sell(mine.id, 2);
    expect(body(refused).error?.message).toBe(shopSaleMessages.givenAwayNoOffer);
  });

  it('never leaves a buy-then-sell cycle richer, whatever the modifiers, discount and own price (property)', async () => {
    const rate = (max: number) => fc.integer({ min: 0, max: max * 10_000 }).map((n) => n / 10_000);
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          buy_modifier: rate(10),
          sell_modifier: rate(10),
          discount_rate: rate(1),
        }),
        fc.constantFrom('lantern', 'arrow', 'bag'),
        // The bag has no value: only an own price makes it tradeable.
        fc.option(fc.integer({ min: 0, max: 2_000 }), { nil: null }),
        fc.integer({ min: 1, max: 5 }),
        async (settings, name, ownPriceCp, quantity) => {
          const templateId = w[name].id;
          await w.settle(settings, templateId, name === 'bag' ? (ownPriceCp ?? 1) : ownPriceCp);
          const { before, after } = await cycle(templateId, quantity);
          expect(after).toBeLessThanOrEqual(before);
        },
      ),
      { numRuns: 15 },
    );
  }, 300_000);
});
