import { type ShopInstance, type ShopTemplate, shopMessages, type TradeResult } from '@haversack/contracts';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { containers, transactions } from '../../db/schema/inventory.js';
import { itemInstances } from '../../db/schema/items.js';
import { shopTemplates } from '../../db/schema/shops.js';
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
import { buildTestApp, callApi, json, type TestContext } from '../../test/helper.js';
import { systemShops } from './shops.catalogue.js';

let ctx: TestContext;
// Real time: the ledger's dates come from the database, and monthly usage counts them in the clock's month.
let clock = new Date();

beforeAll(async () => {
  ctx = await buildTestApp({ now: () => clock });
});
afterAll(async () => ctx.close());

type Envelope<T> = { status: string; data: T; message?: string; error?: { code: string; message: string } };
const body = <T>(response: { json(): unknown }) => response.json() as Envelope<T>;
const actorOf = (u: SignedInUser) => ({ id: u.user.id, username: u.user.username });

async function giveCoins(
  owner: SignedInUser,
  containerId: string,
  currency: 'cp' | 'sp' | 'gp' | 'pp',
  n: number,
) {
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

/** How many of a template a container holds, over all its stacks. */
async function heldIn(containerId: string, templateId: string) {
  const rows = await ctx.database.db
    .select({ quantity: itemInstances.quantity })
    .from(itemInstances)
    .where(and(eq(itemInstances.containerId, containerId), eq(itemInstances.itemTemplateId, templateId)));
  return rows.reduce((n, r) => n + r.quantity, 0);
}

/** A GM on a paid plan with a party, a player with a character, a shop template with items. */
async function world(options: { price?: number; stock?: number; stackSize?: number } = {}) {
  const gm = await createUser(ctx);
  await upgrade(ctx, gm, 'tier_1');
  const party = await createParty(ctx, gm, { encumbrance_style: 'none' });
  const player = await createMember(ctx, party, 'player');
  const hero = await createCharacter(ctx, player, { partyId: party.id, maxWeight: null, maxSlots: null });
  const rope = await createTemplate(ctx, {
    name: 'Rope',
    baseValue: 1,
    currency: 'gp',
    stackSize: options.stackSize ?? 0,
    weight: 10,
  });
  const template = body<ShopTemplate>(
    await callApi(ctx, 'POST', '/shop_templates', gm, {
      shop_template: { name: 'Corner Shop', visibility: 'public', default_restock_days: 2 },
    }),
  ).data;
  await callApi(ctx, 'POST', `/shop_templates/${template.id}/add_item`, gm, {
    shop_item: { item_template_id: rope.id, quantity: options.stock ?? 5, price_cp: options.price ?? null },
  });
  const shop = body<ShopInstance>(
    await callApi(ctx, 'POST', '/shop_instances', gm, {
      shop_instance: { shop_template_id: template.id, party_id: party.id },
    }),
  ).data;
  const stack = shop.container.item_instances[0];
  if (!stack || !hero.primary_container_id) throw new Error('world setup failed');
  return { gm, party, player, hero, heroBag: hero.primary_container_id, rope, template, shop, stack };
}

describe('shop templates', () => {
  it('lists the seeded public system shops to a new user, with items', async () => {
    const user = await createUser(ctx);
    const res = await callApi(
      ctx,
      'GET',
      '/shop_templates?visibility=public&include=shop_items&per_page=50',
      user,
    );
    expect(res.statusCode).toBe(200);
    const names = body<ShopTemplate[]>(res).data.filter((t) => t.is_system);
    expect(names.map((t) => t.shop_type)).toEqual(
      expect.arrayContaining(['general', 'blacksmith', 'apothecary', 'magic_shop']),
    );
    const general = names.find((t) => t.shop_type === 'general');
    expect(general?.shop_items?.find((i) => i.item_template?.name === 'Backpack')?.buy_price_cp).toBe(200);
    // Every item of every seeded shop is in the SRD catalogue: the seed skips a name it cannot find.
    for (const shop of systemShops) {
      const seeded = names.find((t) => t.name === shop.name);
      expect(seeded?.shop_items?.map((i) => i.item_template?.name).sort(), shop.name).toEqual(
        shop.items.map((i) => i.srd).sort(),
      );
    }
  });

  it('refuses template creation on the free plan and validates the shop form', async () => {
    const free = await createUser(ctx);
    const refused = await callApi(ctx, 'POST', '/shop_templates', free, { shop_template: { name: 'Nope' } });
    expect(refused.statusCode).toBe(403);
    expect(body(refused).error?.code).toBe('LIMIT_EXCEEDED');
    await upgrade(ctx, free, 'tier_1');
    const bad = await callApi(ctx, 'POST', '/shop_templates', free, {
      shop_template: { name: 'x', buy_modifier: 11, sell_modifier: -1 },
    });
    expect(bad.statusCode).toBe(422);
    const messages = (json(bad) as { error: { details: { message: string }[] } }).error.details.map(
      (d) => d.message,
    );
    expect(messages).toEqual(
      expect.arrayContaining([
        'Shop name must be at least 2 characters long',
        'Buy modifier must be between 0 and 10',
        'Sell modifier must be between 0 and 10',
      ]),
    );
    const usage = await ctx.app.services.entitlements.usage(ctx.database.db, free.user.id);
    expect(usage.shop_templates.used).toBe(0);
  });

  it('creates, filters, sorts, updates, clones, rates and deletes', async () => {
    const owner = await createUser(ctx);
    await upgrade(ctx, owner, 'tier_1');
    const other = await createUser(ctx);
    const created = await callApi(ctx, 'POST', '/shop_templates', owner, {
      shop_template: {
        name: 'Zed Armoury',
        shop_type: 'armorer',
        location: 'docks',
        tag_list: 'Armor, armor, Weapons',
      },
    });
    expect(created.statusCode).toBe(201);
    const t = body<ShopTemplate>(created).data;
    expect(t.tag_list).toEqual(['Armor', 'Weapons']);
    expect(t.visibility).toBe('private');
    expect((await callApi(ctx, 'GET', `/shop_templates/${t.id}`, other)).statusCode).toBe(404);
    expect(
      (await callApi(ctx, 'PATCH', `/shop_templates/${t.id}`, other, { shop_template: { name: 'Mine' } }))
        .statusCode,
    ).toBe(404);
    await callApi(ctx, 'PATCH', `/shop_templates/${t.id}`, owner, {
      shop_template: { visibility: 'public' },
    });
    expect(
      (await callApi(ctx, 'PATCH', `/shop_templates/${t.id}`, other, { shop_template: { name: 'Mine' } }))
        .statusCode,
    ).toBe(403);

    const filtered = body<ShopTemplate[]>(
      await callApi(
        ctx,
        'GET',
        '/shop_templates?shop_type=armorer&location=docks&tags=weapons&search=zed',
        other,
      ),
    ).data;
    expect(filtered.map((x) => x.id)).toEqual([t.id]);

    expect(
      (await callApi(ctx, 'POST', `/shop_templates/${t.id}/rate`, owner, { rating: 5 })).statusCode,
    ).toBe(403);
    await callApi(ctx, 'POST', `/shop_templates/${t.id}/rate`, other, { rating: 2 });
    const third = await createUser(ctx);
    const rated = await callApi(ctx, 'POST', `/shop_templates/${t.id}/rate`, third, {
      shop_rating: { rating: 5 },
    });
    expect(body<ShopTemplate>(rated).data).toMatchObject({
      average_rating: 3.5,
      ratings_count: 2,
      my_rating: 5,
    });
    const changed = await callApi(ctx, 'POST', `/shop_templates/${t.id}/rate`, other, { rating: 4 });
    expect(body<ShopTemplate>(changed).data).toMatchObject({ average_rating: 4.5, ratings_count: 2 });
    expect(
      (await callApi(ctx, 'POST', `/shop_templates/${t.id}/rate`, other, { rating: 6 })).statusCode,
    ).toBe(422);

    const byRating = body<ShopTemplate[]>(
      await callApi(
        ctx,
        'GET',
        '/shop_templates?visibility=public&min_rating=4.5&sort_by=rating&sort_order=desc',
        other,
      ),
    ).data;
    expect(byRating.map((x) => x.id)).toContain(t.id);
    expect(byRating.every((x) => (x.average_rating ?? 0) >= 4.5)).toBe(true);

    const clone = await callApi(ctx, 'POST', `/shop_templates/${t.id}/clone`, owner);
    expect(clone.statusCode).toBe(201);
    expect(body<ShopTemplate>(clone).data).toMatchObject({
      name: 'Zed Armoury (Copy)',
      visibility: 'private',
      is_owner: true,
    });
    const second = await callApi(ctx, 'POST', `/shop_templates/${t.id}/clone`, owner);
    expect(body<ShopTemplate>(second).data.name).toBe('Zed Armoury (Copy 2)');
    expect((await callApi(ctx, 'POST', `/shop_templates/${t.id}/clone`, other)).statusCode).toBe(403);

    expect((await callApi(ctx, 'DELETE', `/shop_templates/${t.id}`, other)).statusCode).toBe(403);
    expect((await callApi(ctx, 'DELETE', `/shop_templates/${t.id}`, owner)).statusCode).toBe(204);
    expect((await callApi(ctx, 'GET', `/shop_templates/${t.id}`, owner)).statusCode).toBe(404);
  });

  it('adds, changes and removes shop items; system templates are read-only', async () => {
    const owner = await createUser(ctx);
    await upgrade(ctx, owner, 'tier_1');
    const t = body<ShopTemplate>(
      await callApi(ctx, 'POST', '/shop_templates', owner, { shop_template: { name: 'Bits' } }),
    ).data;
    const item = await createTemplate(ctx, { baseValue: 3, currency: 'sp' });
    const added = await callApi(ctx, 'POST', `/shop_templates/${t.id}/add_item`, owner, {
      item_template_id: item.id,
      quantity: 4,
    });
    expect(added.statusCode).toBe(201);
    const shopItem = body<{ id: string; buy_price_cp: number; sell_price_cp: number }>(added).data;
    expect(shopItem).toMatchObject({ buy_price_cp: 30, sell_price_cp: 15 });
    const patched = await callApi(ctx, 'PATCH', `/shop_templates/${t.id}/shop_items/${shopItem.id}`, owner, {
      shop_item: { price_cp: 99, restock_quantity: 10 },
    });
    expect(body(patched).data).toMatchObject({ price_cp: 99, buy_price_cp: 99, restock_quantity: 10 });
    const status = body<{ items: { restock_quantity: number }[] }>(
      await callApi(ctx, 'GET', `/shop_templates/${t.id}/restock_status`, owner),
    ).data;
    expect(status.items[0]?.restock_quantity).toBe(10);
    expect(
      (await callApi(ctx, 'DELETE', `/shop_templates/${t.id}/remove_item/${shopItem.id}`, owner)).statusCode,
    ).toBe(204);
    expect(body<unknown[]>(await callApi(ctx, 'GET', `/shop_templates/${t.id}/items`, owner)).data).toEqual(
      [],
    );
    const [system] = await ctx.database.db
      .select()
      .from(shopTemplates)
      .where(eq(shopTemplates.systemKey, 'shop:general-store'));
    const refused = await callApi(ctx, 'PATCH', `/shop_templates/${system?.id}`, owner, {
      shop_template: { name: 'Mine now' },
    });
    expect(refused.statusCode).toBe(403);
    expect((await callApi(ctx, 'GET', '/shop_templates/not-a-uuid', owner)).statusCode).toBe(422);
  });
});

describe('deploying shops', () => {
  it('refuses the free tier, non-managers and outsiders; counts usage', async () => {
    const gm = await createUser(ctx);
    const party = await createParty(ctx, gm);
    const [system] = await ctx.database.db
      .select()
      .from(shopTemplates)
      .where(eq(shopTemplates.systemKey, 'shop:general-store'));
    const deploy = (u: SignedInUser) =>
      callApi(ctx, 'POST', '/shop_instances', u, {
        shop_instance: { shop_template_id: system?.id, party_id: party.id },
      });
    const free = await deploy(gm);
    expect(free.statusCode).toBe(403);
    expect(body(free).error?.code).toBe('FEATURE_NOT_AVAILABLE');
    const player = await createMember(ctx, party, 'player');
    await upgrade(ctx, player, 'tier_1');
    expect((await deploy(player)).statusCode).toBe(403);
    const stranger = await createUser(ctx);
    await upgrade(ctx, stranger, 'tier_1');
    expect((await deploy(stranger)).statusCode).toBe(404);
    await upgrade(ctx, gm, 'tier_1');
    const ok = await deploy(gm);
    expect(ok.statusCode).toBe(201);
    expect(body(ok).message).toBe('Shop "The Wayfarer’s General Store" deployed successfully!');
    const shop = body<ShopInstance>(ok).data;
    const backpacks = shop.container.item_instances.filter((i) => i.name === 'Backpack');
    expect(backpacks.reduce((n, i) => n + i.quantity, 0)).toBe(10);
    expect(shop.next_restock_at).toBe(new Date(clock.getTime() + 7 * 86_400_000).toISOString());
    const usage = await ctx.app.services.entitlements.usage(ctx.database.db, gm.user.id);
    expect(usage.shop_instances.used).toBe(1);
    expect(usage.shop_deployments_monthly.used).toBe(1);
    const listed = await callApi(ctx, 'GET', `/shop_instances?party_id=${party.id}`, player);
    expect(body<{ instances: ShopInstance[] }>(listed).data.instances.map((s) => s.id)).toEqual([shop.id]);
    expect((json(listed) as { meta: { total: number } }).meta.total).toBe(1);
    expect((await callApi(ctx, 'GET', `/shop_instances/${shop.id}`, stranger)).statusCode).toBe(404);
  });
});

describe('shop limits of a paid plan', () => {
  it('holds deployed shops and monthly deployments to the plan, even when deploys race', async () => {
    const gm = await createUser(ctx);
    await upgrade(ctx, gm, 'tier_1'); // 5 deployed shops, 10 deployments a month
    const party = await createParty(ctx, gm);
    const template = body<ShopTemplate>(
      await callApi(ctx, 'POST', '/shop_templates', gm, { shop_template: { name: 'Stall' } }),
    ).data;
    const deploy = () =>
      callApi(ctx, 'POST', '/shop_instances', gm, {
        shop_instance: { shop_template_id: template.id, party_id: party.id },
      });
    const raced = await Promise.all(Array.from({ length: 7 }, deploy));
    expect(raced.filter((r) => r.statusCode === 201)).toHaveLength(5);
    const refused = raced.filter((r) => r.statusCode !== 201);
    expect(refused.map((r) => [r.statusCode, body(r).error?.code])).toEqual([
      [403, 'LIMIT_EXCEEDED'],
      [403, 'LIMIT_EXCEEDED'],
    ]);
    expect(body(refused[0] as (typeof refused)[number]).error?.message).toBe(
      'Your Adventurer plan allows 5 deployed shops. Upgrade to deploy more.',
    );
    const open = raced.filter((r) => r.statusCode === 201).map((r) => body<ShopInstance>(r).data.id);
    // Deleting one frees a slot (a closed shop keeps its stock and its slot), but each deployment still
    // counts against the month.
    for (let month = 5; month < 10; month++) {
      const gone = open.pop();
      expect((await callApi(ctx, 'DELETE', `/shop_instances/${gone}`, gm)).statusCode).toBe(204);
      const again = await deploy();
      expect(again.statusCode).toBe(201);
      open.push(body<ShopInstance>(again).data.id);
    }
    expect((await callApi(ctx, 'DELETE', `/shop_instances/${open.pop()}`, gm)).statusCode).toBe(204);
    const overMonth = await deploy();
    expect(overMonth.statusCode).toBe(403);
    expect(body(overMonth).error?.code).toBe('LIMIT_EXCEEDED');
    const usage = await ctx.app.services.entitlements.usage(ctx.database.db, gm.user.id);
    expect(usage.shop_instances.used).toBe(4);
    expect(usage.shop_deployments_monthly.used).toBe(10);
  });
});

describe('trading', () => {
  it('buys with change in the largest coins, writes the ledger, and sells back', async () => {
    const w = await world();
    await giveCoins(w.player, w.heroBag, 'gp', 3);
    await giveCoins(w.player, w.heroBag, 'cp', 5);
    const quote = await callApi(
      ctx,
      'GET',
      `/shop_instances/${w.shop.id}/calculate_buy_price/${w.stack.id}?quantity=2`,
      w.player,
    );
    expect(body(quote).data).toMatchObject({ unit_price_cp: 100, total_price_cp: 200, formatted: '2 gp' });
    await callApi(ctx, 'PATCH', `/shop_instances/${w.shop.id}`, w.gm, {
      shop_instance: { discount_rate: 0.15 },
    });
    const res = await callApi(ctx, 'POST', `/shop_instances/${w.shop.id}/purchase`, w.player, {
      purchase: {
        item_instance_id: w.stack.id,
        quantity: 2,
        buyer_character_id: w.hero.id,
        buyer_container_id: w.heroBag,
      },
    });
    expect(res.statusCode).toBe(200);
    const trade = body<TradeResult>(res).data;
    // 2 × round(100 × 0.85) = 170 cp: 1 gp + 70 cp owed; 5 cp cannot help, so 2 gp paid and 30 cp back as 3 sp.
    expect(trade).toMatchObject({ unit_price_cp: 85, total_price_cp: 170 });
    expect(trade.paid).toMatchObject({ gp: 2, cp: 0 });
    expect(trade.change).toMatchObject({ sp: 3, cp: 0 });
    expect(await purse(w.heroBag)).toEqual({ gp: 1, sp: 3, cp: 5 });
    const rows = await ctx.database.db
      .select()
      .from(transactions)
      .where(eq(transactions.transactionType, 'purchase'));
    const mine = rows.filter((r) => r.partyId === w.party.id);
    expect(mine.find((r) => r.itemName === 'Rope')).toMatchObject({
      quantity: 2,
      amountCp: 170,
      currency: 'cp',
    });
    expect(
      mine.filter((r) => r.itemName !== 'Rope').map((r) => [r.itemName, r.quantity, r.amountCp]),
    ).toEqual(
      expect.arrayContaining([
        ['Gold piece', 2, 200],
        ['Silver piece', 3, 30],
      ]),
    );
    // One purchase reads as one in the Activity list: the coin rows say they are the payment and the change.
    const name = w.player.user.username;
    expect(mine.map((r) => r.summary).sort()).toEqual([
      `${name} bought 2 × Rope from ${w.shop.name} for 1 gp 7 sp`,
      `${name} got 3 × Silver piece in change from ${w.shop.name}`,
      `${name} paid 2 × Gold piece to ${w.shop.name} for 2 × Rope`,
    ]);
    // The coins' rows name whose container paid and got the change back, as every other row does.
    const bag = `${(await ctx.database.db.select().from(containers).where(eq(containers.id, w.heroBag)))[0]?.name} (${w.hero.name})`;
    expect(mine.find((r) => r.summary.includes(' paid '))?.sourceName).toBe(bag);
    expect(mine.find((r) => r.summary.includes(' in change '))?.destinationName).toBe(bag);
    // The shop's own side names it once: "Stock (The Wayfarer's)", not "The Wayfarer's stock (The Wayfarer's)".
    expect(mine.find((r) => r.itemName === 'Rope')?.sourceName).toBe(`Stock (${w.shop.name})`);
    const shop = body<ShopInstance>(await callApi(ctx, 'GET', `/shop_instances/${w.shop.id}`, w.player)).data;
    expect(shop.container.item_instances[0]?.quantity).toBe(3);

    const [bought] = await ctx.database.db
      .select()
      .from(itemInstances)
      .where(and(eq(itemInstances.containerId, w.heroBag), eq(itemInstances.itemTemplateId, w.rope.id)));
    const sold = await callApi(ctx, 'POST', `/shop_instances/${w.shop.id}/sell`, w.player, {
      sell: {
        item_instance_id: bought?.id,
        quantity: 1,
        seller_character_id: w.hero.id,
        source_container_id: w.heroBag,
      },
    });
    expect(sold.statusCode).toBe(200);
    expect(body<TradeResult>(sold).data).toMatchObject({ total_price_cp: 50, received: { sp: 5 } });
    expect(await purse(w.heroBag)).toEqual({ gp: 1, sp: 8, cp: 5 });
    const saleRows = await ctx.database.db
      .select()
      .from(transactions)
      .where(eq(transactions.transactionType, 'sale'));
    expect(
      saleRows
        .filter((r) => r.partyId === w.party.id)
        .map((r) => r.summary)
        .sort(),
    ).toEqual([
      `${w.hero.name} received 5 × Silver piece from ${w.shop.name} for 1 × Rope`,
      `${name} sold 1 × Rope to ${w.shop.name} for 5 sp`,
    ]);
    const log = await callApi(ctx, 'GET', `/shop_instances/${w.shop.id}/sales`, w.gm);
    // Each trade names the character who traded, a sale as a purchase (the log showed the shop's name).
    expect(
      body<{ transactions: { transaction_type: string; target_data: { name: string } }[] }>(
        log,
      ).data.transactions.map((t) => [t.transaction_type, t.target_data.name]),
    ).toEqual([
      ['sale', w.hero.name],
      ['purchase', w.hero.name],
    ]);
    expect((await callApi(ctx, 'GET', `/shop_instances/${w.shop.id}/sales`, w.player)).statusCode).toBe(403);
  });

  it('answers SHOP_CLOSED, ITEM_OUT_OF_STOCK and INSUFFICIENT_FUNDS and changes nothing', async () => {
    const w = await world({ price: 250 });
    await giveCoins(w.player, w.heroBag, 'gp', 2);
    const buy = (quantity: number) =>
      callApi(ctx, 'POST', `/shop_instances/${w.shop.id}/purchase`, w.player, {
        purchase: {
          item_instance_id: w.stack.id,
          quantity,
          buyer_character_id: w.hero.id,
          target_container_id: w.heroBag,
        },
      });
    const poor = await buy(1);
    expect(poor.statusCode).toBe(422);
    expect(body(poor).error).toMatchObject({
      code: 'INSUFFICIENT_FUNDS',
      message: 'Not enough coins: 5 sp more is needed.',
    });
    expect(body(await buy(6)).error?.code).toBe('ITEM_OUT_OF_STOCK');
    const closed = await callApi(ctx, 'PATCH', `/shop_instances/${w.shop.id}`, w.gm, {
      shop_instance: { is_active: false },
    });
    expect(body(closed).message).toBe('Shop closed successfully!');
    const refused = await buy(1);
    expect(refused.statusCode).toBe(409);
    expect(body(refused).error?.code).toBe('SHOP_CLOSED');
    expect(await purse(w.heroBag)).toEqual({ gp: 2 });
    const bad = await callApi(ctx, 'POST', `/shop_instances/${w.shop.id}/purchase`, w.player, {
      purchase: { item_instance_id: w.stack.id, quantity: 0, buyer_character_id: 'x' },
    });
    expect(bad.statusCode).toBe(422);
  });

  it('refuses a purchase at a price the GM changed since the buyer saw it, and changes nothing', async () => {
    const w = await world({ price: 250 });
    await giveCoins(w.player, w.heroBag, 'gp', 10);
    const buy = (expected: number) =>
      callApi(ctx, 'POST', `/shop_instances/${w.shop.id}/purchase`, w.player, {
        purchase: {
          item_instance_id: w.stack.id,
          quantity: 2,
          buyer_character_id: w.hero.id,
          buyer_container_id: w.heroBag,
          expected_unit_price_cp: expected,
        },
      });
    const quote = await callApi(
      ctx,
      'GET',
      `/shop_instances/${w.shop.id}/calculate_buy_price/${w.stack.id}?quantity=2`,
      w.player,
    );
    expect(body(quote).data).toMatchObject({ unit_price_cp: 250 });
    // The GM gives a discount of 20 %: 2 gp 5 sp become 2 gp each.
    const repriced = await callApi(ctx, 'PATCH', `/shop_instances/${w.shop.id}`, w.gm, {
      shop_instance: { discount_rate: 0.2 },
    });
    expect(repriced.statusCode).toBe(200);
    const refused = await buy(250);
    expect(refused.statusCode).toBe(409);
    expect(body(refused).error).toMatchObject({
      code: 'CONFLICT',
      message: 'The price has changed: it is now 2 gp each. Check the new price and buy again.',
      details: [{ field: 'expected_unit_price_cp' }],
    });
    expect(await purse(w.heroBag)).toEqual({ gp: 10 });
    const agreed = await buy(200);
    expect(agreed.statusCode, agreed.body).toBe(200);
    expect(await purse(w.heroBag)).toEqual({ gp: 6 });
  });

  it('answers ITEM_OUT_OF_STOCK to a buyer who was too late for the last unit, 404 to a stack never sold here', async () => {
    const w = await world({ price: 100, stock: 1 });
    await giveCoins(w.player, w.heroBag, 'gp', 5);
    const buy = (itemInstanceId: string) =>
      callApi(ctx, 'POST', `/shop_instances/${w.shop.id}/purchase`, w.player, {
        purchase: {
          item_instance_id: itemInstanceId,
          quantity: 1,
          buyer_character_id: w.hero.id,
          buyer_container_id: w.heroBag,
        },
      });
    const first = await buy(w.stack.id);
    expect(first.statusCode, first.body).toBe(200);
    const late = await buy(w.stack.id);
    expect(late.statusCode).toBe(409);
    expect(body(late).error).toMatchObject({
      code: 'ITEM_OUT_OF_STOCK',
      message: 'This item is out of stock.',
    });
    const never = await buy('00000000-0000-4000-8000-000000000000');
    expect(never.statusCode).toBe(404);
    expect(body(never).error?.message).toBe('That item is not for sale in this shop.');
  });

  it('lets players and managers with a character trade; observers and others may not', async () => {
    const w = await world();
    const observer = await createMember(ctx, w.party, 'observer');
    const observerHero = await createCharacter(ctx, observer, { partyId: w.party.id });
    await giveCoins(observer, observerHero.primary_container_id ?? '', 'gp', 5);
    const attempt = (u: SignedInUser, characterId: string, containerId: string) =>
      callApi(ctx, 'POST', `/shop_instances/${w.shop.id}/purchase`, u, {
        purchase: {
          item_instance_id: w.stack.id,
          buyer_character_id: characterId,
          buyer_container_id: containerId,
        },
      });
    // DESIGN §4: observers only read; the refusal names the role, not a character they do have.
    const byObserver = await attempt(observer, observerHero.id, observerHero.primary_container_id ?? '');
    expect(byObserver.statusCode).toBe(403);
    expect(body(byObserver).error).toMatchObject({
      code: 'FORBIDDEN',
      message: 'Observers cannot trade in shops.',
    });
    const observerSale = await callApi(ctx, 'POST', `/shop_instances/${w.shop.id}/sell`, observer, {
      sell: {
        item_instance_id: w.stack.id,
        seller_character_id: observerHero.id,
        seller_container_id: observerHero.primary_container_id,
      },
    });
    expect(observerSale.statusCode).toBe(403);
    expect(body(observerSale).error).toMatchObject({
      code: 'FORBIDDEN',
      message: 'Observers cannot trade in shops.',
    });
    // A player without a character hears what they lack.
    const newcomer = await createMember(ctx, w.party, 'player');
    const characterless = await attempt(newcomer, w.hero.id, w.heroBag);
    expect(characterless.statusCode).toBe(403);
    expect(body(characterless).error).toMatchObject({
      code: 'FORBIDDEN',
      message: 'You need a character in this party to trade here.',
    });
    expect((await callApi(ctx, 'GET', `/shop_instances/${w.shop.id}`, observer)).statusCode).toBe(200);
    const stranger = await createUser(ctx);
    expect((await attempt(stranger, w.hero.id, w.heroBag)).statusCode).toBe(404);
    // Someone else's character is not yours to spend from.
    const manager = await createMember(ctx, w.party, 'manager');
    const managerHero = await createCharacter(ctx, manager, { partyId: w.party.id, maxWeight: null });
    const fieldOf = (response: { json(): unknown }) =>
      (response.json() as { error: { details: { field: string; message: string }[] } }).error.details;
    expect(fieldOf(await attempt(manager, w.hero.id, w.heroBag))).toEqual([
      { field: 'buyer_character_id', message: shopMessages.characterNotInParty },
    ]);
    // Their own character with someone else's container: the container is what is wrong.
    expect(fieldOf(await attempt(manager, managerHero.id, w.heroBag))).toEqual([
      { field: 'buyer_container_id', message: shopMessages.containerNotCharacters },
    ]);
    await giveCoins(manager, managerHero.primary_container_id ?? '', 'gp', 5);
    expect((await attempt(manager, managerHero.id, managerHero.primary_container_id ?? '')).statusCode).toBe(
      200,
    );
    expect(
      (
        await callApi(ctx, 'PATCH', `/shop_instances/${w.shop.id}`, w.player, {
          shop_instance: { name: 'Mine' },
        })
      ).statusCode,
    ).toBe(403);
    expect(
      (
        await callApi(ctx, 'PATCH', `/shop_instances/${w.shop.id}`, manager, {
          shop_instance: { name: 'Managed' },
        })
      ).statusCode,
    ).toBe(200);
    expect((await callApi(ctx, 'POST', `/shop_instances/${w.shop.id}/restock`, w.player)).statusCode).toBe(
      403,
    );
    // The shop's container is out of reach of the generic transfer: stock is never free.
    const grab = await callApi(ctx, 'POST', '/containers/transfer', w.player, {
      item_instance_id: w.stack.id,
      source_container_id: w.shop.container.id,
      target_container_id: w.heroBag,
      quantity: 1,
    });
    expect(grab.statusCode).toBe(404);
  });

  it('two players racing for the last item: exactly one wins, no coin made or lost', async () => {
    const w = await world({ stock: 1 });
    const rival = await createMember(ctx, w.party, 'player');
    const rivalHero = await createCharacter(ctx, rival, {
      partyId: w.party.id,
      maxWeight: null,
      maxSlots: null,
    });
    const rivalBag = rivalHero.primary_container_id ?? '';
    await giveCoins(w.player, w.heroBag, 'gp', 1);
    await giveCoins(rival, rivalBag, 'gp', 1);
    const [a, b] = await Promise.all([
      callApi(ctx, 'POST', `/shop_instances/${w.shop.id}/purchase`, w.player, {
        purchase: {
          item_instance_id: w.stack.id,
          buyer_character_id: w.hero.id,
          buyer_container_id: w.heroBag,
        },
      }),
      callApi(ctx, 'POST', `/shop_instances/${w.shop.id}/purchase`, rival, {
        purchase: {
          item_instance_id: w.stack.id,
          buyer_character_id: rivalHero.id,
          buyer_container_id: rivalBag,
        },
      }),
    ]);
    // The loser is told it sold out (409 ITEM_OUT_OF_STOCK), not that the item was never for sale.
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
    const loser = a.statusCode === 409 ? a : b;
    expect(body(loser).error?.code).toBe('ITEM_OUT_OF_STOCK');
    const wallets = [await purse(w.heroBag), await purse(rivalBag)];
    expect(wallets.map((p) => p.gp ?? 0).sort()).toEqual([0, 1]);
    const ropes = await ctx.database.db
      .select()
      .from(itemInstances)
      .where(
        and(
          eq(itemInstances.itemTemplateId, w.rope.id),
          inArray(itemInstances.containerId, [w.heroBag, rivalBag, w.shop.container.id]),
        ),
      );
    expect(ropes.reduce((n, r) => n + r.quantity, 0)).toBe(1);
  });

  it('two players racing for part of a stack never take it below zero', async () => {
    const w = await world({ stock: 3 });
    const rival = await createMember(ctx, w.party, 'player');
    const rivalHero = await createCharacter(ctx, rival, {
      partyId: w.party.id,
      maxWeight: null,
      maxSlots: null,
    });
    const rivalBag = rivalHero.primary_container_id ?? '';
    await giveCoins(w.player, w.heroBag, 'gp', 10);
    await giveCoins(rival, rivalBag, 'gp', 10);
    const results = await Promise.all([
      callApi(ctx, 'POST', `/shop_instances/${w.shop.id}/purchase`, w.player, {
        purchase: {
          item_instance_id: w.stack.id,
          quantity: 2,
          buyer_character_id: w.hero.id,
          buyer_container_id: w.heroBag,
        },
      }),
      callApi(ctx, 'POST', `/shop_instances/${w.shop.id}/purchase`, rival, {
        purchase: {
          item_instance_id: w.stack.id,
          quantity: 2,
          buyer_character_id: rivalHero.id,
          buyer_container_id: rivalBag,
        },
      }),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const total = ((await purse(w.heroBag)).gp ?? 0) + ((await purse(rivalBag)).gp ?? 0);
    expect(total).toBe(18);
  });
});

describe('buying along a shelf line', () => {
  /** A shop shelving 3 ropes that do not stack: three stacks of one on one line at one price. */
  async function shelf() {
    const w = await world({ stock: 3, stackSize: 1, price: 100 });
    const ids = w.shop.container.item_instances.map((i) => i.id);
    expect(w.shop.container.item_instances.map((i) => i.quantity)).toEqual([1, 1, 1]);
    const buy = (who: SignedInUser, characterId: string, bag: string, itemId: string, quantity: number) =>
      callApi(ctx, 'POST', `/shop_instances/${w.shop.id}/purchase`, who, {
        purchase: {
          item_instance_id: itemId,
          quantity,
          buyer_character_id: characterId,
          buyer_container_id: bag,
        },
      });
    const ropesIn = (containerId: string) => heldIn(containerId, w.rope.id);
    return { ...w, ids, buy, ropesIn };
  }

  it('keeps a stack with its own weight and value off the line of plain ones at the same price, as the shelf shows it', async () => {
    const w = await shelf();
    const gmHero = await createCharacter(ctx, w.gm, { partyId: w.party.id, maxWeight: null, maxSlots: null });
    const [heavy] = await ctx.app.services.inventory.createInstance(actorOf(w.gm), {
      item_template_id: w.rope.id,
      container_id: gmHero.primary_container_id ?? '',
      quantity: 1,
      instance_data: { weight_override: 500, value_override: 900, currency_override: 'gp' },
    });
    const stocked = await callApi(ctx, 'POST', `/shop_instances/${w.shop.id}/stock`, w.gm, {
      item_id: heavy?.id,
      source_container_id: gmHero.primary_container_id,
      quantity: 1,
      price: 100,
    });
    expect(stocked.statusCode, stocked.body).toBe(200);
    await giveCoins(w.player, w.heroBag, 'gp', 10);
    const [first = ''] = w.ids;
    // Three plain ropes and the heavy one, all at 1 gp: the plain line holds three.
    const tooMany = await w.buy(w.player, w.hero.id, w.heroBag, first, 4);
    expect(tooMany.statusCode).toBe(409);
    expect(body(tooMany).error).toMatchObject({
      code: 'ITEM_OUT_OF_STOCK',
      message: 'Only 3 left in stock.',
    });
    const bought = await w.buy(w.player, w.hero.id, w.heroBag, first, 3);
    expect(bought.statusCode, bought.body).toBe(200);
    const held = await ctx.database.db
      .select()
      .from(itemInstances)
      .where(eq(itemInstances.containerId, w.heroBag));
    const ropes = held.filter((i) => i.itemTemplateId === w.rope.id);
    expect(ropes.map((i) => i.instanceData)).toEqual([{}, {}, {}]);
  });

  it('sells a buyer too late for a plain stack only the plain ones of its line, not a heavier one at the same price', async () => {
    const w = await shelf();
    const gmHero = await createCharacter(ctx, w.gm, { partyId: w.party.id, maxWeight: null, maxSlots: null });
    const [heavy] = await ctx.app.services.inventory.createInstance(actorOf(w.gm), {
      item_template_id: w.rope.id,
      container_id: gmHero.primary_container_id ?? '',
      quantity: 1,
      instance_data: { weight_override: 500, value_override: 900, currency_override: 'gp' },
    });
    const stocked = await callApi(ctx, 'POST', `/shop_instances/${w.shop.id}/stock`, w.gm, {
      item_id: heavy?.id,
      source_container_id: gmHero.primary_container_id,
      quantity: 1,
      price: 100,
    });
    expect(stocked.statusCode, stocked.body).toBe(200);
    await giveCoins(w.player, w.heroBag, 'gp', 10);
    const [first = ''] = w.ids;
    expect((await w.buy(w.player, w.hero.id, w.heroBag, first, 1)).statusCode).toBe(200);
    // The page still names the first rope: its line has two plain ropes left, the heavy one is a line of its own.
    const late = await w.buy(w.player, w.hero.id, w.heroBag, first, 3);
    expect(late.statusCode).toBe(409);
    expect(body(late).error).toMatchObject({ code: 'ITEM_OUT_OF_STOCK', message: 'Only 2 left in stock.' });
    const lateTwo = await w.buy(w.player, w.hero.id, w.heroBag, first, 2);
    expect(lateTwo.statusCode, lateTwo.body).toBe(200);
    const held = await ctx.database.db
      .select()
      .from(itemInstances)
      .where(eq(itemInstances.containerId, w.heroBag));
    expect(held.filter((i) => i.itemTemplateId === w.rope.id).map((i) => i.instanceData)).toEqual([
      {},
      {},
      {},
    ]);
    expect(await w.ropesIn(w.shop.container.id)).toBe(1);
  });

  it('buys several non-stacking items in one purchase with one item row, and never more than the line holds', async () => {
    const w = await shelf();
    await giveCoins(w.player, w.heroBag, 'gp', 5);
    const [first = ''] = w.ids;
    const tooMany = await w.buy(w.player, w.hero.id, w.heroBag, first, 4);
    expect(tooMany.statusCode).toBe(409);
    expect(body(tooMany).error).toMatchObject({
      code: 'ITEM_OUT_OF_STOCK',
      message: 'Only 3 left in stock.',
    });
    expect(await w.ropesIn(w.shop.container.id)).toBe(3);
    expect(await purse(w.heroBag)).toEqual({ gp: 5 });

    const bought = await w.buy(w.player, w.hero.id, w.heroBag, first, 3);
    expect(bought.statusCode, bought.body).toBe(200);
    expect(body<TradeResult>(bought).data).toMatchObject({ quantity: 3, total_price_cp: 300 });
    expect(await w.ropesIn(w.heroBag)).toBe(3);
    expect(await w.ropesIn(w.shop.container.id)).toBe(0);
    expect(await purse(w.heroBag)).toEqual({ gp: 2 });
    const rows = await ctx.database.db
      .select()
      .from(transactions)
      .where(and(eq(transactions.itemTemplateId, w.rope.id), eq(transactions.transactionType, 'purchase')));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ quantity: 3, amountCp: 300 });
    const details = rows[0]?.details as { source_instance_ids?: string[] } | undefined;
    expect(details?.source_instance_ids?.sort()).toEqual([...w.ids].sort());
  });

  it('sells a buyer too late for the stack they chose the rest of its line, and sold out once it is empty', async () => {
    const w = await shelf();
    await giveCoins(w.player, w.heroBag, 'gp', 5);
    const [first = ''] = w.ids;
    expect((await w.buy(w.player, w.hero.id, w.heroBag, first, 1)).statusCode).toBe(200);
    // The page still names the first rope: the two left on its line are sold instead.
    const late = await w.buy(w.player, w.hero.id, w.heroBag, first, 2);
    expect(late.statusCode, late.body).toBe(200);
    expect(await w.ropesIn(w.heroBag)).toBe(3);
    const gone = await w.buy(w.player, w.hero.id, w.heroBag, first, 1);
    expect(gone.statusCode).toBe(409);
    expect(body(gone).error).toMatchObject({
      code: 'ITEM_OUT_OF_STOCK',
      message: 'This item is out of stock.',
    });
    expect(await purse(w.heroBag)).toEqual({ gp: 2 });
  });

  it('three players racing for the same rope on a line of three each get one; a fourth is told it sold out', async () => {
    const w = await shelf();
    const buyers = [{ user: w.player, heroId: w.hero.id, bag: w.heroBag }];
    for (let i = 0; i < 3; i++) {
      const user = await createMember(ctx, w.party, 'player');
      const hero = await createCharacter(ctx, user, { partyId: w.party.id, maxWeight: null, maxSlots: null });
      buyers.push({ user, heroId: hero.id, bag: hero.primary_container_id ?? '' });
    }
    for (const b of buyers) await giveCoins(b.user, b.bag, 'gp', 1);
    const [first = ''] = w.ids;
    const results = await Promise.all(buyers.map((b) => w.buy(b.user, b.heroId, b.bag, first, 1)));
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 200, 200, 409]);
    const held = await Promise.all(buyers.map((b) => w.ropesIn(b.bag)));
    const paid = await Promise.all(buyers.map(async (b) => (await purse(b.bag)).gp ?? 0));
    // Each winner holds one rope and paid for it; the loser kept their coin.
    expect(held.map((n, i) => n + (paid[i] ?? 0))).toEqual([1, 1, 1, 1]);
    expect(await w.ropesIn(w.shop.container.id)).toBe(0);
  });

  it('holds a whole line for the GM’s approval and puts it back on the shelf when declined', async () => {
    const w = await shelf();
    await giveCoins(w.player, w.heroBag, 'gp', 5);
    await callApi(ctx, 'PATCH', `/shop_instances/${w.shop.id}`, w.gm, {
      shop_instance: { approval_threshold_cp: 150 },
    });
    const [first = ''] = w.ids;
    const asked = await w.buy(w.player, w.hero.id, w.heroBag, first, 3);
    expect(asked.statusCode, asked.body).toBe(202);
    const request = body<{ request: { id: string; quantity: number } }>(asked).data.request;
    expect(request.quantity).toBe(3);
    expect(await w.ropesIn(w.shop.container.id)).toBe(0);
    const declined = await callApi(ctx, 'POST', `/shop_requests/${request.id}/decline`, w.gm, {});
    expect(declined.statusCode, declined.body).toBe(200);
    expect(await w.ropesIn(w.shop.container.id)).toBe(3);
    // Back on the shelf as new stacks: the shop page shows their ids.
    const shelved = body<ShopInstance>(await callApi(ctx, 'GET', `/shop_instances/${w.shop.id}`, w.player));
    const [back = ''] = shelved.data.container.item_instances.map((i) => i.id);
    const again = await w.buy(w.player, w.hero.id, w.heroBag, back, 3);
    expect(again.statusCode).toBe(202);
    const id = body<{ request: { id: string } }>(again).data.request.id;
    const approved = await callApi(ctx, 'POST', `/shop_requests/${id}/approve`, w.gm, {});
    expect(approved.statusCode, approved.body).toBe(200);
    expect(await w.ropesIn(w.heroBag)).toBe(3);
    expect(await purse(w.heroBag)).toEqual({ gp: 2 });
  });
});

describe('purchase requests and the purse', () => {
  it('holds no more goods in requests than the purse can pay for, also when the requests race', async () => {
    const w = await world({ stock: 3, stackSize: 1, price: 100 });
    await giveCoins(w.player, w.heroBag, 'gp', 2);
    await callApi(ctx, 'PATCH', `/shop_instances/${w.shop.id}`, w.gm, {
      shop_instance: { approval_threshold_cp: 50 },
    });
    const ask = (itemId: string) =>
      callApi(ctx, 'POST', `/shop_instances/${w.shop.id}/purchase`, w.player, {
        purchase: {
          item_instance_id: itemId,
          quantity: 1,
          buyer_character_id: w.hero.id,
          buyer_container_id: w.heroBag,
        },
      });
    const ids = w.shop.container.item_instances.map((i) => i.id);
    // Three requests of 1 gp at once from a purse of 2 gp: two are held, the third is refused.
    const answers = await Promise.all(ids.map((id) => ask(id)));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([202, 202, 422]);
    const refused = answers.find((a) => a.statusCode === 422);
    if (!refused) throw new Error('no request was refused');
    expect(body(refused).error).toMatchObject({
      code: 'INSUFFICIENT_FUNDS',
      message:
        "Not enough coins: 1 gp more is needed, counting the 2 gp of purchases already waiting for the GM's approval.",
    });
    expect(await heldIn(w.shop.container.id, w.rope.id)).toBe(1);
    expect(await purse(w.heroBag)).toEqual({ gp: 2 });
    // The GM declines one: its coins count no more, so the last rope can be asked for.
    const [firstHeld] = answers.filter((a) => a.statusCode === 202);
    if (!firstHeld) throw new Error('no request was held');
    const firstRequest = body<{ request: { id: string } }>(firstHeld).data.request.id;
    const declined = await callApi(ctx, 'POST', `/shop_requests/${firstRequest}/decline`, w.gm, {});
    expect(declined.statusCode, declined.body).toBe(200);
    const shelved = body<ShopInstance>(await callApi(ctx, 'GET', `/shop_instances/${w.shop.id}`, w.player));
    const [anyRope = ''] = shelved.data.container.item_instances.map((i) => i.id);
    expect((await ask(anyRope)).statusCode).toBe(202);
  });
});

describe('the list of shops', () => {
  it('sends each shop without its stock, with its item count, pending requests and a summary of all', async () => {
    const w = await world({ stock: 2, stackSize: 1, price: 100 });
    await giveCoins(w.player, w.heroBag, 'gp', 5);
    await callApi(ctx, 'PATCH', `/shop_instances/${w.shop.id}`, w.gm, {
      shop_instance: { approval_threshold_cp: 50 },
    });
    const asked = await callApi(ctx, 'POST', `/shop_instances/${w.shop.id}/purchase`, w.player, {
      purchase: {
        item_instance_id: w.stack.id,
        quantity: 1,
        buyer_character_id: w.hero.id,
        buyer_container_id: w.heroBag,
      },
    });
    expect(asked.statusCode, asked.body).toBe(202);
    const closed = body<ShopInstance>(
      await callApi(ctx, 'POST', '/shop_instances', w.gm, {
        shop_instance: { shop_template_id: w.template.id, party_id: w.party.id, name: 'Back Room' },
      }),
    ).data;
    await callApi(ctx, 'PATCH', `/shop_instances/${closed.id}`, w.gm, {
      shop_instance: { is_active: false },
    });
    const list = (user: SignedInUser, query = '') =>
      callApi(ctx, 'GET', `/shop_instances?party_id=${w.party.id}&per_page=1${query}`, user);
    type Listed = {
      data: { instances: (ShopInstance & { own_prices_cp?: unknown })[] };
      meta: {
        total: number;
        total_pages: number;
        summary: { active: number; inactive: number; items: number };
      };
    };
    const first = json<Listed>(await list(w.gm));
    // One shop a page, the summary over both: spec/02 §2 "summary (active, inactive, total items)".
    expect(first.meta).toMatchObject({
      total: 2,
      total_pages: 2,
      summary: { active: 1, inactive: 1, items: 2 },
    });
    const [backRoom] = first.data.instances;
    expect(backRoom).toMatchObject({
      id: closed.id,
      items_count: 1,
      is_active: false,
      container: { id: expect.any(String), name: expect.any(String) },
    });
    expect(backRoom?.container).not.toHaveProperty('item_instances');
    expect(backRoom).not.toHaveProperty('own_prices_cp');
    const corner = (user: SignedInUser) =>
      list(user, '&page=2').then((r) => json<Listed>(r).data.instances[0]);
    // The GM counts every pending request of the shop; the player their own (as the shop itself says).
    expect(await corner(w.gm)).toMatchObject({ id: w.shop.id, items_count: 1, pending_requests_count: 1 });
    expect(await corner(w.player)).toMatchObject({
      pending_requests_count: 1,
      can_trade: true,
      can_manage: false,
    });
    const stranger = await createMember(ctx, w.party, 'player');
    expect(await corner(stranger)).toMatchObject({ pending_requests_count: 0, can_trade: false });
    // The shop itself keeps its stock.
    const detail = body<ShopInstance>(await callApi(ctx, 'GET', `/shop_instances/${w.shop.id}`, w.gm)).data;
    expect(detail.container.item_instances.length).toBeGreaterThan(0);
    expect(detail.pending_requests_count).toBe(1);
  });
});

describe('approving a request the buyer can no longer pay for', () => {
  it('tells the GM whose container is short of coins, and how much', async () => {
    const w = await world({ stock: 1, stackSize: 1, price: 100 });
    await giveCoins(w.player, w.heroBag, 'gp', 1);
    await callApi(ctx, 'PATCH', `/shop_instances/${w.shop.id}`, w.gm, {
      shop_instance: { approval_threshold_cp: 50 },
    });
    const asked = await callApi(ctx, 'POST', `/shop_instances/${w.shop.id}/purchase`, w.player, {
      purchase: {
        item_instance_id: w.stack.id,
        quantity: 1,
        buyer_character_id: w.hero.id,
        buyer_container_id: w.heroBag,
      },
    });
    expect(asked.statusCode, asked.body).toBe(202);
    const id = body<{ request: { id: string } }>(asked).data.request.id;
    // The buyer spends the coins elsewhere before the GM gets to the request.
    await ctx.database.db
      .delete(itemInstances)
      .where(
        and(
          eq(itemInstances.containerId, w.heroBag),
          sql`${itemInstances.itemTemplateId} in (select id from item_templates where system_key like 'coin:%')`,
        ),
      );
    const [bag] = await ctx.database.db.select().from(containers).where(eq(containers.id, w.heroBag));
    const approved = await callApi(ctx, 'POST', `/shop_requests/${id}/approve`, w.gm, {});
    expect(approved.statusCode, approved.body).toBe(422);
    expect(body(approved).error).toMatchObject({
      code: 'INSUFFICIENT_FUNDS',
      message: `${w.hero.name}’s ${bag?.name} is short of coins: 1 gp more is needed.`,
    });
  });
});

describe('restock', () => {
  it('restocks on schedule without anyone online, once, with two pollers', async () => {
    const w = await world({ stock: 4 });
    await giveCoins(w.player, w.heroBag, 'gp', 10);
    await callApi(ctx, 'POST', `/shop_instances/${w.shop.id}/purchase`, w.player, {
      purchase: {
        item_instance_id: w.stack.id,
        quantity: 3,
        buyer_character_id: w.hero.id,
        buyer_container_id: w.heroBag,
      },
    });
    const schedule = body<{ next_restock_at: string; label: string }>(
      await callApi(ctx, 'GET', `/shop_instances/${w.shop.id}/restock_schedule`, w.player),
    ).data;
    expect(schedule.label).toBe('Every 2 days');
    expect(await ctx.app.services.jobs.runDue()).toBe(0);
    const before = clock;
    clock = new Date(new Date(schedule.next_restock_at).getTime() + 1000);
    try {
      // Two pollers at once, as two server processes would: the restock still happens once.
      await Promise.all([ctx.app.services.jobs.runDue(), ctx.app.services.jobs.runDue()]);
      const shop = body<ShopInstance>(
        await callApi(ctx, 'GET', `/shop_instances/${w.shop.id}`, w.player),
      ).data;
      expect(shop.container.item_instances.reduce((n, i) => n + i.quantity, 0)).toBe(4);
      expect(shop.next_restock_at).toBe(new Date(clock.getTime() + 2 * 86_400_000).toISOString());
      const rows = await ctx.database.db
        .select()
        .from(transactions)
        .where(
          and(
            eq(transactions.destinationContainerId, w.shop.container.id),
            sql`${transactions.details}->>'reason' = 'restock'`,
          ),
        );
      expect(rows).toHaveLength(1);
      // spec/02 §3 `create`: goods a shop makes for itself (issue 14); `delete` when the shop goes.
      expect(rows[0]).toMatchObject({ quantity: 3, actorId: null, transactionType: 'create' });
      expect(await ctx.app.services.jobs.runDue()).toBe(0);
    } finally {
      clock = before;
    }
  });

  it('leaves out a line whose item was deleted: marked on the template, not deployed, not restocked', async () => {
    const w = await world({ stock: 5 });
    const map = await createTemplate(ctx, { name: 'Old Map', creatorId: w.gm.user.id });
    const lantern = await createTemplate(ctx, {
      name: 'Lantern',
      baseValue: 1,
      currency: 'gp',
      creatorId: w.gm.user.id,
    });
    for (const [item, quantity] of [
      [map, 2],
      [lantern, 3],
    ] as const) {
      const added = await callApi(ctx, 'POST', `/shop_templates/${w.template.id}/add_item`, w.gm, {
        shop_item: { item_template_id: item.id, quantity },
      });
      expect(added.statusCode, added.body).toBeLessThan(300);
    }
    expect((await callApi(ctx, 'DELETE', `/item_templates/${map.id}`, w.gm)).statusCode).toBe(204);
    const template = body<ShopTemplate>(
      await callApi(ctx, 'GET', `/shop_templates/${w.template.id}`, w.gm),
    ).data;
    expect(
      (template.shop_items ?? []).map((line) => [line.item_template?.name, line.available]).sort(),
    ).toEqual([
      ['Lantern', true],
      ['Old Map', false],
      ['Rope', true],
    ]);

    const shop = body<ShopInstance>(
      await callApi(ctx, 'POST', '/shop_instances', w.gm, {
        shop_instance: { shop_template_id: w.template.id, party_id: w.party.id },
      }),
    ).data;
    expect(await heldIn(shop.container.id, map.id)).toBe(0);
    expect(await heldIn(shop.container.id, lantern.id)).toBe(3);

    // Lanterns sold, then the lantern deleted: the restock brings the rope back, not the lantern.
    await giveCoins(w.player, w.heroBag, 'gp', 10);
    const lanterns = shop.container.item_instances.find((stack) => stack.item_template_id === lantern.id);
    const rope = shop.container.item_instances.find((stack) => stack.item_template_id === w.rope.id);
    for (const [stack, quantity] of [
      [lanterns, 2],
      [rope, 1],
    ] as const) {
      const bought = await callApi(ctx, 'POST', `/shop_instances/${shop.id}/purchase`, w.player, {
        purchase: {
          item_instance_id: stack?.id,
          quantity,
          buyer_character_id: w.hero.id,
          buyer_container_id: w.heroBag,
        },
      });
      expect(bought.statusCode, bought.body).toBe(200);
    }
    expect((await callApi(ctx, 'DELETE', `/item_templates/${lantern.id}`, w.gm)).statusCode).toBe(204);
    const restocked = await callApi(ctx, 'POST', `/shop_instances/${shop.id}/restock`, w.gm);
    expect(restocked.statusCode, restocked.body).toBe(200);
    expect(await heldIn(shop.container.id, w.rope.id)).toBe(5);
    expect(await heldIn(shop.container.id, lantern.id)).toBe(1);
  });

  it('never answers 500 when the GM changes or restocks a shop while its scheduled restock runs', async () => {
    const w = await world({ stock: 4 });
    const before = clock;
    try {
      for (let round = 0; round < 6; round++) {
        const schedule = body<{ next_restock_at: string }>(
          await callApi(ctx, 'GET', `/shop_instances/${w.shop.id}/restock_schedule`, w.gm),
        ).data;
        clock = new Date(new Date(schedule.next_restock_at).getTime() + 1000);
        // The job locks its row then the shop; these lock the shop then rewrite the job row.
        const [, changed, restocked] = await Promise.all([
          ctx.app.services.jobs.runDue(),
          callApi(ctx, 'PATCH', `/shop_instances/${w.shop.id}`, w.gm, {
            shop_instance: { restock_days: 2 + (round % 2) },
          }),
          callApi(ctx, 'POST', `/shop_instances/${w.shop.id}/restock`, w.gm),
        ]);
        expect(changed.statusCode).toBe(200);
        expect(restocked.statusCode).toBe(200);
      }
      // Whatever ran first, the shelf is at its level, never above it.
      const shop = body<ShopInstance>(await callApi(ctx, 'GET', `/shop_instances/${w.shop.id}`, w.gm)).data;
      expect(shop.container.item_instances.reduce((n, i) => n + i.quantity, 0)).toBe(4);
    } finally {
      clock = before;
    }
  });

  it('leaves an archived party’s shop as it is, and keeps its schedule', async () => {
    const w = await world({ stock: 4 });
    await giveCoins(w.player, w.heroBag, 'gp', 10);
    await callApi(ctx, 'POST', `/shop_instances/${w.shop.id}/purchase`, w.player, {
      purchase: {
        item_instance_id: w.stack.id,
        quantity: 3,
        buyer_character_id: w.hero.id,
        buyer_container_id: w.heroBag,
      },
    });
    const schedule = body<{ next_restock_at: string }>(
      await callApi(ctx, 'GET', `/shop_instances/${w.shop.id}/restock_schedule`, w.gm),
    ).data;
    expect((await callApi(ctx, 'POST', `/parties/${w.party.id}/archive`, w.gm)).statusCode).toBe(200);
    const before = clock;
    clock = new Date(new Date(schedule.next_restock_at).getTime() + 1000);
    try {
      await ctx.app.services.jobs.runDue();
      const shop = body<ShopInstance>(await callApi(ctx, 'GET', `/shop_instances/${w.shop.id}`, w.gm)).data;
      expect(shop.container.item_instances.reduce((n, i) => n + i.quantity, 0)).toBe(1);
      const job = await ctx.app.services.jobs.find(ctx.database.db, `shop_restock:${w.shop.id}`);
      expect(job?.runAt.getTime()).toBeGreaterThan(clock.getTime());
    } finally {
      clock = before;
    }
  });

  it('restocks by hand for the GM, and stocks an item of theirs with its own price', async () => {
    const w = await world({ stock: 2 });
    const gmHero = await createCharacter(ctx, w.gm, { partyId: w.party.id, maxWeight: null, maxSlots: null });
    const sword = await createTemplate(ctx, { name: 'Old sword', baseValue: 10, currency: 'gp' });
    const [made] = await ctx.app.services.inventory.createInstance(actorOf(w.gm), {
      item_template_id: sword.id,
      container_id: gmHero.primary_container_id ?? '',
      quantity: 1,
    });
    const stocked = await callApi(ctx, 'POST', `/shop_instances/${w.shop.id}/stock`, w.gm, {
      item_id: made?.id,
      source_container_id: gmHero.primary_container_id,
      quantity: 1,
      price: 1234,
    });
    expect(stocked.statusCode).toBe(200);
    const item = body<ShopInstance>(stocked).data.container.item_instances.find(
      (i) => i.name === 'Old sword',
    );
    expect(item).toMatchObject({ buy_price_cp: 1234, has_own_price: true });
    const restocked = await callApi(ctx, 'POST', `/shop_instances/${w.shop.id}/restock`, w.gm);
    expect(body<{ added: unknown[] }>(restocked).data.added).toEqual([]);
    expect((await callApi(ctx, 'DELETE', `/shop_instances/${w.shop.id}`, w.player)).statusCode).toBe(403);
    expect((await callApi(ctx, 'DELETE', `/shop_instances/${w.shop.id}`, w.gm)).statusCode).toBe(204);
    const destroyed = await ctx.database.db
      .select()
      .from(transactions)
      .where(
        and(
          eq(transactions.sourceContainerId, w.shop.container.id),
          eq(transactions.transactionType, 'delete'),
        ),
      );
    expect(destroyed.map((r) => r.itemName).sort()).toEqual(['Old sword', 'Rope']);
    // Its opening stock was a `create` (issue 14), as a person's marketplace additions are `item_creation`.
    const opened = await ctx.database.db
      .select()
      .from(transactions)
      .where(eq(transactions.destinationContainerId, w.shop.container.id));
    expect(
      opened.filter((r) => r.itemName === 'Rope').map((r) => [r.transactionType, r.quantity]),
    ).toContainEqual(['create', 2]);
    expect(opened.some((r) => r.transactionType === 'item_creation')).toBe(false);
  });
});

describe('selling along a line of the seller’s items', () => {
  /** A player holding 3 ropes that do not stack (three stacks of one) beside a shop that buys them. */
  async function seller() {
    const w = await world({ stock: 1, stackSize: 1, price: 100 });
    const made = await ctx.app.services.inventory.createInstance(actorOf(w.player), {
      item_template_id: w.rope.id,
      container_id: w.heroBag,
      quantity: 3,
    });
    const ids = made.map((i) => i.id);
    expect(made.map((i) => i.quantity)).toEqual([1, 1, 1]);
    const sell = (
      itemId: string,
      quantity: number,
      who = w.player,
      characterId = w.hero.id,
      bag = w.heroBag,
    ) =>
      callApi(ctx, 'POST', `/shop_instances/${w.shop.id}/sell`, who, {
        sell: {
          item_instance_id: itemId,
          quantity,
          seller_character_id: characterId,
          seller_container_id: bag,
        },
      });
    const ropesIn = (containerId: string) => heldIn(containerId, w.rope.id);
    return { ...w, ids, sell, ropesIn };
  }

  it('sells three items that do not stack in one sale with one row, and never more than the line holds', async () => {
    const w = await seller();
    const [first = ''] = w.ids;
    const tooMany = await w.sell(first, 4);
    expect(tooMany.statusCode).toBe(422);
    expect(JSON.stringify(body(tooMany).error)).toContain('You have only 3.');
    expect(await w.ropesIn(w.heroBag)).toBe(3);

    const sold = await w.sell(first, 3);
    expect(sold.statusCode, sold.body).toBe(200);
    // Rope is worth 1 gp; the shop pays half: 5 sp each.
    expect(body<TradeResult>(sold).data).toMatchObject({ quantity: 3, total_price_cp: 150 });
    expect(await w.ropesIn(w.heroBag)).toBe(0);
    expect(await w.ropesIn(w.shop.container.id)).toBe(4);
    expect(await purse(w.heroBag)).toEqual({ gp: 1, sp: 5 });
    const rows = await ctx.database.db
      .select()
      .from(transactions)
      .where(and(eq(transactions.itemTemplateId, w.rope.id), eq(transactions.transactionType, 'sale')));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ quantity: 3, amountCp: 150 });
  });

  it('leaves a rope that keeps to itself (equipped) out of the line', async () => {
    const w = await seller();
    const [first = '', , last = ''] = w.ids;
    await ctx.database.db
      .update(itemInstances)
      .set({ instanceData: { is_equipped: true } })
      .where(eq(itemInstances.id, last));
    expect(JSON.stringify(body(await w.sell(first, 3)).error)).toContain('You have only 2.');
    expect((await w.sell(first, 2)).statusCode).toBe(200);
    expect(await w.ropesIn(w.heroBag)).toBe(1);
    // The equipped one sells only from itself.
    expect((await w.sell(last, 2)).statusCode).toBe(422);
  });

  it('two sales racing for the same line never sell more than it holds, nor pay twice', async () => {
    const w = await seller();
    const [first = ''] = w.ids;
    const results = await Promise.all([w.sell(first, 2), w.sell(first, 2)]);
    // The second finds the rope it named already sold: not found in that container, nothing moves.
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 404]);
    expect(await w.ropesIn(w.heroBag)).toBe(1);
    expect(await w.ropesIn(w.shop.container.id)).toBe(3);
    expect(await purse(w.heroBag)).toEqual({ gp: 1 });
  });
});

describe('a clone of a shop template with a long name', () => {
  it('is cut between characters, never inside an emoji sequence', async () => {
    const gm = await createUser(ctx);
    await upgrade(ctx, gm, 'tier_3');
    const family = '👨‍👩‍👧';
    const template = body<ShopTemplate>(
      await callApi(ctx, 'POST', '/shop_templates', gm, {
        shop_template: { name: `Ab${family.repeat(12)}` },
      }),
    ).data;
    const clone = await callApi(ctx, 'POST', `/shop_templates/${template.id}/clone`, gm);
    expect(clone.statusCode, clone.body).toBe(201);
    expect(body<ShopTemplate>(clone).data.name).toBe(`Ab${family.repeat(11)} (Copy)`);
  });
});
