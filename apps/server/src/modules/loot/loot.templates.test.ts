import { type LootItem, type LootTemplate, lootMessages, MAX_LOOT_ITEMS } from '@haversack/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { itemTemplates } from '../../db/schema/items.js';
import { lootTemplateItems } from '../../db/schema/loot-items.js';
import {
  coinTemplate,
  createLootTemplate,
  createParty,
  createTemplate,
  createUser,
  deployLoot,
  type SignedInUser,
  upgrade,
} from '../../test/factories.js';
import { buildTestApp, callApi, type TestContext } from '../../test/helper.js';
import { systemLoot } from './loot.catalogue.js';

let ctx: TestContext;

beforeAll(async () => {
  ctx = await buildTestApp();
});
afterAll(async () => ctx.close());

type Envelope<T> = {
  status: string;
  data: T;
  message?: string;
  meta?: { total_count: number; total_pages: number; current_page: number; per_page: number };
  error?: { code: string; message: string; status: number; details?: { field: string; message: string }[] };
};
const body = <T>(response: { json(): unknown }) => response.json() as Envelope<T>;

async function paidUser(): Promise<SignedInUser> {
  const user = await createUser(ctx);
  await upgrade(ctx, user, 'tier_1');
  return user;
}

describe('the seeded loot catalogue', () => {
  it('lists the public system loot to a new user, every item and coin resolved from the catalogue', async () => {
    const user = await createUser(ctx);
    const res = await callApi(
      ctx,
      'GET',
      '/loot_templates?visibility=public&include=loot_items&per_page=100',
      user,
    );
    expect(res.statusCode).toBe(200);
    const system = body<LootTemplate[]>(res).data.filter((t) => t.is_system);
    expect(system.map((t) => t.name).sort()).toEqual(systemLoot.map((l) => l.name).sort());
    for (const loot of systemLoot) {
      const seeded = system.find((t) => t.name === loot.name);
      // The seed skips a line it cannot find: every line of the code must be there, with its quantity.
      expect(seeded?.loot_items?.length, loot.name).toBe(loot.items.length);
      for (const line of loot.items) {
        const found = seeded?.loot_items?.find((i) =>
          'coin' in line ? i.coin === line.coin : i.item_template?.name === line.srd,
        );
        expect(found?.quantity, `${loot.name}: ${JSON.stringify(line)}`).toBe(line.quantity);
      }
    }
    const hoard = system.find((t) => t.name === 'Dragon’s Hoard');
    expect(hoard).toMatchObject({
      source_type: 'hoard',
      source_type_name: 'Treasure Hoard',
      creator_id: null,
    });
    // 12,000 gp + 600 pp + 3,000 sp and the items' own worth.
    expect(hoard?.total_value_cp).toBeGreaterThan(12_000 * 100 + 600 * 1000 + 3_000 * 10);
  });

  it('cannot be changed by anyone, and duplicates into a private copy that counts against the plan', async () => {
    const user = await paidUser();
    const [goblin] = body<LootTemplate[]>(
      await callApi(ctx, 'GET', '/loot_templates?visibility=public&search=goblin', user),
    ).data;
    if (!goblin) throw new Error('the goblin’s pouch is seeded');
    const patched = await callApi(ctx, 'PATCH', `/loot_templates/${goblin.id}`, user, {
      loot_template: { name: 'Mine now' },
    });
    expect(patched.statusCode).toBe(403);
    expect(body(patched).error?.message).toBe(
      'Catalogue loot cannot be changed. Duplicate it to make your own version.',
    );
    expect((await callApi(ctx, 'DELETE', `/loot_templates/${goblin.id}`, user)).statusCode).toBe(403);
    expect(
      (
        await callApi(ctx, 'POST', `/loot_templates/${goblin.id}/loot_items`, user, {
          currency: 'gp',
          quantity: 1,
        })
      ).statusCode,
    ).toBe(403);
    const copy = await callApi(ctx, 'POST', `/loot_templates/${goblin.id}/duplicate`, user);
    expect(copy.statusCode).toBe(201);
    expect(body<LootTemplate>(copy)).toMatchObject({
      message: 'Loot template duplicated',
      data: { name: 'Goblin’s Pouch (Copy)', visibility: 'private', is_owner: true, is_system: false },
    });
    expect(body<LootTemplate>(copy).data.loot_items?.length).toBe(goblin.items_count);
    const second = await callApi(ctx, 'POST', `/loot_templates/${goblin.id}/duplicate`, user);
    expect(body<LootTemplate>(second).data.name).toBe('Goblin’s Pouch (Copy 2)');
    const usage = await ctx.app.services.entitlements.usage(ctx.database.db, user.user.id);
    expect(usage.loot_templates).toEqual({ used: 2, limit: 10 });
  });
});

describe('loot templates', () => {
  it('refuses the free plan (loot_templates 0) and validates the form with 422 in the envelope', async () => {
    const free = await createUser(ctx);
    const refused = await callApi(ctx, 'POST', '/loot_templates', free, { loot_template: { name: 'Nope' } });
    expect(refused.statusCode).toBe(403);
    expect(body(refused).error).toMatchObject({ code: 'LIMIT_EXCEEDED', status: 403 });
    const [goblin] = body<LootTemplate[]>(
      await callApi(ctx, 'GET', '/loot_templates?visibility=public&search=goblin', free),
    ).data;
    expect((await callApi(ctx, 'POST', `/loot_templates/${goblin?.id}/duplicate`, free)).statusCode).toBe(
      403,
    );
    await upgrade(ctx, free, 'tier_1');
    for (const [payload, field] of [
      [{ loot_template: { name: '' } }, 'loot_template.name'],
      [{ loot_template: { name: 'x'.repeat(100) } }, 'loot_template.name'],
      [{ loot_template: { name: 'Ok', source_type: 'dragon' } }, 'loot_template.source_type'],
      [{ loot_template: { name: 'Ok', visibility: 'everyone' } }, 'loot_template.visibility'],
      [{ loot_template: { name: 'Bad\u0000name' } }, 'loot_template.name'],
      [{ name: 'Not wrapped' }, 'loot_template'],
    ] as const) {
      const res = await callApi(ctx, 'POST', '/loot_templates', free, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(422);
      expect(body(res).error?.code).toBe('VALIDATION_ERROR');
      expect(body(res).error?.details?.map((d) => d.field)).toContain(field);
    }
    const bad = await callApi(ctx, 'POST', '/loot_templates', free, { loot_template: { name: '' } });
    expect(body(bad).error?.details?.[0]?.message).toBe('Loot name is required');
    const usage = await ctx.app.services.entitlements.usage(ctx.database.db, free.user.id);
    expect(usage.loot_templates.used).toBe(0);
  });

  it('creates, reads, filters, sorts, pages, updates and deletes; others see only what is public', async () => {
    const owner = await paidUser();
    const other = await paidUser();
    const created = await callApi(ctx, 'POST', '/loot_templates', owner, {
      loot_template: {
        name: 'Orc Warband',
        description: 'Axes and teeth',
        source_type: 'encounter',
        source: 'Orcs',
        tag_list: 'Orc, orc, Camp',
      },
    });
    expect(created.statusCode).toBe(201);
    const orc = body<LootTemplate>(created).data;
    expect(body(created).message).toBe('Loot template created successfully');
    expect(orc).toMatchObject({
      tag_list: ['orc', 'camp'],
      visibility: 'private',
      source_type_name: 'Encounter',
      items_count: 0,
      total_value_cp: 0,
      is_owner: true,
      loot_items: [],
    });
    // Private: it does not exist for anyone else.
    expect((await callApi(ctx, 'GET', `/loot_templates/${orc.id}`, other)).statusCode).toBe(404);
    expect((await callApi(ctx, 'GET', `/loot_templates/${orc.id}/loot_items`, other)).statusCode).toBe(404);
    expect(
      (await callApi(ctx, 'PATCH', `/loot_templates/${orc.id}`, other, { loot_template: { name: 'Mine' } }))
        .statusCode,
    ).toBe(404);
    expect((await callApi(ctx, 'POST', `/loot_templates/${orc.id}/duplicate`, other)).statusCode).toBe(404);

    const rope = await createTemplate(ctx, { name: 'Rope', baseValue: 1, currency: 'gp', stackSize: 0 });
    await callApi(ctx, 'POST', `/loot_templates/${orc.id}/loot_items`, owner, {
      loot_item: { item_template_id: rope.id, quantity: 3 },
    });
    const second = await createLootTemplate(ctx, owner, [{ currency: 'pp', quantity: 2 }], {
      name: 'Another Find',
      visibility: 'unlisted',
    });
    const updated = await callApi(ctx, 'PUT', `/loot_templates/${orc.id}`, owner, {
      loot_template: { visibility: 'public', description: 'Axes, teeth and a purse' },
    });
    expect(updated.statusCode).toBe(200);
    expect(body<LootTemplate>(updated).data).toMatchObject({ visibility: 'public', total_value_cp: 300 });
    // Public now: others read it but may not change it.
    expect((await callApi(ctx, 'GET', `/loot_templates/${orc.id}`, other)).statusCode).toBe(200);
    const refused = await callApi(ctx, 'PATCH', `/loot_templates/${orc.id}`, other, {
      loot_template: { name: 'Mine' },
    });
    expect(refused.statusCode).toBe(403);
    expect(body(refused).error?.message).toBe('Only the creator of this loot template can change it.');
    // Unlisted: readable by id, listed for its owner only.
    expect((await callApi(ctx, 'GET', `/loot_templates/${second.id}`, other)).statusCode).toBe(200);

    const list = async (user: SignedInUser, query: string) =>
      body<LootTemplate[]>(await callApi(ctx, 'GET', `/loot_templates?${query}`, user));
    expect((await list(owner, 'mine=true')).data.map((t) => t.name)).toEqual(['Another Find', 'Orc Warband']);
    expect((await list(other, 'mine=true')).data).toEqual([]);
    expect((await list(other, `creator_id=${owner.user.id}`)).data.map((t) => t.id)).toEqual([orc.id]);
    expect(
      (await list(owner, `creator_id=${owner.user.id}&visibility=unlisted`)).data.map((t) => t.id),
    ).toEqual([second.id]);
    expect((await list(other, 'visibility=unlisted')).data).toEqual([]);
    expect((await list(other, 'tag=ORC&source_type=encounter')).data.map((t) => t.id)).toEqual([orc.id]);
    expect((await list(other, 'filters[tag]=camp&search=warband')).data.map((t) => t.id)).toEqual([orc.id]);
    expect((await list(other, 'tag=orc&source_type=hoard')).data).toEqual([]);
    const byValue = await list(owner, `creator_id=${owner.user.id}&sort_by=value&sort_order=desc`);
    expect(byValue.data.map((t) => t.total_value_cp)).toEqual([2000, 300]);
    const paged = await list(owner, `creator_id=${owner.user.id}&sort=name&direction=desc&per_page=1&page=2`);
    expect(paged.data.map((t) => t.name)).toEqual(['Another Find']);
    expect(paged.meta).toEqual({ current_page: 2, per_page: 1, total_count: 2, total_pages: 2 });
    for (const query of [
      'per_page=0',
      'sort=rating',
      'source_type=dragon',
      'creator_id=nobody',
      'include=everything',
    ]) {
      const res = await callApi(ctx, 'GET', `/loot_templates?${query}`, owner);
      expect(res.statusCode, query).toBe(422);
      expect(body(res).error?.code).toBe('VALIDATION_ERROR');
    }

    expect((await callApi(ctx, 'DELETE', `/loot_templates/${orc.id}`, other)).statusCode).toBe(403);
    expect((await callApi(ctx, 'DELETE', `/loot_templates/${orc.id}`, owner)).statusCode).toBe(204);
    expect((await callApi(ctx, 'GET', `/loot_templates/${orc.id}`, owner)).statusCode).toBe(404);
    const usage = await ctx.app.services.entitlements.usage(ctx.database.db, owner.user.id);
    expect(usage.loot_templates.used).toBe(1);
  });

  it('holds loot items: items and coins, again adds up, changes and removes them; bad input is 422', async () => {
    const owner = await paidUser();
    const stranger = await paidUser();
    const template = await createLootTemplate(ctx, owner, []);
    const sword = await createTemplate(ctx, { name: 'Sword', baseValue: 15, currency: 'gp', stackSize: 1 });
    const privateGem = await createTemplate(ctx, {
      name: 'Secret gem',
      visibility: 'private',
      creatorId: stranger.user.id,
    });
    const gold = await coinTemplate(ctx, 'gp');
    const add = (payload: unknown, user = owner) =>
      callApi(ctx, 'POST', `/loot_templates/${template.id}/loot_items`, user, payload);

    const first = await add({ item_template_id: sword.id, quantity: 2 });
    expect(first.statusCode).toBe(201);
    const swordLine = body<LootItem>(first).data;
    expect(swordLine).toMatchObject({ quantity: 2, coin: null, value_cp: 1500, total_value_cp: 3000 });
    const coins = body<LootItem>(await add({ loot_item: { currency: 'gp', quantity: 50 } })).data;
    expect(coins).toMatchObject({
      item_template_id: gold.id,
      coin: 'gp',
      quantity: 50,
      total_value_cp: 5000,
    });
    expect(body<LootItem>(await add({ currency: 'gp', quantity: 25 })).data).toMatchObject({
      id: coins.id,
      quantity: 75,
    });
    for (const [payload, field] of [
      [{ quantity: 1 }, 'item_template_id'],
      [{ item_template_id: sword.id, currency: 'gp' }, 'item_template_id'],
      [{ currency: 'doubloons' }, 'currency'],
      [{ item_template_id: sword.id, quantity: 0 }, 'quantity'],
      [{ item_template_id: sword.id, quantity: 1.5 }, 'quantity'],
      [{ item_template_id: sword.id, quantity: 10_000_001 }, 'quantity'],
      [{ item_template_id: 'not-an-id' }, 'item_template_id'],
      [{ item_template_id: privateGem.id }, 'item_template_id'],
    ] as const) {
      const res = await add(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(422);
      expect(body(res).error?.details?.map((d) => d.field)).toContain(field);
    }
    expect((await add({ currency: 'gp', quantity: 1 }, stranger)).statusCode).toBe(404);

    const items = body<LootItem[]>(
      await callApi(ctx, 'GET', `/loot_templates/${template.id}/loot_items`, owner),
    ).data;
    expect(items.map((i) => [i.item_template?.name, i.quantity])).toEqual([
      ['Gold piece', 75],
      ['Sword', 2],
    ]);
    const changed = await callApi(
      ctx,
      'PATCH',
      `/loot_templates/${template.id}/loot_items/${swordLine.id}`,
      owner,
      {
        loot_item: { quantity: 4 },
      },
    );
    expect(body<LootItem>(changed).data.quantity).toBe(4);
    expect(
      (
        await callApi(ctx, 'PATCH', `/loot_templates/${template.id}/loot_items/${swordLine.id}`, owner, {
          quantity: -1,
        })
      ).statusCode,
    ).toBe(422);
    expect(
      (
        await callApi(ctx, 'PATCH', `/loot_templates/${template.id}/loot_items/${swordLine.id}`, stranger, {
          quantity: 9,
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (await callApi(ctx, 'DELETE', `/loot_templates/${template.id}/loot_items/${swordLine.id}`, owner))
        .statusCode,
    ).toBe(204);
    expect(
      (await callApi(ctx, 'DELETE', `/loot_templates/${template.id}/loot_items/${swordLine.id}`, owner))
        .statusCode,
    ).toBe(404);
    const detail = body<LootTemplate>(
      await callApi(ctx, 'GET', `/loot_templates/${template.id}`, owner),
    ).data;
    expect(detail).toMatchObject({ items_count: 1, total_value_cp: 7500 });
  });

  it('counts a deployed loot’s items as its template counts them: kinds, not stacks', async () => {
    const gm = await paidUser();
    const party = await createParty(ctx, gm);
    const dagger = await createTemplate(ctx, { name: 'Dagger', stackSize: 1 });
    const arrows = await createTemplate(ctx, { name: 'Arrow', stackSize: 0 });
    const template = await createLootTemplate(ctx, gm, [
      { item_template_id: dagger.id, quantity: 3 },
      { item_template_id: arrows.id, quantity: 20 },
    ]);
    const loot = await deployLoot(ctx, gm, party.id, template.id);
    // Three daggers do not stack: four stacks, two kinds of items.
    expect(loot.container.item_instances).toHaveLength(4);
    expect(template.items_count).toBe(2);
    expect(loot.items_count).toBe(2);
  });

  it('counts a template’s item units as its deployed loot’s card does: non-coin quantities, coins as worth', async () => {
    const gm = await paidUser();
    const party = await createParty(ctx, gm);
    const dagger = await createTemplate(ctx, { name: 'Dagger', stackSize: 1 });
    const arrows = await createTemplate(ctx, { name: 'Arrow', stackSize: 0 });
    const gold = await coinTemplate(ctx, 'gp');
    const template = await createLootTemplate(ctx, gm, [
      { item_template_id: dagger.id, quantity: 3 },
      { item_template_id: arrows.id, quantity: 20 },
      { item_template_id: gold.id, quantity: 5 },
    ]);
    const listed = body<LootTemplate[]>(await callApi(ctx, 'GET', '/loot_templates?mine=true', gm)).data;
    const detail = body<LootTemplate>(await callApi(ctx, 'GET', `/loot_templates/${template.id}`, gm)).data;
    expect(listed.find((t) => t.id === template.id)?.item_units).toBe(23);
    expect(detail.item_units).toBe(23);
    // The coins by the piece, so the card can name them beside the items (live review: "2 items" over 4 rows).
    expect(listed.find((t) => t.id === template.id)?.coin_units).toBe(5);
    expect(detail.coin_units).toBe(5);
    const loot = await deployLoot(ctx, gm, party.id, template.id);
    const deployedUnits = loot.container.item_instances
      .filter((stack) => stack.item_template.coin === null)
      .reduce((sum, stack) => sum + stack.quantity, 0);
    expect(deployedUnits).toBe(23);
  });

  it('marks a line whose item was deleted since as unavailable, and deploys without it', async () => {
    const gm = await paidUser();
    const party = await createParty(ctx, gm);
    const kept = await createTemplate(ctx, { name: 'Gem', stackSize: 0 });
    const retired = await createTemplate(ctx, { name: 'Cursed Idol', creatorId: gm.user.id });
    const template = await createLootTemplate(ctx, gm, [
      { item_template_id: kept.id, quantity: 2 },
      { item_template_id: retired.id, quantity: 1 },
    ]);
    const deleted = await callApi(ctx, 'DELETE', `/item_templates/${retired.id}`, gm);
    expect(deleted.statusCode, deleted.body).toBe(204);

    const read = body<LootTemplate>(await callApi(ctx, 'GET', `/loot_templates/${template.id}`, gm)).data;
    const availability = (read.loot_items ?? []).map((line) => [line.item_template?.name, line.available]);
    expect(availability.sort()).toEqual([
      ['Cursed Idol', false],
      ['Gem', true],
    ]);
    const loot = await deployLoot(ctx, gm, party.id, template.id);
    expect(loot.container.item_instances.map((stack) => [stack.name, stack.quantity])).toEqual([['Gem', 2]]);
  });

  it('answers 401 without a token and 404 for ids that are not loot templates', async () => {
    const user = await paidUser();
    expect((await callApi(ctx, 'GET', '/loot_templates')).statusCode).toBe(401);
    const missing = await callApi(ctx, 'GET', '/loot_templates/3f2b8c1e-9a4d-4e7f-8b6a-1c2d3e4f5a6b', user);
    expect(body(missing).error).toMatchObject({
      code: 'RESOURCE_NOT_FOUND',
      message: 'Loot template not found.',
    });
    expect((await callApi(ctx, 'GET', '/loot_templates/nope', user)).statusCode).toBe(422);
  });
});

describe('the most items a loot template holds', () => {
  it('takes its 200th kind of item, refuses the 201st, and still adds to a line it has', async () => {
    const owner = await paidUser();
    const template = await createLootTemplate(ctx, owner, []);
    // Written straight into the tables: adding 199 items through the API would only slow the test.
    const kinds = await ctx.database.db
      .insert(itemTemplates)
      .values(
        Array.from({ length: MAX_LOOT_ITEMS }, (_, i) => ({
          name: `Trinket ${i}`,
          visibility: 'public' as const,
        })),
      )
      .returning({ id: itemTemplates.id });
    await ctx.database.db
      .insert(lootTemplateItems)
      .values(
        kinds
          .slice(0, MAX_LOOT_ITEMS - 1)
          .map((k) => ({ lootTemplateId: template.id, itemTemplateId: k.id })),
      );
    const add = (itemTemplateId: string | undefined) =>
      callApi(ctx, 'POST', `/loot_templates/${template.id}/loot_items`, owner, {
        item_template_id: itemTemplateId,
        quantity: 1,
      });
    const last = await add(kinds.at(-1)?.id);
    expect(last.statusCode, last.body).toBe(201);
    const extra = await createTemplate(ctx, { name: 'One too many' });
    const refused = await add(extra.id);
    expect(refused.statusCode).toBe(422);
    expect(body(refused).error?.details).toEqual([
      { field: 'item_template_id', message: lootMessages.tooManyItems },
    ]);
    expect(lootMessages.tooManyItems).toBe('A loot template holds at most 200 different items');
    // Another of an item already listed is no new line.
    expect(body<LootItem>(await add(kinds[0]?.id)).data).toMatchObject({ quantity: 2 });
  });
});

describe('a copy of a loot template with a long name', () => {
  it('is cut between characters, never inside an emoji sequence', async () => {
    const user = await paidUser();
    const family = '👨‍👩‍👧';
    const created = await callApi(ctx, 'POST', '/loot_templates', user, {
      loot_template: { name: `Ab${family.repeat(12)}` },
    });
    expect(created.statusCode, created.body).toBe(201);
    const copy = await callApi(
      ctx,
      'POST',
      `/loot_templates/${body<LootTemplate>(created).data.id}/duplicate`,
      user,
    );
    expect(copy.statusCode, copy.body).toBe(201);
    expect(body<LootTemplate>(copy).data.name).toBe(`Ab${family.repeat(11)} (Copy)`);
  });
});
