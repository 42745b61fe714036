import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../db/schema/accounts.js';
import { itemTemplates } from '../../db/schema/items.js';
import { createUser } from '../../test/factories.js';
import { buildTestApp, type TestContext } from '../../test/helper.js';
import { itemsRepository, type SearchFilter } from './items.repository.js';
import { parseTsquery, parseTsvector, TemplateSearchIndex } from './items.search-index.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await buildTestApp();
  // A few hundred templates whose names and descriptions repeat words, so that ranks differ and tie.
  let state = 7;
  const random = () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] ?? (list[0] as T);
  const words =
    'the of storms long nights dragon fire sword blade light cold river running runs ran ring'.split(' ');
  const rows = Array.from({ length: 300 }, (_, i) => ({
    name: `${pick(['Rusty', 'Long', 'Dragon', 'Silent', 'Fire'])} ${pick(['Blade', 'Sword', 'Ring', 'Longbow'])} ${pick(['of Storms', 'of the Deep', 'of Long Nights', ''])} ${i % 7 === 0 ? '' : i}`.trim(),
    description: Array.from({ length: 5 + Math.floor(random() * 20) }, () => pick(words)).join(' '),
    weight: Math.round(random() * 500) / 100,
    baseValue: Math.floor(random() * 300),
    currency: pick(['cp', 'sp', 'gp'] as const),
    visibility: pick(['public', 'public', 'public', 'private'] as const),
    tags: [pick(['magic', 'loot', 'rare']), `category:${pick(['gear', 'weapon'])}`],
    // Every ninth is unpriced, as the SRD's magic items are: marked, whatever its base_value says.
    metadata: { rarity: pick(['common', 'rare']), ...(i % 9 === 0 ? { priced: false } : {}) },
  }));
  await ctx.database.db.insert(itemTemplates).values(rows);
  // Accents, Turkish letters and words in other orders, in names, descriptions and tags.
  await ctx.database.db
    .insert(itemTemplates)
    .values(
      [
        { name: 'Naïve Dagger' },
        { name: 'Kılıç of the Janissary', description: 'A Rusty blade from İstanbul' },
        { name: 'Épée de Café', description: 'Accent test Épée de Café' },
        { name: 'Plain Anvil', description: 'Forged in Kraków, by the river', tags: ['ıslak', 'légendaire'] },
        { name: 'Half-Plate «Naïve»', description: 'dagger' },
        { name: 'İSTANBUL Ring', tags: ['Islak'] },
      ].map((row) => ({ visibility: 'public' as const, ...row })),
    );
});
afterAll(async () => ctx.close());

const base: SearchFilter = { sort: 'relevance', direction: 'desc', page: 1, perPage: 50 };
const filters: Partial<SearchFilter>[] = [
  { term: 'sword' },
  { term: 'long' },
  { term: 'longs' },
  { term: 'longsword' },
  // Other spellings (items.search-terms), searched alongside the term.
  { term: 'swords', spellings: ['sword'] },
  { term: 'long sword', spellings: ['longsword'] },
  { term: 'rings of storms', spellings: ['ring of storms', 'fire'] },
  { term: 'blades', spellings: ['blade'], direction: 'asc' },
  { term: 'blades', spellings: ['blade'], page: 2, perPage: 5 },
  { term: 'Long Nights' },
  { term: 'dragon', sort: 'value' },
  { term: 'dragon', sort: 'weight', direction: 'asc' },
  { term: 'dragon fire' },
  { term: 'dragon or river' },
  { term: 'dragon -fire' },
  { term: '"of storms"' },
  { term: '"long nights"', tags: ['magic'] },
  { term: '"running river"' },
  { term: 'runs' },
  { term: 'the of' },
  { term: 'potion heal' },
  { term: '"potion of healing"' },
  { term: 'fire resistance' },
  { term: "a & | ! ('" },
  { term: '%' },
  { term: 'ring', direction: 'asc' },
  { term: 'ring', page: 2, perPage: 5 },
  { term: 'blade', sort: 'name', direction: 'desc' },
  { sort: 'name', direction: 'asc' },
  { sort: 'name', direction: 'asc', page: 3 },
  { sort: 'name', direction: 'desc', page: 2 },
  { sort: 'value', direction: 'desc', category: 'weapon' },
  { sort: 'weight', direction: 'asc', minWeight: 1, maxWeight: 2 },
  { sort: 'name', direction: 'asc', minValueCp: 100, maxValueCp: 2000 },
  { sort: 'name', direction: 'asc', tags: ['martial', 'ranged'] },
  { sort: 'name', direction: 'asc', rarity: 'legendary' },
  { sort: 'name', direction: 'asc', rarity: 'rare', tags: ['loot'] },
  { sort: 'name', direction: 'asc', page: 1000 },
  // Unpriced templates: out of any value range, after every priced one by value, either way.
  { sort: 'value', direction: 'asc' },
  { sort: 'value', direction: 'desc' },
  { sort: 'value', direction: 'asc', page: 10 },
  { sort: 'value', direction: 'desc', page: 13 },
  { sort: 'value', direction: 'asc', page: 16 },
  { term: 'dragon', sort: 'value', direction: 'asc' },
  { term: 'ring', sort: 'value', direction: 'desc', perPage: 20, page: 3 },
  { term: 'ring', minValueCp: 0 },
  { sort: 'name', direction: 'asc', minValueCp: 0, page: 2 },
  { sort: 'value', direction: 'desc', maxValueCp: 5000 },
  // Every word, in any order, without case or accents, in the name, description or tags.
  { term: 'dagger naive' },
  { term: 'DAGGER NAÏVE' },
  { term: 'kilic janissary' },
  { term: 'istanbul rusty' },
  { term: 'istanbul' },
  { term: 'krakow' },
  { term: 'cafe test' },
  { term: 'islak' },
  { term: 'storms rusty' },
  { term: 'nights long' },
  { term: 'blade 1' },
  { term: 'river' },
  { term: 'ri' },
  { term: 'plate half' },
  { term: '« naive »' },
  { term: 'sword -long' },
  { term: 'kilic, janissary', spellings: ['naive dagger'] },
  { term: 'dagger naive', sort: 'name', direction: 'asc' },
  { term: 'ring', tags: ['ISLAK'] },
  { sort: 'name', direction: 'asc', tags: ['LEGENDAIRE', 'islak'] },
];

describe('the in-memory search index', () => {
  it('answers exactly what the SQL search answers: the same rows, order and total', async () => {
    const index = new TemplateSearchIndex(ctx.database.db);
    for (const partial of filters) {
      const filter = { ...base, ...partial };
      const fromSql = await itemsRepository.search(ctx.database.db, filter);
      const fromMemory = await index.search(filter);
      const label = JSON.stringify(partial);
      expect(fromMemory.total, label).toBe(fromSql.total);
      expect(
        fromMemory.rows.map((r) => r.template.name),
        label,
      ).toEqual(fromSql.rows.map((r) => r.template.name));
      expect(fromMemory.rows, label).toEqual(fromSql.rows);
    }
  });

  it('leaves unpriced templates out of value ranges and sorts them after the priced ones, in both engines', async () => {
    const index = new TemplateSearchIndex(ctx.database.db);
    const engines = {
      sql: (filter: SearchFilter) => itemsRepository.search(ctx.database.db, filter),
      memory: (filter: SearchFilter) => index.search(filter),
    };
    const isUnpriced = (row: { template: { metadata: Record<string, unknown> } }) =>
      row.template.metadata.priced === false;
    for (const [engine, search] of Object.entries(engines)) {
      const all = await search({ ...base, sort: 'name', direction: 'asc', perPage: 10_000 });
      const unpriced = all.rows.filter(isUnpriced);
      expect(unpriced.length, engine).toBeGreaterThan(0);
      const ranged = await search({
        ...base,
        sort: 'name',
        direction: 'asc',
        perPage: 10_000,
        minValueCp: 0,
      });
      expect(ranged.rows.filter(isUnpriced), engine).toEqual([]);
      expect(ranged.total, engine).toBe(all.total - unpriced.length);
      for (const direction of ['asc', 'desc'] as const) {
        const byValue = await search({ ...base, sort: 'value', direction, perPage: 10_000 });
        const tail = byValue.rows.slice(byValue.rows.length - unpriced.length);
        expect(tail, `${engine} ${direction}`).toEqual(unpriced);
      }
    }
  });

  it('sees every writer’s change to public templates at the next search, and reloads only then', async () => {
    const index = new TemplateSearchIndex(ctx.database.db);
    const term = { ...base, term: 'quuxglaive' };
    expect((await index.search(term)).total).toBe(0);
    const generation = async () => {
      const result = await ctx.database.db.execute(sql`select n::text as n from item_template_generation`);
      return (result as unknown as { rows: { n: string }[] }).rows[0]?.n;
    };

    // A private template does not touch the public catalogue's generation.
    const before = await generation();
    await ctx.database.db.insert(itemTemplates).values({ name: 'Quuxglaive private', visibility: 'private' });
    expect(await generation()).toBe(before);
    expect((await index.search(term)).total).toBe(0);

    // Another writer (no service involved) adds a public one, renames its creator, then hides it.
    const owner = await createUser(ctx, { username: 'quux_owner' });
    const [row] = await ctx.database.db
      .insert(itemTemplates)
      .values({ name: 'Quuxglaive', visibility: 'public', creatorId: owner.user.id })
      .returning({ id: itemTemplates.id });
    expect(await generation()).not.toBe(before);
    const found = await index.search(term);
    expect(found.rows.map((r) => [r.template.name, r.creatorName])).toEqual([['Quuxglaive', 'quux_owner']]);
    await ctx.database.db.update(users).set({ username: 'quux_renamed' }).where(eq(users.id, owner.user.id));
    expect((await index.search(term)).rows[0]?.creatorName).toBe('quux_renamed');
    await ctx.database.db
      .update(itemTemplates)
      .set({ visibility: 'private' })
      .where(eq(itemTemplates.id, row?.id ?? ''));
    expect((await index.search(term)).total).toBe(0);
  });

  it('parses PostgreSQL’s text forms of tsvector and tsquery', () => {
    expect([...parseTsvector("'long':1A,4B 'o''brien':2 'sword':3C")]).toEqual([
      ['long', [1 * 4 + 3, 4 * 4 + 2]],
      ["o'brien", [2 * 4]],
      ['sword', [3 * 4 + 1]],
    ]);
    expect(parseTsquery('')).toBeUndefined();
    expect(parseTsquery("'a' | 'b':*A & !'c' <2> 'd'")).toEqual({
      kind: 'or',
      left: { kind: 'operand', lexeme: 'a', prefix: false, weights: 0 },
      right: {
        kind: 'and',
        left: { kind: 'operand', lexeme: 'b', prefix: true, weights: 8 },
        right: {
          kind: 'phrase',
          distance: 2,
          left: { kind: 'not', child: { kind: 'operand', lexeme: 'c', prefix: false, weights: 0 } },
          right: { kind: 'operand', lexeme: 'd', prefix: false, weights: 0 },
        },
      },
    });
  });
});
