import type { LedgerTransaction, ShopInstance, ShopTemplate } from '@haversack/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

let ctx: TestContext;
beforeAll(async () => {
  ctx = await buildTestApp();
});
afterAll(async () => ctx.close());

interface Operation {
  id: string;
  summary: string;
  size: number;
  kind?: string;
}
interface Listing {
  data: { transactions: (LedgerTransaction & { operation?: string })[]; operations?: Operation[] };
  meta: { total_count: number; total_pages: number; per_page: number; current_page: number };
}

async function list(viewer: SignedInUser, partyId: string, query: string): Promise<Listing> {
  const response = await ctx.app.inject({
    url: `/api/v1/transactions/party/${partyId}?${query}`,
    headers: viewer.auth,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as Listing;
}

/** A GM with a party and a shop template of ten lines (1 + 2 + … + 10 = 55 items), deployed; a player. */
async function deployedShop() {
  const gm = await createUser(ctx);
  await upgrade(ctx, gm, 'tier_1');
  const party = await createParty(ctx, gm, { encumbrance_style: 'none' });
  const template = (
    (
      await callApi(ctx, 'POST', '/shop_templates', gm, {
        shop_template: { name: 'Ironhand Forge', visibility: 'public' },
      })
    ).json() as { data: ShopTemplate }
  ).data;
  for (let i = 1; i <= 10; i++) {
    const item = await createTemplate(ctx, { name: `Ware ${i}`, baseValue: 1, currency: 'gp', stackSize: 0 });
    await callApi(ctx, 'POST', `/shop_templates/${template.id}/add_item`, gm, {
      shop_item: { item_template_id: item.id, quantity: i },
    });
  }
  const shop = (
    (
      await callApi(ctx, 'POST', '/shop_instances', gm, {
        shop_instance: { shop_template_id: template.id, party_id: party.id },
      })
    ).json() as { data: ShopInstance }
  ).data;
  return { gm, party, shop };
}

describe('the ledger listed one entry per action (group=operation)', () => {
  it('lists a deployment of a ten-line template as one entry with its ten rows behind it', async () => {
    const { gm, party } = await deployedShop();
    const name = gm.user.username;

    const rows = await list(gm, party.id, 'per_page=50');
    const stock = rows.data.transactions.filter((t) => t.transaction_type === 'create');
    expect(stock).toHaveLength(10);
    // Every row names its operation: the ten rows of the deployment name the same one.
    expect(new Set(stock.map((t) => t.operation)).size).toBe(1);
    expect(stock[0]?.operation).toEqual(expect.any(String));

    const grouped = await list(gm, party.id, 'per_page=50&group=operation');
    const deployment = grouped.data.operations?.find((op) => op.id === stock[0]?.operation);
    // The shop's container made, then its ten lines: one entry led by the deployment, ten rows behind it.
    expect(deployment).toEqual({
      id: stock[0]?.operation,
      summary: `${name} deployed Ironhand Forge with 10 kinds of items (55 items)`,
      size: 11,
      kind: 'shop_deployment',
    });
    const behind = grouped.data.transactions.filter((t) => t.operation === deployment?.id);
    expect(behind[0]?.transaction_summary).toBe(`${name} deployed Ironhand Forge`);
    expect(behind.slice(1).map((t) => t.transaction_type)).toEqual(Array(10).fill('create'));
    // The page counts entries, not rows.
    expect(grouped.meta.total_count).toBe(grouped.data.operations?.length);
    expect(grouped.meta.total_count).toBeLessThan(rows.meta.total_count);

    // With the Type filter, the matching rows, still as one entry.
    const created = await list(gm, party.id, 'per_page=50&group=operation&transaction_type=create');
    expect(created.meta.total_count).toBe(1);
    expect(created.data.operations).toEqual([
      {
        id: deployment?.id,
        summary: 'Ironhand Forge stocked 10 kinds of items (55 items)',
        size: 10,
        kind: 'shop_deployment',
      },
    ]);
    expect(created.data.transactions).toHaveLength(10);
  });

  it('lists a purchase as one entry led by the goods, with its coin rows behind it, and pages by entry', async () => {
    const { gm, party, shop } = await deployedShop();
    const player = await createMember(ctx, party, 'player');
    const hero = await createCharacter(ctx, player, { partyId: party.id, maxWeight: null, maxSlots: null });
    const bag = hero.primary_container_id;
    if (!bag) throw new Error('no bag');
    const gp = await coinTemplate(ctx, 'gp');
    await ctx.app.services.inventory.createInstance(
      { id: player.user.id, username: player.user.username },
      { item_template_id: gp.id, container_id: bag, quantity: 5 },
    );
    const line = shop.container.item_instances.find((i) => i.quantity === 4);
    if (!line) throw new Error('no line of 4');
    const bought = await callApi(ctx, 'POST', `/shop_instances/${shop.id}/purchase`, player, {
      purchase: {
        item_instance_id: line.id,
        quantity: 2,
        buyer_character_id: hero.id,
        buyer_container_id: bag,
      },
    });
    expect(bought.statusCode, bought.body).toBe(200);

    // The newest entry alone on page 1: the purchase, goods first, and every one of its rows.
    const first = await list(gm, party.id, 'per_page=1&group=operation');
    const [purchase] = first.data.operations ?? [];
    expect(purchase?.summary).toMatch(/ bought 2 × Ware 4 from Ironhand Forge for 2 gp/);
    const [lead, ...rest] = first.data.transactions;
    expect(lead?.transaction_summary).toBe(purchase?.summary);
    expect(rest.length).toBeGreaterThan(0);
    expect(rest.every((t) => t.operation === purchase?.id)).toBe(true);
    expect(purchase?.size).toBe(first.data.transactions.length);

    // Page 2 is the next action (the coins added), whole.
    const second = await list(gm, party.id, 'per_page=1&page=2&group=operation');
    expect(second.data.operations?.[0]?.id).not.toBe(purchase?.id);
    expect(first.meta.total_pages).toBe(first.meta.total_count);
  });

  it('names what a deployment was, a shop’s or a loot’s, for its entry’s badge, and no other action', async () => {
    const { gm, party } = await deployedShop();
    const rope = await createTemplate(ctx, { name: 'Rope', baseValue: 1, currency: 'gp', stackSize: 0 });
    const goblins = await createLootTemplate(ctx, gm, [{ item_template_id: rope.id, quantity: 3 }], {
      name: 'Goblin Stash',
    });
    await deployLoot(ctx, gm, party.id, goblins.id);
    const name = gm.user.username;

    const grouped = await list(gm, party.id, 'per_page=50&group=operation');
    const kindOf = (summary: string) => grouped.data.operations?.find((op) => op.summary === summary)?.kind;
    // A loot of one line: its headline is the deployment's own row, and still it is named a deployment.
    expect(kindOf(`${name} deployed Goblin Stash`)).toBe('loot_deployment');
    expect(kindOf(`${name} deployed Ironhand Forge with 10 kinds of items (55 items)`)).toBe(
      'shop_deployment',
    );
    const others = grouped.data.operations?.filter((op) => !op.summary.includes(' deployed ')) ?? [];
    expect(others.length).toBeGreaterThan(0);
    expect(others.every((op) => op.kind === undefined)).toBe(true);
  });

  it('leads a purchase request’s entry with what the buyer asked for, named a purchase request', async () => {
    const { gm, party, shop } = await deployedShop();
    const changed = await callApi(ctx, 'PATCH', `/shop_instances/${shop.id}`, gm, {
      shop_instance: { approval_threshold_cp: 0 },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const player = await createMember(ctx, party, 'player');
    const hero = await createCharacter(ctx, player, { partyId: party.id, maxWeight: null, maxSlots: null });
    const bag = hero.primary_container_id;
    if (!bag) throw new Error('no bag');
    const gp = await coinTemplate(ctx, 'gp');
    await ctx.app.services.inventory.createInstance(
      { id: player.user.id, username: player.user.username },
      { item_template_id: gp.id, container_id: bag, quantity: 5 },
    );
    const line = shop.container.item_instances.find((i) => i.quantity === 4);
    if (!line) throw new Error('no line of 4');
    const asked = await callApi(ctx, 'POST', `/shop_instances/${shop.id}/purchase`, player, {
      purchase: {
        item_instance_id: line.id,
        quantity: 2,
        buyer_character_id: hero.id,
        buyer_container_id: bag,
      },
    });
    expect(asked.statusCode, asked.body).toBe(202);

    const first = await list(gm, party.id, 'per_page=1&group=operation');
    const [request] = first.data.operations ?? [];
    expect(request?.summary).toMatch(
      new RegExp(`^${player.user.username} asked to buy 2 × Ware 4 from Ironhand Forge`),
    );
    expect(request?.kind).toBe('shop_request');
    // The hold that keeps the goods is behind it, not its headline.
    expect(first.data.transactions[0]?.transaction_type).not.toBe('container_creation');
    expect(first.data.transactions.map((t) => t.transaction_type)).toContain('container_creation');
  });

  it('names a purchase request the same in the buyer’s character history, which lists no hold', async () => {
    const { gm, party, shop } = await deployedShop();
    const changed = await callApi(ctx, 'PATCH', `/shop_instances/${shop.id}`, gm, {
      shop_instance: { approval_threshold_cp: 0 },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const player = await createMember(ctx, party, 'player');
    const hero = await createCharacter(ctx, player, { partyId: party.id, maxWeight: null, maxSlots: null });
    const bag = hero.primary_container_id;
    if (!bag) throw new Error('no bag');
    const gp = await coinTemplate(ctx, 'gp');
    await ctx.app.services.inventory.createInstance(
      { id: player.user.id, username: player.user.username },
      { item_template_id: gp.id, container_id: bag, quantity: 5 },
    );
    const line = shop.container.item_instances.find((i) => i.quantity === 4);
    if (!line) throw new Error('no line of 4');
    const asked = await callApi(ctx, 'POST', `/shop_instances/${shop.id}/purchase`, player, {
      purchase: {
        item_instance_id: line.id,
        quantity: 2,
        buyer_character_id: hero.id,
        buyer_container_id: bag,
      },
    });
    expect(asked.statusCode, asked.body).toBe(202);

    // The character's history has the goods set aside (its row names the character), not the shop's hold.
    const response = await ctx.app.inject({
      url: `/api/v1/transactions/character/${hero.id}?per_page=1&group=operation`,
      headers: player.auth,
    });
    expect(response.statusCode, response.body).toBe(200);
    const history = response.json() as Listing;
    expect(history.data.transactions.map((t) => t.transaction_type)).toEqual(['transfer']);
    const [request] = history.data.operations ?? [];
    expect(request?.summary).toMatch(new RegExp(`^${player.user.username} asked to buy 2 × Ware 4 `));
    // As the party's Activity tab badges it ("Purchase requested"), not "Transfer".
    expect(request?.kind).toBe('shop_request');
    const activity = await list(gm, party.id, 'per_page=1&group=operation');
    expect(activity.data.operations?.[0]?.kind).toBe(request?.kind);
  });

  it('names a purchase request’s outcome for its entry’s badge: approved, declined or cancelled', async () => {
    const { gm, party, shop } = await deployedShop();
    const changed = await callApi(ctx, 'PATCH', `/shop_instances/${shop.id}`, gm, {
      shop_instance: { approval_threshold_cp: 0 },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const player = await createMember(ctx, party, 'player');
    const hero = await createCharacter(ctx, player, { partyId: party.id, maxWeight: null, maxSlots: null });
    const bag = hero.primary_container_id;
    if (!bag) throw new Error('no bag');
    const gp = await coinTemplate(ctx, 'gp');
    await ctx.app.services.inventory.createInstance(
      { id: player.user.id, username: player.user.username },
      { item_template_id: gp.id, container_id: bag, quantity: 10 },
    );
    const ask = async (quantity: number) => {
      const line = shop.container.item_instances.find((i) => i.quantity === quantity);
      if (!line) throw new Error(`no line of ${quantity}`);
      const asked = await callApi(ctx, 'POST', `/shop_instances/${shop.id}/purchase`, player, {
        purchase: {
          item_instance_id: line.id,
          quantity: 1,
          buyer_character_id: hero.id,
          buyer_container_id: bag,
        },
      });
      expect(asked.statusCode, asked.body).toBe(202);
      const request = (asked.json() as { data: { request: { id: string } | null } }).data.request;
      if (!request) throw new Error('no request');
      return request.id;
    };
    const decide = async (id: string, path: 'approve' | 'decline' | 'cancel', by: SignedInUser) => {
      const decided = await callApi(ctx, 'POST', `/shop_requests/${id}/${path}`, by);
      expect(decided.statusCode, decided.body).toBe(200);
    };
    await decide(await ask(2), 'approve', gm);
    await decide(await ask(3), 'decline', gm);
    await decide(await ask(4), 'cancel', player);

    const grouped = await list(gm, party.id, 'per_page=50&group=operation');
    const kindOf = (pattern: RegExp) =>
      grouped.data.operations?.filter((op) => pattern.test(op.summary)).map((op) => op.kind);
    const buyer = player.user.username;
    const master = gm.user.username;
    expect(kindOf(new RegExp(`^${buyer} bought 1 × Ware 2 .*\\(approved by ${master}\\)$`))).toEqual([
      'shop_request_approved',
    ]);
    expect(kindOf(new RegExp(`^${master} declined ${buyer}’s purchase of 1 × Ware 3$`))).toEqual([
      'shop_request_declined',
    ]);
    expect(kindOf(new RegExp(`^${buyer} cancelled their request for 1 × Ware 4$`))).toEqual([
      'shop_request_cancelled',
    ]);
    // Under a Type filter, the hold each decision dropped still says what became of the request.
    const drops = await list(gm, party.id, 'per_page=50&group=operation&transaction_type=container_deletion');
    expect(drops.data.operations?.map((op) => op.kind).sort()).toEqual([
      'shop_request_approved',
      'shop_request_cancelled',
      'shop_request_declined',
    ]);
    // Each request itself stays named a request.
    expect(kindOf(new RegExp(`^${buyer} asked to buy 1 × Ware [234] `))).toEqual([
      'shop_request',
      'shop_request',
      'shop_request',
    ]);
  });
});
