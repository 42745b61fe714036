import { type ItemTemplate, itemTemplateMessages } from '@haversack/contracts';
import { eq, isNotNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { itemInstances, itemTemplates } from '../../db/schema/items.js';
import { seedDatabase } from '../../db/seed.js';
import {
  createCharacter,
  createMember,
  createParty,
  createUser,
  type SignedInUser,
  upgrade,
} from '../../test/factories.js';
import { type ApiMethod, buildTestApp, callApi, type TestContext } from '../../test/helper.js';
import { EQUIPMENT_PACK_TAG, packContents } from './items.catalogue.js';
import { ItemsService } from './items.service.js';

interface Body {
  data: ItemTemplate & ItemTemplate[];
  meta: { current_page: number; total_pages: number; total_count: number; per_page: number };
  message?: string;
  error: { code: string; message: string; details?: { field: string; message: string }[] };
}

let ctx: TestContext;
beforeAll(async () => {
  ctx = await buildTestApp();
});
afterAll(async () => ctx.close());

const call = (method: ApiMethod, url: string, user?: SignedInUser, payload?: unknown) =>
  callApi(ctx, method, url, user, payload);
const body = (response: { json(): unknown }) => response.json() as Body;

async function createTemplate(user: SignedInUser, fields: Record<string, unknown>): Promise<ItemTemplate> {
  const response = await call('POST', '/item_templates', user, { item_template: fields });
  expect(response.statusCode, response.body).toBe(201);
  return body(response).data;
}

const search = async (user: SignedInUser, query: string) => {
  const response = await call('GET', `/search/items?${query}`, user);
  expect(response.statusCode, response.body).toBe(200);
  return body(response);
};

describe('the seeded catalogue', () => {
  it('holds the five coins and the 578 SRD 5.1 items as public system templates', async () => {
    const system = await ctx.database.db
      .select()
      .from(itemTemplates)
      .where(isNotNull(itemTemplates.systemKey));
    expect(system).toHaveLength(583);
    expect(system.every((t) => t.visibility === 'public' && t.creatorId === null && !t.deletedAt)).toBe(true);
    const coins = system.filter((t) => t.systemKey?.startsWith('coin:'));
    expect(
      coins
        .map((c) => [c.systemKey, c.name, c.baseValue, c.currency, c.stackSize, c.weight, c.tags])
        .sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    ).toEqual([
      ['coin:cp', 'Copper piece', 1, 'cp', 0, 0.02, ['currency', 'category:currency']],
      ['coin:ep', 'Electrum piece', 1, 'ep', 0, 0.02, ['currency', 'category:currency']],
      ['coin:gp', 'Gold piece', 1, 'gp', 0, 0.02, ['currency', 'category:currency']],
      ['coin:pp', 'Platinum piece', 1, 'pp', 0, 0.02, ['currency', 'category:currency']],
      ['coin:sp', 'Silver piece', 1, 'sp', 0, 0.02, ['currency', 'category:currency']],
    ]);
    expect(system.filter((t) => t.metadata.source === 'SRD 5.1')).toHaveLength(578);
  });

  it('maps SRD records: cost, weight, tags, metadata, unpriced items, the gear-table potion and the sling bullet bundle', async () => {
    const byKey = async (key: string) => {
      const [row] = await ctx.database.db
        .select()
        .from(itemTemplates)
        .where(eq(itemTemplates.systemKey, key));
      return row;
    };
    expect(await byKey('srd:longsword')).toMatchObject({
      name: 'Longsword',
      baseValue: 15,
      currency: 'gp',
      weight: 3,
      stackSize: 1,
      tags: ['weapon', 'martial', 'melee', 'versatile', 'slashing', 'category:weapon'],
      metadata: {
        category: 'weapon',
        rarity: null,
        requires_attunement: false,
        source: 'SRD 5.1',
        priced: true,
      },
    });
    expect(await byKey('srd:arrow')).toMatchObject({
      baseValue: 5,
      currency: 'cp',
      weight: 0.05,
      stackSize: 20,
    });
    expect(await byKey('srd:vestments')).toMatchObject({
      baseValue: 0,
      currency: 'gp',
      metadata: expect.objectContaining({ priced: false }),
    });
    expect(await byKey('srd:sling-bullet')).toMatchObject({
      name: 'Sling bullets (20)',
      baseValue: 4,
      currency: 'cp',
      weight: 1.5,
      stackSize: 0,
      metadata: expect.objectContaining({ bundle_size: 20 }),
    });
    // Upstream keeps only the magic item; the SRD's adventuring-gear table sells it at 50 gp and ½ lb.
    expect(await byKey('srd:potion-of-healing')).toMatchObject({
      name: 'Potion of Healing',
      baseValue: 50,
      currency: 'gp',
      weight: 0.5,
      metadata: expect.objectContaining({ rarity: 'common', priced: true }),
    });
    // Priced per piece, so weighed per piece: 20 of them are the SRD's 2 lb bag.
    expect(await byKey('srd:caltrops')).toMatchObject({
      baseValue: 5,
      currency: 'cp',
      weight: 0.1,
      stackSize: 20,
    });
    // A magic item weighs what its own text says it does.
    expect(await byKey('srd:bag-of-holding')).toMatchObject({ weight: 15 });
    expect(await byKey('srd:handy-haversack')).toMatchObject({ weight: 5 });
    expect(await byKey('srd:gray-bag-of-tricks')).toMatchObject({ weight: 0.5 });
    expect(await byKey('srd:bead-of-force')).toMatchObject({ weight: 0.06 });
    expect(await byKey('srd:portable-hole')).toMatchObject({ weight: 0 });
    // A magic weapon or armour of one named kind weighs what that kind weighs; "any sword" names none.
    expect(await byKey('srd:dagger-of-venom')).toMatchObject({ weight: 1 });
    expect(await byKey('srd:dwarven-plate')).toMatchObject({ weight: 65 });
    expect(await byKey('srd:elven-chain')).toMatchObject({ weight: 20 });
    expect(await byKey('srd:red-dragon-scale-mail')).toMatchObject({ weight: 45 });
    expect(await byKey('srd:animated-shield')).toMatchObject({ weight: 6 });
    expect(await byKey('srd:arrow-of-slaying')).toMatchObject({ weight: 0.05 });
    expect(await byKey('srd:armor-1')).toMatchObject({ weight: 0 });
    expect(await byKey('srd:flame-tongue')).toMatchObject({ weight: 0 });
    // Where upstream contradicts the SRD's tables: per-piece weights, stacks, a lost zero, the tack table.
    expect(await byKey('srd:spike-iron')).toMatchObject({ baseValue: 1, currency: 'sp', weight: 0.5 });
    expect(await byKey('srd:dart')).toMatchObject({ stackSize: 20 });
    expect(await byKey('srd:javelin')).toMatchObject({ stackSize: 10 });
    expect(await byKey('srd:barding-ring-mail')).toMatchObject({ baseValue: 120, currency: 'gp' });
    expect(await byKey('srd:saddle-exotic')).toMatchObject({ weight: 40 });
    expect(await byKey('srd:rowboat')).toMatchObject({ weight: 100 });
    expect(await byKey('srd:keelboat')).toMatchObject({ weight: 0 });
    const vorpal = await byKey('srd:vorpal-sword');
    expect(vorpal?.metadata).toMatchObject({ rarity: 'legendary', requires_attunement: true, priced: false });
    expect(vorpal?.tags).toEqual(expect.arrayContaining(['magic', 'attunement', 'category:weapon']));
  });

  it('weighs each equipment pack as the sum of its contents, which is what the SRD gives instead', async () => {
    const system = await ctx.database.db
      .select()
      .from(itemTemplates)
      .where(isNotNull(itemTemplates.systemKey));
    const byName = new Map(system.map((t) => [t.name, t]));
    const packs = system.filter((t) => t.tags.includes(EQUIPMENT_PACK_TAG));
    expect(packs.map((p) => p.name).sort()).toEqual([
      "Burglar's Pack",
      "Diplomat's Pack",
      "Dungeoneer's Pack",
      "Entertainer's Pack",
      "Explorer's Pack",
      "Priest's Pack",
      "Scholar's Pack",
    ]);
    for (const pack of packs) {
      const contents = packContents(pack.name, pack.description, new Set(byName.keys()));
      const sum = contents.reduce(
        (pounds, c) => pounds + c.count * (byName.get(c.name)?.weight ?? Number.NaN),
        0,
      );
      expect(pack.weight, pack.name).toBeGreaterThan(0);
      expect(pack.weight, pack.name).toBeCloseTo(sum, 4);
    }
    // By hand from the SRD's equipment table: backpack 5, bedroll 7, mess kit 1, tinderbox 1, 10 torches
    // at 1, 10 days of rations at 2, waterskin 5, 50 feet of hempen rope 10.
    expect(byName.get("Explorer's Pack")?.weight).toBe(59);
    // Backpack 5, ball bearings 2, string, bell and 5 candles 0 (the SRD gives none), crowbar 5, hammer 3,
    // 10 pitons at ¼, hooded lantern 2, 2 flasks of oil at 1, 5 days of rations at 2, tinderbox 1,
    // waterskin 5, rope 10.
    expect(byName.get("Burglar's Pack")?.weight).toBe(47.5);
  });

  it('reads a pack’s contents by catalogue names, commas and all, and refuses a name it does not know', () => {
    const names = new Set(['Backpack', 'Lantern, hooded', 'Ball bearings (bag of 1,000)', 'Torch']);
    expect(
      packContents(
        'Test Pack',
        'Contains: Backpack, Ball bearings (bag of 1,000), 10 × Torch, Lantern, hooded.',
        names,
      ),
    ).toEqual([
      { count: 1, name: 'Backpack' },
      { count: 1, name: 'Ball bearings (bag of 1,000)' },
      { count: 10, name: 'Torch' },
      { count: 1, name: 'Lantern, hooded' },
    ]);
    expect(() => packContents('Test Pack', 'Contains: Backpack, 3 × Unicorn horn.', names)).toThrow(
      'SRD pack "Test Pack" contains "3 × Unicorn horn", which is no catalogue item',
    );
    expect(() => packContents('Test Pack', 'Contains: Backpack, Lantern.', names)).toThrow('"Lantern"');
    expect(() => packContents('Test Pack', 'A pack of odds and ends.', names)).toThrow(
      'no "Contains: ..." line',
    );
  });

  it('is idempotent: seeding again writes nothing and changes no row', async () => {
    const snapshot = async () =>
      ctx.database.db
        .select({ id: itemTemplates.id, key: itemTemplates.systemKey, updatedAt: itemTemplates.updatedAt })
        .from(itemTemplates)
        .where(isNotNull(itemTemplates.systemKey))
        .orderBy(itemTemplates.systemKey);
    const before = await snapshot();
    expect(await ItemsService.seedCatalogue(ctx.database.db)).toBe(0);
    await seedDatabase(ctx.database.db);
    expect(await snapshot()).toEqual(before);
  });

  it('repairs a catalogue row that drifted, keeping its id', async () => {
    const [row] = await ctx.database.db
      .update(itemTemplates)
      .set({ baseValue: 999 })
      .where(eq(itemTemplates.systemKey, 'srd:dagger'))
      .returning();
    expect(await ItemsService.seedCatalogue(ctx.database.db)).toBe(1);
    const [after] = await ctx.database.db
      .select()
      .from(itemTemplates)
      .where(eq(itemTemplates.systemKey, 'srd:dagger'));
    expect(after).toMatchObject({ id: row?.id, baseValue: 2, currency: 'gp' });
  });
});

describe('item templates API', () => {
  it('is described in the OpenAPI document', async () => {
    const response = await ctx.app.inject({ url: '/api/docs/json' });
    expect(response.statusCode).toBe(200);
    const doc = response.json() as {
      paths: Record<string, Record<string, { parameters?: { name: string }[] }>>;
    };
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api/v1/item_templates',
        '/api/v1/item_templates/tags',
        '/api/v1/item_templates/{id}',
        '/api/v1/item_templates/{id}/duplicate',
        '/api/v1/search/items',
      ]),
    );
    const searchParams = doc.paths['/api/v1/search/items']?.get?.parameters?.map((p) => p.name) ?? [];
    expect(searchParams).toEqual(expect.arrayContaining(['search', 'per_page', 'tags', 'min_weight']));
  });

  it('answers 401 without a session', async () => {
    for (const [method, url] of [
      ['GET', '/item_templates'],
      ['GET', '/item_templates/tags'],
      ['POST', '/item_templates'],
      ['GET', '/search/items'],
    ] as const) {
      const response = await call(method, url);
      expect(response.statusCode, url).toBe(401);
    }
  });

  it('creates with the spec defaults and the JSON fields', async () => {
    const user = await createUser(ctx);
    const response = await call('POST', '/item_templates', user, {
      item_template: { name: '  Rope of Climbing ' },
    });
    expect(response.statusCode).toBe(201);
    expect(body(response).message).toBe(itemTemplateMessages.created);
    expect(body(response).data).toMatchObject({
      name: 'Rope of Climbing',
      description: '',
      weight: 0,
      base_value: 0,
      currency: 'gp',
      value_cp: 0,
      visibility: 'private',
      stack_size: 1,
      stackable: false,
      tags: [],
      category: null,
      is_currency: false,
      rating: null,
      creator_id: user.user.id,
      creator_name: user.user.username,
      is_system: false,
      is_owner: true,
      instance_count: 0,
    });
  });

  it('takes tags comma-separated or as a list, weight as a decimal string and currency from metadata', async () => {
    const user = await createUser(ctx);
    const template = await createTemplate(user, {
      name: 'Moon coin',
      weight: '0.25',
      base_value: 3,
      stack_size: 0,
      metadata: { currency: 'platinum', rarity: 'rare' },
      tags: ' Currency, category:Treasure ,currency,, shiny',
    });
    expect(template).toMatchObject({
      weight: 0.25,
      currency: 'pp',
      value_cp: 3000,
      stackable: true,
      tags: ['currency', 'category:treasure', 'shiny'],
      category: 'treasure',
      is_currency: true,
      metadata: { currency: 'pp', rarity: 'rare' },
    });
    const listed = await createTemplate(user, {
      name: 'Gem',
      tags: ['Red', 'red', 'gem'],
      metadata: { category: 'gem' },
    });
    expect(listed).toMatchObject({ tags: ['red', 'gem'], category: 'gem', stackable: false });
    const stacked = await createTemplate(user, { name: 'Pebble', stack_size: 5 });
    expect(stacked.stackable).toBe(true);
  });

  it('refuses bad input with 422 and field details, never 500', async () => {
    const user = await createUser(ctx);
    const bad = async (item_template: unknown, fields: string[]) => {
      const response = await call('POST', '/item_templates', user, { item_template });
      expect(response.statusCode, JSON.stringify(item_template)).toBe(422);
      expect(body(response).error.code).toBe('VALIDATION_ERROR');
      const named = (body(response).error.details ?? []).map((d) => d.field);
      for (const field of fields) expect(named).toContain(field);
      return body(response).error.details ?? [];
    };
    const blank = await bad({ name: '   ' }, ['item_template.name']);
    expect(blank).toContainEqual({ field: 'item_template.name', message: itemTemplateMessages.nameRequired });
    await bad({}, ['item_template.name']);
    await bad({ name: 7 }, ['item_template.name']);
    await bad({ name: 'X', weight: -1 }, ['item_template.weight']);
    await bad({ name: 'X', weight: 'heavy' }, ['item_template.weight']);
    await bad({ name: 'X', weight: true }, ['item_template.weight']);
    await bad({ name: 'X', base_value: 1.5 }, ['item_template.base_value']);
    await bad({ name: 'X', base_value: -3 }, ['item_template.base_value']);
    await bad({ name: 'X', base_value: { a: 1 } }, ['item_template.base_value']);
    await bad({ name: 'X', currency: 'doubloons' }, ['item_template.currency']);
    await bad({ name: 'X', visibility: 'secret' }, ['item_template.visibility']);
    await bad({ name: 'X', stack_size: -1 }, ['item_template.stack_size']);
    await bad({ name: 'X', stack_size: 2.5 }, ['item_template.stack_size']);
    await bad({ name: 'X', tags: 42 }, ['item_template.tags']);
    await bad({ name: 'X', tags: [1, 2] }, []);
    await bad({ name: 'X', metadata: 'rare' }, ['item_template.metadata']);
    await bad({ name: 'X', metadata: { requires_attunement: 'yes' } }, []);
    await bad({ name: 'X', description: ['a'] }, ['item_template.description']);
    await bad('a string', ['item_template']);
    const missing = await call('POST', '/item_templates', user, { name: 'Not wrapped' });
    expect(missing.statusCode).toBe(422);
    const notJson = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/item_templates',
      headers: { ...user.auth, 'content-type': 'application/json' },
      payload: '{"item_template":',
    });
    expect(notJson.statusCode).toBe(400);
  });

  // Content review, finding 4: the API took 0.0001 the form refused; one rule now, thousandths, in both.
  it('takes a weight to the thousandth, as the catalogue’s crossbow bolt, and refuses a finer one in words', async () => {
    const user = await createUser(ctx);
    const bolt = await createTemplate(user, { name: 'Silvered bolt', weight: 0.075 });
    expect(bolt.weight).toBe(0.075);
    expect((await createTemplate(user, { name: 'Anvil', weight: 99_999.999 })).weight).toBe(99_999.999);
    const refusal = { field: 'item_template.weight', message: 'Weight can have at most 3 decimal places' };
    const created = await call('POST', '/item_templates', user, {
      item_template: { name: 'Dust', weight: 0.0001 },
    });
    expect(created.statusCode).toBe(422);
    expect(body(created).error.details).toEqual([refusal]);
    const patched = await call('PATCH', `/item_templates/${bolt.id}`, user, {
      item_template: { weight: 0.0751 },
    });
    expect(patched.statusCode).toBe(422);
    expect(body(patched).error.details).toEqual([refusal]);
  });

  it('reads by visibility: own, unlisted and public for anyone signed in; others’ private → 404', async () => {
    const owner = await createUser(ctx);
    const other = await createUser(ctx);
    const secret = await createTemplate(owner, { name: 'Secret map' });
    const link = await createTemplate(owner, { name: 'Linked map', visibility: 'unlisted' });
    const open = await createTemplate(owner, { name: 'Open map', visibility: 'public' });
    expect((await call('GET', `/item_templates/${secret.id}`, owner)).statusCode).toBe(200);
    expect((await call('GET', `/item_templates/${secret.id}`, other)).statusCode).toBe(404);
    const unlisted = await call('GET', `/item_templates/${link.id}`, other);
    expect(unlisted.statusCode).toBe(200);
    expect(body(unlisted).data).toMatchObject({ is_owner: false, creator_name: owner.user.username });
    expect((await call('GET', `/item_templates/${open.id}`, other)).statusCode).toBe(200);
    expect(
      (await call('GET', '/item_templates/7a1d3b1e-0000-4000-8000-000000000000', owner)).statusCode,
    ).toBe(404);
    expect((await call('GET', '/item_templates/not-a-uuid', owner)).statusCode).toBe(422);
    expect((await call('GET', `/item_templates/${open.id}`)).statusCode).toBe(401);
  });

  it('lists my own templates, or public ones, with filters in copper and paging meta', async () => {
    const me = await createUser(ctx);
    const other = await createUser(ctx);
    await createTemplate(me, { name: 'Alpha', base_value: 1, currency: 'pp', tags: 'loot,category:jewel' });
    await createTemplate(me, {
      name: 'Bravo',
      base_value: 5,
      currency: 'gp',
      visibility: 'unlisted',
      tags: 'loot',
    });
    await createTemplate(me, { name: 'Charlie', base_value: 50, currency: 'cp', visibility: 'public' });
    await createTemplate(other, { name: 'Delta', visibility: 'public' });
    await createTemplate(other, { name: 'Echo hidden' });

    const mine = body(await call('GET', '/item_templates', me));
    expect(mine.data.map((t) => t.name)).toEqual(['Alpha', 'Bravo', 'Charlie']);
    expect(mine.meta).toEqual({ current_page: 1, per_page: 20, total_count: 3, total_pages: 1 });

    // 10 gp = 1000 cp: a 1 pp item (1000 cp) is included, 5 gp and 50 cp are not.
    const rich = body(await call('GET', '/item_templates?min_value=10', me));
    expect(rich.data.map((t) => t.name)).toEqual(['Alpha']);
    const cheap = body(await call('GET', '/item_templates?max_value=0.5', me));
    expect(cheap.data.map((t) => t.name)).toEqual(['Charlie']);
    expect(body(await call('GET', '/item_templates?tag=LOOT', me)).data.map((t) => t.name)).toEqual([
      'Alpha',
      'Bravo',
    ]);
    expect(
      body(await call('GET', '/item_templates?filters[category]=jewel', me)).data.map((t) => t.name),
    ).toEqual(['Alpha']);
    expect(
      body(await call('GET', '/item_templates?visibility=unlisted', me)).data.map((t) => t.name),
    ).toEqual(['Bravo']);
    expect(body(await call('GET', '/item_templates?search=char', me)).data.map((t) => t.name)).toEqual([
      'Charlie',
    ]);

    const paged = body(await call('GET', '/item_templates?per_page=2&page=2', me));
    expect(paged.data.map((t) => t.name)).toEqual(['Charlie']);
    expect(paged.meta).toEqual({ current_page: 2, per_page: 2, total_count: 3, total_pages: 2 });

    const publicOnes = body(await call('GET', '/item_templates?visibility=public&per_page=100', me));
    expect(publicOnes.meta.total_count).toBeGreaterThanOrEqual(583 + 2);
    const publicNames = new Set(publicOnes.data.map((t) => t.name));
    expect(publicNames.has('Echo hidden')).toBe(false);
    const others = body(await call('GET', `/item_templates?creator_id=${other.user.id}`, me));
    expect(others.data.map((t) => t.name)).toEqual(['Delta']);
    const catalogue = body(await call('GET', '/item_templates?creator_id=system&category=currency', me));
    expect(catalogue.data.map((t) => t.name)).toEqual([
      'Copper piece',
      'Electrum piece',
      'Gold piece',
      'Platinum piece',
      'Silver piece',
    ]);
    expect(catalogue.data.every((t) => t.is_system && t.is_currency && t.stackable)).toBe(true);
    const byValue = body(await call('GET', '/item_templates?sort=value&direction=desc', me));
    expect(byValue.data.map((t) => t.name)).toEqual(['Alpha', 'Bravo', 'Charlie']);
  });

  it('refuses bad list queries with 422', async () => {
    const me = await createUser(ctx);
    for (const query of [
      'per_page=101',
      'per_page=0',
      'page=abc',
      'min_value=lots',
      'visibility=secret',
      'creator_id=robert',
      'min_rating=9',
      'sort=colour',
    ]) {
      const response = await call('GET', `/item_templates?${query}`, me);
      expect(response.statusCode, query).toBe(422);
      expect(body(response).error.details?.length, query).toBeGreaterThan(0);
    }
  });

  it('says a search is too long, not that it is not text', async () => {
    const me = await createUser(ctx);
    const response = await call('GET', `/search/items?search=${'a'.repeat(201)}`, me);
    expect(response.statusCode).toBe(422);
    expect(body(response).error.details?.[0]).toMatchObject({
      field: 'search',
      message: 'Must be at most 200 characters',
    });
  });

  it('updates with PUT and PATCH for the owner only; others who can see it get 403, else 404', async () => {
    const owner = await createUser(ctx);
    const other = await createUser(ctx);
    const template = await createTemplate(owner, {
      name: 'Lantern',
      base_value: 5,
      visibility: 'unlisted',
      metadata: { rarity: 'common', category: 'gear' },
    });
    const patched = await call('PATCH', `/item_templates/${template.id}`, owner, {
      item_template: { base_value: 7, currency: 'sp', metadata: { rarity: 'uncommon' } },
    });
    expect(patched.statusCode).toBe(200);
    expect(body(patched).data).toMatchObject({
      name: 'Lantern',
      base_value: 7,
      currency: 'sp',
      value_cp: 70,
      visibility: 'unlisted',
      metadata: { rarity: 'uncommon', category: 'gear', currency: 'sp' },
    });
    const put = await call('PUT', `/item_templates/${template.id}`, owner, {
      item_template: { name: 'Hooded lantern', tags: 'light, gear' },
    });
    expect(put.statusCode).toBe(200);
    expect(body(put).data).toMatchObject({ name: 'Hooded lantern', tags: ['light', 'gear'], base_value: 7 });

    const refused = await call('PATCH', `/item_templates/${template.id}`, other, {
      item_template: { name: 'Mine' },
    });
    expect(refused.statusCode).toBe(403);
    expect(body(refused).error.message).toBe(itemTemplateMessages.notOwner);
    const hidden = await createTemplate(owner, { name: 'Hidden' });
    expect(
      (await call('PUT', `/item_templates/${hidden.id}`, other, { item_template: { name: 'Mine' } }))
        .statusCode,
    ).toBe(404);
    const blank = await call('PATCH', `/item_templates/${template.id}`, owner, {
      item_template: { name: ' ' },
    });
    expect(blank.statusCode).toBe(422);
    expect(body(blank).error.details).toContainEqual({
      field: 'item_template.name',
      message: itemTemplateMessages.nameRequired,
    });
    expect(
      (await call('PATCH', `/item_templates/${template.id}`, owner, { item_template: { weight: 'x' } }))
        .statusCode,
    ).toBe(422);
    expect((await call('PATCH', `/item_templates/${template.id}`, owner, {})).statusCode).toBe(422);
    expect(
      (await call('PATCH', `/item_templates/${template.id}`, undefined, { item_template: {} })).statusCode,
    ).toBe(401);
  });

  it('refuses a heavier template that would put a container it lies in over its weight limit', async () => {
    const gm = await createUser(ctx);
    await upgrade(ctx, gm, 'tier_3');
    const party = await createParty(ctx, gm, { encumbrance_style: 'both' });
    const player = await createMember(ctx, party, 'player');
    const mule = await createCharacter(ctx, player, { partyId: party.id });
    const stone = await createTemplate(gm, { name: 'Sling stone', weight: 0.1, visibility: 'public' });
    const bag = await call('POST', '/containers', player, {
      container: { name: 'Sling bag', max_weight: 1, character_id: mule.id },
    });
    expect(bag.statusCode, bag.body).toBe(201);
    const bagId = String(body(bag).data.id);
    const made = await call('POST', '/item_instances', player, {
      item_template_id: stone.id,
      container_id: bagId,
      quantity: 10,
    });
    expect(made.statusCode, made.body).toBe(201);
    // The GM may correct the homebrew item their player holds, but not push the bag past what it carries.
    const heavier = await call('PATCH', `/item_templates/${stone.id}`, gm, {
      item_template: { weight: 100 },
    });
    const message = itemTemplateMessages.weightOverCapacity('Sling stone', `Sling bag (${mule.name})`);
    expect([heavier.statusCode, body(heavier).error.message]).toEqual([409, message]);
    const [kept] = await ctx.database.db.select().from(itemTemplates).where(eq(itemTemplates.id, stone.id));
    expect(kept?.weight).toBe(0.1);
    // Lighter, or heavier within the limit (nothing else is in the bag: 10 × 0.1 = 1 lb, its limit), stands.
    const lighter = await call('PATCH', `/item_templates/${stone.id}`, gm, {
      item_template: { weight: 0.05 },
    });
    expect(lighter.statusCode, lighter.body).toBe(200);
    const back = await call('PATCH', `/item_templates/${stone.id}`, gm, { item_template: { weight: 0.1 } });
    expect(back.statusCode, back.body).toBe(200);
  });

  it('lets a template grow heavier in a container whose weight limit is 0, which sets no limit', async () => {
    const gm = await createUser(ctx);
    await upgrade(ctx, gm, 'tier_3');
    const party = await createParty(ctx, gm, { encumbrance_style: 'both' });
    const player = await createMember(ctx, party, 'player');
    const mule = await createCharacter(ctx, player, { partyId: party.id });
    const stone = await createTemplate(gm, { name: 'Sling stone', weight: 0.1, visibility: 'public' });
    const sack = await call('POST', '/containers', player, {
      container: { name: 'Bottomless sack', max_weight: 0, character_id: mule.id },
    });
    expect(sack.statusCode, sack.body).toBe(201);
    const made = await call('POST', '/item_instances', player, {
      item_template_id: stone.id,
      container_id: String(body(sack).data.id),
      quantity: 10,
    });
    expect(made.statusCode, made.body).toBe(201);
    const heavier = await call('PATCH', `/item_templates/${stone.id}`, gm, {
      item_template: { weight: 100 },
    });
    expect(heavier.statusCode, heavier.body).toBe(200);
    const [kept] = await ctx.database.db.select().from(itemTemplates).where(eq(itemTemplates.id, stone.id));
    expect(kept?.weight).toBe(100);
  });

  // A public template's items change with it wherever they are: a stranger's edit would move another
  // player's load and wealth with no ledger row and no capacity check.
  it('keeps the name, description, details, weight, value and stack size of a template other players hold', async () => {
    const author = await createUser(ctx);
    const holder = await createUser(ctx);
    const template = await createTemplate(author, {
      name: 'Public lantern',
      weight: 2,
      base_value: 5,
      visibility: 'public',
    });
    const hero = await createCharacter(ctx, holder);
    const made = await call('POST', '/item_instances', holder, {
      item_template_id: template.id,
      container_id: hero.primary_container_id,
    });
    expect(made.statusCode, made.body).toBe(201);
    for (const change of [
      { weight: 400 },
      { base_value: 900_000 },
      { currency: 'pp' },
      { stack_size: 7 },
      { name: 'Lantern of Poison' },
      { description: 'Worth 10,000 gp: sell it to the GM' },
      { metadata: { rarity: 'legendary' } },
    ]) {
      const refused = await call('PATCH', `/item_templates/${template.id}`, author, {
        item_template: change,
      });
      expect(refused.statusCode, JSON.stringify(change)).toBe(409);
      expect(body(refused).error.message).toBe(itemTemplateMessages.heldByOthers);
    }
    const [held] = await ctx.database.db
      .select()
      .from(itemTemplates)
      .where(eq(itemTemplates.id, template.id));
    expect(held).toMatchObject({
      name: 'Public lantern',
      description: '',
      weight: 2,
      baseValue: 5,
      currency: 'gp',
    });
    // It may not become private under its holders either; unlisted takes it off the marketplace.
    const hidden = await call('PATCH', `/item_templates/${template.id}`, author, {
      item_template: { visibility: 'private' },
    });
    expect([hidden.statusCode, body(hidden).error.message]).toEqual([
      409,
      itemTemplateMessages.heldByOthersPrivate,
    ]);
    // Its tags, its visibility short of private and what it already says may still be sent.
    const retagged = await call('PATCH', `/item_templates/${template.id}`, author, {
      item_template: { tags: ['light'], visibility: 'unlisted', name: 'Public lantern', weight: 2 },
    });
    expect(retagged.statusCode, retagged.body).toBe(200);
    expect(body(retagged).data).toMatchObject({ tags: ['light'], visibility: 'unlisted' });
    const own = await createTemplate(author, { name: 'My lantern', weight: 2, visibility: 'public' });
    const mine = await createCharacter(ctx, author);
    await call('POST', '/item_instances', author, {
      item_template_id: own.id,
      container_id: mine.primary_container_id,
    });
    expect(
      (await call('PATCH', `/item_templates/${own.id}`, author, { item_template: { weight: 3 } })).statusCode,
    ).toBe(200);
    // A GM may still correct a homebrew item held by the players of their own party.
    await upgrade(ctx, author, 'tier_3');
    const party = await createParty(ctx, author);
    const player = await createMember(ctx, party, 'player');
    const member = await createCharacter(ctx, player, { partyId: party.id });
    const taken = await call('POST', '/item_instances', player, {
      item_template_id: own.id,
      container_id: member.primary_container_id,
    });
    expect(taken.statusCode, taken.body).toBe(201);
    expect(
      (await call('PATCH', `/item_templates/${own.id}`, author, { item_template: { weight: 4 } })).statusCode,
    ).toBe(200);
  });

  // Author review, L6: the edit page let the author change every field and said only on Save that other
  // players hold the template. Its author reads it beforehand, by the rule the edit is refused by.
  it('tells its author whether other players hold the template, as an edit would be refused', async () => {
    const author = await createUser(ctx);
    const template = await createTemplate(author, { name: 'Held lantern', visibility: 'public' });
    const heldByOthers = async (reader = author) =>
      body(await call('GET', `/item_templates/${template.id}`, reader)).data.held_by_others;
    expect(await heldByOthers()).toBe(false);
    // The author's own stack, and a player's in a party the author runs, do not hold it against them.
    await upgrade(ctx, author, 'tier_3');
    const mine = await createCharacter(ctx, author);
    const party = await createParty(ctx, author);
    const player = await createMember(ctx, party, 'player');
    const member = await createCharacter(ctx, player, { partyId: party.id });
    for (const [who, container] of [
      [author, mine.primary_container_id],
      [player, member.primary_container_id],
    ] as const) {
      const made = await call('POST', '/item_instances', who, {
        item_template_id: template.id,
        container_id: container,
      });
      expect(made.statusCode, made.body).toBe(201);
    }
    expect(await heldByOthers()).toBe(false);
    const holder = await createUser(ctx);
    const hero = await createCharacter(ctx, holder);
    const taken = await call('POST', '/item_instances', holder, {
      item_template_id: template.id,
      container_id: hero.primary_container_id,
    });
    expect(taken.statusCode, taken.body).toBe(201);
    expect(await heldByOthers()).toBe(true);
    const renamed = await call('PATCH', `/item_templates/${template.id}`, author, {
      item_template: { name: 'Renamed lantern' },
    });
    expect([renamed.statusCode, body(renamed).error.message]).toEqual([
      409,
      itemTemplateMessages.heldByOthers,
    ]);
    // Like the count of stacks, it is its author's to know: a reader would learn of others' inventories.
    expect(body(await call('GET', `/item_templates/${template.id}`, holder)).data).not.toHaveProperty(
      'held_by_others',
    );
  });

  // `currency` makes its items unsellable in every shop, `category:` files them elsewhere (icon, filters),
  // `magic` and `attunement` offer attunement: the holders' items would change with no say of theirs.
  it('keeps the tags the app acts on of a template other players hold; other tags may change', async () => {
    const author = await createUser(ctx);
    const holder = await createUser(ctx);
    const template = await createTemplate(author, {
      name: 'Brass lantern',
      visibility: 'public',
      tags: ['light', 'category:gear'],
    });
    const hero = await createCharacter(ctx, holder);
    const made = await call('POST', '/item_instances', holder, {
      item_template_id: template.id,
      container_id: hero.primary_container_id,
    });
    expect(made.statusCode, made.body).toBe(201);
    for (const tags of [
      ['light', 'category:gear', 'currency'],
      ['light'],
      ['light', 'category:weapon'],
      ['light', 'category:gear', 'magic'],
      ['light', 'category:gear', 'attunement'],
    ]) {
      const refused = await call('PATCH', `/item_templates/${template.id}`, author, {
        item_template: { tags },
      });
      expect([refused.statusCode, body(refused).error?.message], tags.join()).toEqual([
        409,
        'Other players hold items made from this template: its currency, category, magic and attunement tags cannot change under them. Duplicate it and change the copy.',
      ]);
    }
    const [held] = await ctx.database.db
      .select({ tags: itemTemplates.tags })
      .from(itemTemplates)
      .where(eq(itemTemplates.id, template.id));
    expect(held?.tags).toEqual(['light', 'category:gear']);
    const retagged = await call('PATCH', `/item_templates/${template.id}`, author, {
      item_template: { tags: ['category:gear', 'brass', 'light'] },
    });
    expect(retagged.statusCode, retagged.body).toBe(200);
    // Nobody else holds this one: its author tags it as they like.
    const own = await createTemplate(author, { name: 'Token' });
    const coined = await call('PATCH', `/item_templates/${own.id}`, author, {
      item_template: { tags: ['currency', 'category:currency'] },
    });
    expect(coined.statusCode, coined.body).toBe(200);
  });

  // DESIGN §4: a stack never holds more than stack_size; a smaller size would leave the stacks above it.
  it('refuses a stack size below the largest stack made from the template, until it is split', async () => {
    const owner = await createUser(ctx);
    const template = await createTemplate(owner, { name: 'Gem', stack_size: 5 });
    const pouch = await createCharacter(ctx, owner);
    const chest = await createCharacter(ctx, owner);
    const stacks: Record<string, string> = {};
    for (const [where, quantity] of [
      [pouch.primary_container_id, 3],
      [chest.primary_container_id, 2],
    ] as const) {
      const made = await call('POST', '/item_instances', owner, {
        item_template_id: template.id,
        container_id: where,
        quantity,
      });
      expect(made.statusCode, made.body).toBe(201);
      stacks[quantity] = (made.json() as { data: { id: string }[] }).data[0]?.id ?? '';
    }
    const quantities = async () =>
      (
        await ctx.database.db
          .select({ quantity: itemInstances.quantity })
          .from(itemInstances)
          .where(eq(itemInstances.itemTemplateId, template.id))
      )
        .map((stack) => stack.quantity)
        .sort((a, b) => a - b);
    const tooSmall = itemTemplateMessages.stackSizeBelowLargestStack('Gem', 3);
    expect(tooSmall).toBe(
      'A stack of Gem holds 3 now: choose a stack size of at least 3, or split the stacks first.',
    );
    for (const change of [{ stack_size: 1 }, { stack_size: 2, name: 'Cut gem', weight: 3 }]) {
      const refused = await call('PATCH', `/item_templates/${template.id}`, owner, { item_template: change });
      expect([refused.statusCode, body(refused).error]).toEqual([
        409,
        {
          type: 'conflict',
          code: 'CONFLICT',
          message: tooSmall,
          details: [{ field: 'item_template.stack_size', message: tooSmall }],
          status: 409,
        },
      ]);
    }
    // Refused whole: neither the template nor its stacks changed.
    const unchanged = await call('GET', `/item_templates/${template.id}`, owner);
    expect(body(unchanged).data).toMatchObject({ name: 'Gem', stack_size: 5, weight: 0 });
    expect(await quantities()).toEqual([2, 3]);

    // The largest stack's own size, unlimited, and a larger one are all fine.
    for (const stack_size of [3, 0, 8]) {
      const kept = await call('PATCH', `/item_templates/${template.id}`, owner, {
        item_template: { stack_size },
      });
      expect([stack_size, kept.statusCode]).toEqual([stack_size, 200]);
    }
    // Split first, then the size may fall to the new largest stack.
    const split = await call('POST', `/item_instances/${stacks[3]}/split`, owner, { quantity: 1 });
    expect(split.statusCode, split.body).toBeLessThan(300);
    const lowered = await call('PATCH', `/item_templates/${template.id}`, owner, {
      item_template: { stack_size: 2 },
    });
    expect(lowered.statusCode, lowered.body).toBe(200);
    expect(body(lowered).data.stack_size).toBe(2);
    expect(await quantities()).toEqual([1, 2, 2]);
  });

  it('refuses changes to the seeded catalogue with 403', async () => {
    const user = await createUser(ctx);
    const [gold] = await ctx.database.db
      .select()
      .from(itemTemplates)
      .where(eq(itemTemplates.systemKey, 'coin:gp'));
    const response = await call('PATCH', `/item_templates/${gold?.id}`, user, {
      item_template: { base_value: 2 },
    });
    expect(response.statusCode).toBe(403);
    expect(body(response).error.message).toBe(itemTemplateMessages.systemTemplate);
    expect((await call('DELETE', `/item_templates/${gold?.id}`, user)).statusCode).toBe(403);
  });

  it('soft-deletes for the owner: gone from the API, kept by the items made from it', async () => {
    const owner = await createUser(ctx);
    const other = await createUser(ctx);
    const template = await createTemplate(owner, { name: 'Zzdoomed shield', visibility: 'public' });
    const character = await createCharacter(ctx, owner, { name: 'Keeper' });
    await ctx.database.db.insert(itemInstances).values({
      containerId: String(character.primary_container_id),
      itemTemplateId: template.id,
      quantity: 1,
    });
    expect(body(await call('GET', `/item_templates/${template.id}`, owner)).data.instance_count).toBe(1);
    // Only its author learns how many stacks exist: another reader would count hidden loot and strangers' bags.
    expect(body(await call('GET', `/item_templates/${template.id}`, other)).data).not.toHaveProperty(
      'instance_count',
    );
    expect((await call('DELETE', `/item_templates/${template.id}`, other)).statusCode).toBe(403);
    expect((await call('DELETE', `/item_templates/${template.id}`)).statusCode).toBe(401);
    const deleted = await call('DELETE', `/item_templates/${template.id}`, owner);
    expect(deleted.statusCode).toBe(204);
    expect(deleted.body).toBe('');
    expect((await call('GET', `/item_templates/${template.id}`, owner)).statusCode).toBe(404);
    expect((await call('DELETE', `/item_templates/${template.id}`, owner)).statusCode).toBe(404);
    expect((await call('POST', `/item_templates/${template.id}/duplicate`, owner)).statusCode).toBe(404);
    expect(body(await call('GET', '/item_templates', owner)).meta.total_count).toBe(0);
    expect((await search(owner, 'search=zzdoomed')).data).toHaveLength(0);
    const [row] = await ctx.database.db.select().from(itemTemplates).where(eq(itemTemplates.id, template.id));
    expect(row?.deletedAt).toBeInstanceOf(Date);
    const kept = await ctx.database.db
      .select()
      .from(itemInstances)
      .where(eq(itemInstances.itemTemplateId, template.id));
    expect(kept).toHaveLength(1);
  });

  it('prices a copy of an unpriced SRD item once it is given a value of its own', async () => {
    const user = await createUser(ctx);
    const [flame] = await ctx.database.db
      .select()
      .from(itemTemplates)
      .where(eq(itemTemplates.name, 'Flame Tongue'));
    const copy = body(await call('POST', `/item_templates/${flame?.id}/duplicate`, user)).data;
    expect(copy.metadata).toMatchObject({ priced: false });
    const priced = await call('PATCH', `/item_templates/${copy.id}`, user, {
      item_template: { base_value: 500, currency: 'gp' },
    });
    expect(priced.statusCode, priced.body).toBe(200);
    expect(body(priced).data.metadata.priced).toBeUndefined();
    expect(body(priced).data).toMatchObject({ value_cp: 50_000, metadata: { rarity: 'rare' } });
    // A change that names no value leaves the mark alone.
    const other = body(await call('POST', `/item_templates/${flame?.id}/duplicate`, user)).data;
    const renamed = await call('PATCH', `/item_templates/${other.id}`, user, {
      item_template: { name: 'Hot blade' },
    });
    expect(body(renamed).data.metadata).toMatchObject({ priced: false });
  });

  // Only the seed and duplicate write these: a homebrew template marked `priced: false` at 900,000 pp read
  // "Unpriced" and left value searches while each item was worth 90,000,000 cp; one claiming
  // `source: "SRD 5.1"` or `system_key: "coin:pp"` posed as the catalogue.
  it('drops the catalogue’s own metadata keys from what a user sends, on create as on update', async () => {
    const user = await createUser(ctx);
    const reserved = {
      priced: false,
      source: 'SRD 5.1',
      system_key: 'coin:pp',
      denomination: 'pp',
      bundle_size: 20,
      duplicated_from: '3f2b8c1e-9a4d-4e7f-8b6a-1c2d3e4f5a6b',
    };
    const forged = await createTemplate(user, {
      name: 'Forged relic',
      base_value: 900_000,
      currency: 'pp',
      metadata: { ...reserved, rarity: 'rare', maker: 'Dwarves' },
    });
    expect(forged.metadata).toEqual({ rarity: 'rare', maker: 'Dwarves', currency: 'pp' });
    expect(forged.value_cp).toBe(900_000_000);
    const listed = await call('GET', '/item_templates?min_value=8000000', user);
    expect(body(listed).data.map((t) => t.id)).toContain(forged.id);

    const updated = await call('PATCH', `/item_templates/${forged.id}`, user, {
      item_template: { metadata: { ...reserved, rarity: 'very rare' } },
    });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(body(updated).data.metadata).toEqual({ rarity: 'very rare', maker: 'Dwarves', currency: 'pp' });

    // What the catalogue wrote stays on a copy of its item, whatever a change of the copy sends.
    const [flame] = await ctx.database.db
      .select()
      .from(itemTemplates)
      .where(eq(itemTemplates.name, 'Flame Tongue'));
    const copy = body(await call('POST', `/item_templates/${flame?.id}/duplicate`, user)).data;
    const renamed = await call('PATCH', `/item_templates/${copy.id}`, user, {
      item_template: { name: 'Hot blade', metadata: { source: 'Homebrew', priced: true } },
    });
    expect(body(renamed).data.metadata).toMatchObject({
      source: 'SRD 5.1',
      priced: false,
      duplicated_from: flame?.id,
    });
  });

  it('cuts a long name for its copy between characters, never inside an emoji sequence', async () => {
    const user = await createUser(ctx);
    const family = '👨‍👩‍👧';
    const source = await createTemplate(user, { name: `Abbbbbb${family.repeat(24)}` });
    const copy = await call('POST', `/item_templates/${source.id}/duplicate`, user);
    expect(copy.statusCode, copy.body).toBe(201);
    expect(body(copy).data.name).toBe(`Abbbbbb${family.repeat(23)} (Copy)`);
    // The second copy finds the first among the user's templates, emoji and all.
    const again = await call('POST', `/item_templates/${source.id}/duplicate`, user);
    expect(body(again).data.name).toBe(`Abbbbbb${family.repeat(23)} (Copy 2)`);
  });

  it('duplicates anything I can read as my private copy; others’ private templates are 404', async () => {
    const owner = await createUser(ctx);
    const other = await createUser(ctx);
    const [longsword] = await ctx.database.db
      .select()
      .from(itemTemplates)
      .where(eq(itemTemplates.systemKey, 'srd:longsword'));
    const copy = await call('POST', `/item_templates/${longsword?.id}/duplicate`, other);
    expect(copy.statusCode).toBe(201);
    expect(body(copy).data).toMatchObject({
      name: 'Longsword (Copy)',
      visibility: 'private',
      base_value: 15,
      currency: 'gp',
      creator_id: other.user.id,
      is_owner: true,
      is_system: false,
      category: 'weapon',
    });
    expect(body(copy).data.id).not.toBe(longsword?.id);
    const secret = await createTemplate(owner, { name: 'Secret' });
    expect((await call('POST', `/item_templates/${secret.id}/duplicate`, other)).statusCode).toBe(404);
    const unlisted = await createTemplate(owner, { name: 'Shared', visibility: 'unlisted' });
    const shared = await call('POST', `/item_templates/${unlisted.id}/duplicate`, other);
    expect(body(shared).data).toMatchObject({ name: 'Shared (Copy)', visibility: 'private' });
    // A second copy, and a copy of the copy, can be told apart from the first.
    const again = await call('POST', `/item_templates/${unlisted.id}/duplicate`, other);
    expect(body(again).data.name).toBe('Shared (Copy 2)');
    const ofCopy = await call('POST', `/item_templates/${body(shared).data.id}/duplicate`, other);
    expect(body(ofCopy).data.name).toBe('Shared (Copy 3)');
    // The owner's own copy is named among the owner's templates only.
    const ownCopy = await call('POST', `/item_templates/${unlisted.id}/duplicate`, owner);
    expect(body(ownCopy).data.name).toBe('Shared (Copy)');
    expect((await call('POST', '/item_templates/bad/duplicate', other)).statusCode).toBe(422);
    expect((await call('POST', `/item_templates/${unlisted.id}/duplicate`)).statusCode).toBe(401);
    // The copy counts against my templates and edits freely.
    const edited = await call('PATCH', `/item_templates/${body(shared).data.id}`, other, {
      item_template: { name: 'My shared' },
    });
    expect(edited.statusCode).toBe(200);
    expect(
      await ctx.app.services.entitlements.countUsage(ctx.database.db, other.user.id, 'item_templates'),
    ).toBe(4);
  });

  it('lists the tags of the templates I can see, with counts', async () => {
    const me = await createUser(ctx);
    const other = await createUser(ctx);
    await createTemplate(me, { name: 'A', tags: 'zzmine, zzshared' });
    await createTemplate(other, { name: 'B', tags: 'zzshared', visibility: 'public' });
    await createTemplate(other, { name: 'C', tags: 'zzsecret, zzshared' });
    const response = await call('GET', '/item_templates/tags', me);
    expect(response.statusCode).toBe(200);
    const tags = (response.json() as { data: { tag: string; count: number }[] }).data;
    const find = (tag: string) => tags.find((t) => t.tag === tag);
    expect(find('zzmine')).toEqual({ tag: 'zzmine', count: 1 });
    expect(find('zzshared')).toEqual({ tag: 'zzshared', count: 2 });
    expect(find('zzsecret')).toBeUndefined();
    expect(find('currency')?.count).toBeGreaterThanOrEqual(5);
    expect(find('weapon')?.count).toBeGreaterThan(50);
  });
});

describe('search/items', () => {
  it('also answers the spec’s templates and pagination keys, holding the same page (issue 14)', async () => {
    const user = await createUser(ctx);
    const response = await call('GET', '/search/items?search=sword&per_page=5&page=2', user);
    expect(response.statusCode).toBe(200);
    const page = response.json() as {
      data: ItemTemplate[];
      meta: Record<string, number>;
      templates: ItemTemplate[];
      pagination: Record<string, number>;
    };
    expect(page.data).toHaveLength(5);
    expect(page.templates).toEqual(page.data);
    expect(page.pagination).toEqual(page.meta);
    expect(page.pagination).toMatchObject({ current_page: 2, per_page: 5 });
    // The templates list keeps its own shape.
    expect(response.json()).toHaveProperty('status', 'success');
    expect((await call('GET', '/item_templates', user)).json()).not.toHaveProperty('templates');
  });

  it('ranks the exact name first and finds partial words', async () => {
    const user = await createUser(ctx);
    const exact = await search(user, 'search=longsword');
    expect(exact.data[0]?.name).toBe('Longsword');
    const partial = await search(user, 'search=long');
    const names = partial.data.map((t) => t.name);
    expect(names).toContain('Longsword');
    expect(names).toContain('Longbow');
    const infix = (await search(user, 'search=sword&per_page=50')).data.map((t) => t.name);
    expect(infix).toEqual(expect.arrayContaining(['Longsword', 'Shortsword', 'Greatsword']));
    expect(
      (await search(user, 'search=longs')).data
        .map((t) => t.name)
        .slice(0, 2)
        .sort(),
    ).toEqual(['Longship', 'Longsword']);
    expect((await search(user, 'search=potion%20heal')).data.map((t) => t.name)).toContain(
      'Potion of Healing',
    );
    // Full-text matches in descriptions are found too (websearch syntax: phrases, -not, or).
    const fire = await search(user, 'search=fire%20resistance');
    expect(fire.meta.total_count).toBeGreaterThan(0);
    expect((await search(user, 'search=%22potion%20of%20healing%22')).data[0]?.name).toBe(
      'Potion of Healing',
    );
    expect((await search(user, 'search=a%20%26%20%7C%20!%20(%27')).meta).toBeDefined();
  });

  it('puts the item a player most likely means first: the word itself, then the shorter name', async () => {
    const user = await createUser(ctx);
    const first = async (term: string) =>
      (await search(user, `search=${encodeURIComponent(term)}`)).data.map((t) => t.name)[0];
    // Not "Golden Lions Figurine" or "Gold Dragon Scale Mail"; not "Plate Armor of Etherealness".
    expect(await first('gold')).toBe('Gold piece');
    expect(await first('plate')).toBe('Plate Armor');
    expect(await first('potion heal')).toBe('Potion of Healing');
    expect(await first('chain')).toBe('Chain Mail');
    expect(await first('Plate Armor')).toBe('Plate Armor');
  });

  it('returns only public templates, everything for *, with spec paging (default 20, max 50)', async () => {
    const me = await createUser(ctx);
    const other = await createUser(ctx);
    await createTemplate(other, { name: 'Zqx private relic' });
    await createTemplate(other, { name: 'Zqx unlisted relic', visibility: 'unlisted' });
    await createTemplate(other, { name: 'Zqx public relic', visibility: 'public' });
    expect((await search(me, 'search=zqx')).data.map((t) => t.name)).toEqual(['Zqx public relic']);
    const all = await search(me, '');
    expect(all.meta.per_page).toBe(20);
    expect(all.data).toHaveLength(20);
    expect(all.meta.total_count).toBeGreaterThanOrEqual(584);
    expect(all.meta.total_pages).toBe(Math.ceil(all.meta.total_count / 20));
    const star = await search(me, 'search=*&per_page=50&page=2');
    expect(star.data).toHaveLength(50);
    expect(star.meta).toMatchObject({ current_page: 2, per_page: 50, total_count: all.meta.total_count });
    const beyond = await search(me, 'search=*&page=1000');
    expect(beyond.data).toHaveLength(0);
    expect(beyond.meta.total_count).toBe(all.meta.total_count);
  });

  it('filters by tags (all must match), value in copper and weight, and sorts', async () => {
    const me = await createUser(ctx);
    const martialRanged = await search(me, 'tags=martial,ranged&per_page=50');
    expect(martialRanged.data.map((t) => t.name)).toEqual(
      expect.arrayContaining(['Longbow', 'Crossbow, hand']),
    );
    expect(martialRanged.data.every((t) => t.tags.includes('martial') && t.tags.includes('ranged'))).toBe(
      true,
    );
    const repeated = await search(me, 'tags=martial&tags=ranged&per_page=50');
    expect(repeated.meta.total_count).toBe(martialRanged.meta.total_count);

    // min_value 10 gp includes the 1 pp coin (1000 cp) and excludes the 1 gp coin.
    const coins = await search(me, 'tags=currency&min_value=10');
    expect(coins.data.map((t) => t.name)).toEqual(['Platinum piece']);
    const cheapCoins = await search(me, 'tags=currency&max_value=0.1');
    expect(cheapCoins.data.map((t) => t.name)).toEqual(['Copper piece', 'Silver piece']);

    const heavy = await search(me, 'search=*&min_weight=500&sort=weight&direction=desc');
    expect(heavy.data.length).toBeGreaterThan(0);
    const weights = heavy.data.map((t) => t.weight);
    expect(weights.every((w) => w >= 500)).toBe(true);
    expect([...weights].sort((a, b) => b - a)).toEqual(weights);

    const byValue = await search(me, 'category=weapon&sort=value&direction=desc&per_page=3');
    expect(byValue.data.map((t) => t.value_cp)).toEqual(
      [...byValue.data.map((t) => t.value_cp)].sort((a, b) => b - a),
    );
    expect(byValue.data.every((t) => t.category === 'weapon')).toBe(true);
    const legendary = await search(me, 'rarity=legendary&per_page=50');
    expect(legendary.data.every((t) => t.metadata.rarity === 'legendary')).toBe(true);
    expect(legendary.meta.total_count).toBeGreaterThan(5);
  });

  it('refuses bad search queries with 422', async () => {
    const me = await createUser(ctx);
    for (const query of [
      'per_page=51',
      'page=0',
      'visibility=private',
      'min_value=x',
      'max_weight=-1',
      'sort=price',
      `search=${'a'.repeat(201)}`,
    ]) {
      const response = await call('GET', `/search/items?${query}`, me);
      expect(response.statusCode, query).toBe(422);
    }
    const privateSearch = await call('GET', '/search/items?visibility=private', me);
    expect(body(privateSearch).error.details).toContainEqual({
      field: 'visibility',
      message: itemTemplateMessages.searchPublicOnly,
    });
  });

  it('keeps LIKE wildcards literal', async () => {
    const me = await createUser(ctx);
    const percent = await search(me, 'search=%25');
    const underscore = await search(me, 'search=_');
    expect(percent.meta.total_count).toBe(0);
    expect(underscore.meta.total_count).toBe(0);
  });
});

describe('one search rule for My Items and the marketplace', () => {
  let author: SignedInUser;
  beforeAll(async () => {
    author = await createUser(ctx);
    await upgrade(ctx, author, 'tier_3');
    const publicTemplate = (fields: Record<string, unknown>) =>
      createTemplate(author, { visibility: 'public', ...fields });
    await publicTemplate({ name: 'Naïve Dagger' });
    await publicTemplate({ name: 'Kılıç of the Janissary' });
    await publicTemplate({ name: 'Épée de Café', description: 'Accent test Épée de Café' });
    await publicTemplate({ name: 'Plain Anvil', description: 'Forged in Kraków' });
    await publicTemplate({ name: 'Wet Qoxcloak', tags: ['ıslak', 'légendaire'] });
    await publicTemplate({ name: 'Plain Box', description: 'Holds a naive dagger' });
  });

  const mine = async (query: string) => {
    const response = await call('GET', `/item_templates?per_page=100&${query}`, author);
    expect(response.statusCode, response.body).toBe(200);
    return body(response).data.map((t) => t.name);
  };
  const marketplace = async (query: string) =>
    (await search(author, `per_page=50&${query}`)).data
      .filter((t) => t.creator_id === author.user.id)
      .map((t) => t.name);

  it('finds every word of the query in any order, in the name, description or tags, without case or accents', async () => {
    const expected: [string, string[]][] = [
      ['dagger naive', ['Naïve Dagger', 'Plain Box']],
      ['DAGGER NAÏVE', ['Naïve Dagger', 'Plain Box']],
      ['kilic janissary', ['Kılıç of the Janissary']],
      ['JANISSARY KILIÇ', ['Kılıç of the Janissary']],
      ['krakow', ['Plain Anvil']],
      ['forged KRAKÓW', ['Plain Anvil']],
      ['cafe test', ['Épée de Café']],
      ['test épée', ['Épée de Café']],
      ['islak', ['Wet Qoxcloak']],
      ['legendaire qoxcloak', ['Wet Qoxcloak']],
      ['dagger qoxcloak', []],
    ];
    for (const [term, names] of expected) {
      const query = `search=${encodeURIComponent(term)}`;
      expect((await mine(query)).sort(), `item_templates ${term}`).toEqual([...names].sort());
      expect((await marketplace(query)).sort(), `search/items ${term}`).toEqual([...names].sort());
    }
  });

  it('ranks the templates whose name holds the words first in the marketplace', async () => {
    expect(await marketplace('search=dagger%20naive')).toEqual(['Naïve Dagger', 'Plain Box']);
  });

  it('filters by tags without case or accents, as the tags are shown', async () => {
    for (const tag of ['ISLAK', 'Islak', 'ıslak', 'LEGENDAIRE', 'légendaire']) {
      expect(await marketplace(`tags=${encodeURIComponent(tag)}`), tag).toEqual(['Wet Qoxcloak']);
      expect(await mine(`tag=${encodeURIComponent(tag)}`), tag).toEqual(['Wet Qoxcloak']);
    }
  });

  it('takes tags[] and tag for tags on search/items rather than listing everything', async () => {
    expect(await marketplace('tag=islak')).toEqual(['Wet Qoxcloak']);
    expect((await search(author, 'tag=islak')).meta.total_count).toBe(1);
    expect((await search(author, 'tags[]=islak&tags[]=legendaire')).meta.total_count).toBe(1);
    expect((await search(author, 'tags[]=islak&tags[]=nowhere-tag')).meta.total_count).toBe(0);
    expect((await search(author, 'tags[]=islak')).meta.total_count).toBe(1);
  });

  it('describes the one rule on both search parameters in the OpenAPI document', async () => {
    const doc = (await ctx.app.inject({ url: '/api/docs/json' })).json() as {
      paths: Record<string, Record<string, { parameters?: { name: string; description?: string }[] }>>;
    };
    const describe = (path: string, name: string) =>
      doc.paths[path]?.get?.parameters?.find((p) => p.name === name)?.description;
    const rule = describe('/api/v1/search/items', 'search');
    expect(rule).toMatch(/every word/i);
    expect(describe('/api/v1/item_templates', 'search')).toBe(rule);
    expect(describe('/api/v1/search/items', 'tags')).toMatch(/accents/i);
  });
});

describe('tags of a template', () => {
  it('are at most 50, said as such when sent as a list', async () => {
    const user = await createUser(ctx);
    const tags = Array.from({ length: 51 }, (_, i) => `t${i}`);
    const response = await call('POST', '/item_templates', user, { item_template: { name: 'Edge', tags } });
    expect(response.statusCode).toBe(422);
    expect(body(response).error.details).toContainEqual({
      field: 'item_template.tags',
      message: 'A template can have at most 50 tags',
    });
  });
});

describe('unpriced templates (the SRD gives them no price) in value filters and sorts', () => {
  const isUnpriced = (t: ItemTemplate) => t.metadata.priced === false;
  const names = (templates: ItemTemplate[]) => templates.map((t) => t.name);

  /** Every page of a list, in order; the pages' total_count must be the rows they hold. */
  async function everyPage(user: SignedInUser, path: string, perPage: number): Promise<ItemTemplate[]> {
    const rows: ItemTemplate[] = [];
    for (let page = 1; ; page++) {
      const response = await call('GET', `${path}&per_page=${perPage}&page=${page}`, user);
      expect(response.statusCode, response.body).toBe(200);
      const { data, meta } = body(response);
      rows.push(...data);
      if (page >= meta.total_pages) {
        expect(rows, path).toHaveLength(meta.total_count);
        return rows;
      }
    }
  }

  /** Sorted by value: the priced ones in value order, then every unpriced one in the name order. */
  function expectPricedThenUnpriced(rows: ItemTemplate[], direction: 'asc' | 'desc', byName: ItemTemplate[]) {
    const firstUnpriced = rows.findIndex(isUnpriced);
    expect(firstUnpriced, `${direction}: no priced template first`).toBeGreaterThan(0);
    const priced = rows.slice(0, firstUnpriced);
    const unpriced = rows.slice(firstUnpriced);
    expect(names(unpriced.filter((t) => !isUnpriced(t))), direction).toEqual([]);
    const values = priced.map((t) => t.value_cp);
    expect(values, direction).toEqual([...values].sort((a, b) => (direction === 'asc' ? a - b : b - a)));
    expect(names(unpriced), direction).toEqual(names(byName.filter(isUnpriced)));
  }

  it('leaves them out of a search with min_value or max_value, and counts only what it lists', async () => {
    const me = await createUser(ctx);
    expect(names((await search(me, 'search=bag%20of%20holding')).data)).toContain('Bag of Holding');
    for (const range of ['max_value=50', 'min_value=0', 'min_value=0&max_value=1000000']) {
      const found = await search(me, `search=bag%20of%20holding&${range}`);
      expect(names(found.data), range).not.toContain('Bag of Holding');
      expect(found.data.filter(isUnpriced), range).toEqual([]);
    }
    const upTo50 = await everyPage(me, '/search/items?search=*&max_value=50', 50);
    expect(upTo50.length).toBeGreaterThan(0);
    expect(names(upTo50.filter(isUnpriced))).toEqual([]);

    const everything = await everyPage(me, '/search/items?search=*', 50);
    const unpricedCount = everything.filter(isUnpriced).length;
    expect(unpricedCount).toBeGreaterThan(100);
    const fromZero = await everyPage(me, '/search/items?search=*&min_value=0', 50);
    expect(fromZero).toHaveLength(everything.length - unpricedCount);
    // Nothing else changes: a search without a value range still finds them.
    expect((await search(me, 'rarity=legendary&per_page=50')).data.some(isUnpriced)).toBe(true);
  });

  it('sorts a search by value with every unpriced template after the priced ones, either way', async () => {
    const me = await createUser(ctx);
    const byName = await everyPage(me, '/search/items?search=*&sort=name', 50);
    for (const direction of ['asc', 'desc'] as const) {
      const rows = await everyPage(me, `/search/items?search=*&sort=value&direction=${direction}`, 50);
      expect(rows).toHaveLength(byName.length);
      expectPricedThenUnpriced(rows, direction, byName);
    }
    // With a term: the plain bag and its dearer kin before the Bag of Holding.
    const bags = await search(me, 'search=bag&sort=value&direction=asc&per_page=50');
    expect(isUnpriced(bags.data[0] as ItemTemplate)).toBe(false);
    expect(bags.data.findLastIndex((t) => !isUnpriced(t))).toBeLessThan(
      bags.data.findIndex((t) => t.name === 'Bag of Holding'),
    );
  });

  it('does the same in the template list: out of min_value and max_value, last by value', async () => {
    const me = await createUser(ctx);
    const system = '/item_templates?creator_id=system';
    expect(names(await everyPage(me, `${system}&search=bag%20of%20holding`, 100))).toContain(
      'Bag of Holding',
    );
    for (const range of ['max_value=50', 'min_value=0']) {
      const found = await everyPage(me, `${system}&search=bag%20of%20holding&${range}`, 100);
      expect(names(found), range).not.toContain('Bag of Holding');
      expect(names(found.filter(isUnpriced)), range).toEqual([]);
    }
    const upTo50 = await everyPage(me, `${system}&max_value=50`, 100);
    expect(upTo50.length).toBeGreaterThan(0);
    expect(names(upTo50.filter(isUnpriced))).toEqual([]);

    const byName = await everyPage(me, '/item_templates?visibility=public&sort=name', 100);
    for (const direction of ['asc', 'desc'] as const) {
      const rows = await everyPage(
        me,
        `/item_templates?visibility=public&sort=value&direction=${direction}`,
        100,
      );
      expect(rows).toHaveLength(byName.length);
      expectPricedThenUnpriced(rows, direction, byName);
    }
    // The default direction of a value sort is ascending: cheapest priced first, not a 0 gp magic item.
    const cheapest = body(await call('GET', `${system}&sort=value&per_page=5`, me)).data;
    expect(names(cheapest.filter(isUnpriced))).toEqual([]);
  });
});
