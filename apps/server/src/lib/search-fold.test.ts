import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { itemTemplates } from '../db/schema/items.js';
import { itemsRepository, type SearchFilter } from '../modules/items/items.repository.js';
import { TemplateSearchIndex } from '../modules/items/items.search-index.js';
import { createCharacter, createUser, type SignedInUser, upgrade } from '../test/factories.js';
import { buildTestApp, callApi, type TestContext } from '../test/helper.js';
import { foldForSearch } from './search-fold.js';

const names = [
  'Épée longue',
  'Kılıç',
  'Çekiç',
  'Öllampe',
  'Crème brûlée',
  'İksir',
  'ışık taşı',
  'Ñandú',
  'Naïve Wand',
  '刀',
  'سيف',
  '🗡️ Dagger',
  'Longsword',
];

let ctx: TestContext;
let gm: SignedInUser;
beforeAll(async () => {
  ctx = await buildTestApp();
  gm = await createUser(ctx);
  await upgrade(ctx, gm, 'tier_3');
  await ctx.database.db.insert(itemTemplates).values(
    names.map((name) => ({
      name,
      weight: 1,
      baseValue: 1,
      currency: 'gp' as const,
      visibility: 'public' as const,
    })),
  );
});
afterAll(async () => ctx.close());

describe('foldForSearch', () => {
  it('takes away case and accents, and makes the Turkish ı, I, İ and i one letter', () => {
    expect(foldForSearch('Épée')).toBe('epee');
    expect(foldForSearch('ÇEKİÇ')).toBe('cekic');
    expect(foldForSearch('IŞIK ışık İşık')).toBe('isik isik isik');
    expect(foldForSearch('Ørsted Ærø Straße')).toBe('ørsted ærø straße');
    // Marks that make another letter in other scripts stay: a kana's voicing, a Devanagari vowel sign.
    expect(foldForSearch('が किताब 刀 سيف 🗡️')).toBe('が किताब 刀 سيف 🗡️');
  });
});

describe('searching without accents or case', () => {
  const base: SearchFilter = { sort: 'relevance', direction: 'desc', page: 1, perPage: 50 };
  const found: [string, string][] = [
    ['epee', 'Épée longue'],
    ['EPEE', 'Épée longue'],
    ['épée', 'Épée longue'],
    ['cekic', 'Çekiç'],
    ['KILIÇ', 'Kılıç'],
    ['kilic', 'Kılıç'],
    ['ışık', 'ışık taşı'],
    ['IŞIK', 'ışık taşı'],
    ['IKSIR', 'İksir'],
    ['ollampe', 'Öllampe'],
    ['brulee', 'Crème brûlée'],
    ['nandu', 'Ñandú'],
    ['naive', 'Naïve Wand'],
    ['刀', '刀'],
    ['سيف', 'سيف'],
    ['🗡', '🗡️ Dagger'],
  ];

  it('finds "Épée" by "epee" in the SQL search and the in-memory index alike', async () => {
    const index = new TemplateSearchIndex(ctx.database.db);
    for (const [term, name] of found) {
      const fromSql = await itemsRepository.search(ctx.database.db, { ...base, term });
      const fromMemory = await index.search({ ...base, term });
      expect(
        fromSql.rows.map((row) => row.template.name),
        term,
      ).toContain(name);
      expect(
        fromMemory.rows.map((row) => row.template.name),
        term,
      ).toEqual(fromSql.rows.map((row) => row.template.name));
      expect(fromMemory.total, term).toBe(fromSql.total);
    }
  });

  it('finds them in the item template list, characters and shop templates', async () => {
    const created = await callApi(ctx, 'POST', '/item_templates', gm, {
      item_template: { name: 'Épée courte' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const listed = await callApi(ctx, 'GET', '/item_templates?search=EPEE', gm);
    expect((listed.json() as { data: { name: string }[] }).data.map((t) => t.name)).toContain('Épée courte');

    await createCharacter(ctx, gm, { name: 'İsmail Işık' });
    for (const term of ['ışık', 'IŞIK', 'isik', 'ismail'])
      expect(
        (await callApi(ctx, 'GET', `/characters?search=${encodeURIComponent(term)}`, gm)).json(),
        term,
      ).toMatchObject({ data: [{ name: 'İsmail Işık' }] });

    const shop = await callApi(ctx, 'POST', '/shop_templates', gm, {
      shop_template: { name: 'Ömer Çelik’s Forge' },
    });
    expect(shop.statusCode, shop.body).toBe(201);
    for (const term of ['omer', 'CELIK'])
      expect((await callApi(ctx, 'GET', `/shop_templates?search=${term}`, gm)).json(), term).toMatchObject({
        data: [{ name: 'Ömer Çelik’s Forge' }],
      });
  });
});

describe('name order', () => {
  it('lists a shop template’s lines without regard to case or accents, and numbers by value', async () => {
    const shop = await callApi(ctx, 'POST', '/shop_templates', gm, { shop_template: { name: 'Bazaar' } });
    const shopId = (shop.json() as { data: { id: string } }).data.id;
    for (const name of [
      'Zauberstab',
      'Épée de cour',
      'amulett',
      'Bogen 10',
      'Bogen 2',
      'Äbel',
      'Çekiç klein',
    ]) {
      const template = await callApi(ctx, 'POST', '/item_templates', gm, { item_template: { name } });
      const id = (template.json() as { data: { id: string } }).data.id;
      const added = await callApi(ctx, 'POST', `/shop_templates/${shopId}/add_item`, gm, {
        shop_item: { item_template_id: id, quantity: 1 },
      });
      expect(added.statusCode, added.body).toBeLessThan(300);
    }
    const lines = await callApi(ctx, 'GET', `/shop_templates/${shopId}/items?per_page=50`, gm);
    expect(
      (lines.json() as { data: { item_template: { name: string } }[] }).data.map(
        (line) => line.item_template.name,
      ),
    ).toEqual(['Äbel', 'amulett', 'Bogen 2', 'Bogen 10', 'Çekiç klein', 'Épée de cour', 'Zauberstab']);
  });
});
