import type { ItemTemplate } from '@haversack/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type SignedInUser } from '../../test/factories.js';
import { buildTestApp, callApi, type TestContext } from '../../test/helper.js';
import { itemsRepository, type SearchFilter } from './items.repository.js';
import { TemplateSearchIndex } from './items.search-index.js';
import { catalogueSpellings, otherSpellings, seededCatalogueSpellings } from './items.search-terms.js';

let ctx: TestContext;
let player: SignedInUser;
beforeAll(async () => {
  ctx = await buildTestApp();
  player = await createUser(ctx);
});
afterAll(async () => ctx.close());

/** The names search/items answers for what a new player typed, best first. */
async function searched(term: string): Promise<string[]> {
  const response = await callApi(ctx, 'GET', `/search/items?search=${encodeURIComponent(term)}`, player);
  expect(response.statusCode, response.body).toBe(200);
  return (response.json() as { data: ItemTemplate[] }).data.map((template) => template.name);
}

/** What a new player types, and the catalogue template it means. */
const firsts: [string, string][] = [
  ['arrows', 'Arrow'],
  ['daggers', 'Dagger'],
  ['rations', 'Rations (1 day)'],
  ['short sword', 'Shortsword'],
  ['long sword', 'Longsword'],
  ['chainmail', 'Chain Mail'],
  ['hand axe', 'Handaxe'],
  ['war hammer', 'Warhammer'],
  ['crossbow bolts', 'Crossbow bolt'],
  ['gp', 'Gold piece'],
  ['sp', 'Silver piece'],
  ['cp', 'Copper piece'],
  ['ep', 'Electrum piece'],
  ['pp', 'Platinum piece'],
  ['GP', 'Gold piece'],
  ['gold pieces', 'Gold piece'],
  ['short swords', 'Shortsword'],
];

describe('search/items in a new player’s words', () => {
  it.each(firsts)('finds what "%s" means first: %s', async (term, name) => {
    expect((await searched(term))[0]).toBe(name);
  });

  it('places the potion of healing near the top of "potions of healing"', async () => {
    expect((await searched('potions of healing')).slice(0, 3)).toContain('Potion of Healing');
  });

  it('still answers the term as typed, and leaves websearch syntax to the user', async () => {
    // The catalogue's own plural keeps its place, and what the term found before is still found.
    expect((await searched('boots')).slice(0, 6).every((name) => name.includes('Boots'))).toBe(true);
    expect(await searched('bolts')).toEqual(expect.arrayContaining(['Wand of Lightning Bolts']));
    // A phrase, an exclusion and an `or` mean what the user wrote.
    expect(await searched('"short sword"')).toEqual([]);
    expect(await searched('arrows -slaying')).not.toContain('Arrow of Slaying');
    expect(await searched('dagger or arrow')).toEqual(expect.arrayContaining(['Arrow', 'Dagger']));
  });

  it('answers the same from the in-memory index as from the SQL search for every spelling', async () => {
    const index = new TemplateSearchIndex(ctx.database.db);
    const terms = [...firsts.map(([term]) => term), 'potions of healing', 'bolts', 'boots'];
    for (const term of terms) {
      const spellings = otherSpellings(term, seededCatalogueSpellings());
      for (const direction of ['desc', 'asc'] as const) {
        const filter: SearchFilter = { term, spellings, sort: 'relevance', direction, page: 1, perPage: 50 };
        const fromSql = await itemsRepository.search(ctx.database.db, filter);
        const fromMemory = await index.search(filter);
        const label = `${term} ${direction}`;
        expect(fromMemory.total, label).toBe(fromSql.total);
        expect(fromMemory.rows, label).toEqual(fromSql.rows);
      }
    }
  });
});

describe('otherSpellings', () => {
  const catalogue = catalogueSpellings(
    [
      'Arrow',
      'Arrow of Slaying',
      'Shortsword',
      'Sword of Wounding',
      'Chain Mail',
      'Crossbow bolt',
      'Wand of Lightning Bolts',
    ],
    [{ abbreviation: 'gp', name: 'Gold piece' }],
  );

  it('reads a term in the catalogue’s words: singular, joined, split, coins spelled out', () => {
    expect(otherSpellings('Arrows', catalogue)).toEqual(['arrow']);
    expect(otherSpellings('arrows of slaying', catalogue)).toEqual(['arrow of slaying']);
    expect(otherSpellings('short swords', catalogue)).toEqual(['shortsword']);
    expect(otherSpellings('chainmail', catalogue)).toEqual(['chain mail']);
    expect(otherSpellings('crossbow bolts', catalogue)).toEqual(['crossbow bolt']);
    expect(otherSpellings('gp', catalogue)).toEqual(['gold piece']);
  });

  it('has none for a term already in the catalogue’s words, or in websearch syntax', () => {
    expect(otherSpellings('arrow', catalogue)).toEqual([]);
    expect(otherSpellings('shortsword', catalogue)).toEqual([]);
    expect(otherSpellings('as', catalogue)).toEqual([]);
    expect(otherSpellings('"short sword"', catalogue)).toEqual([]);
    expect(otherSpellings('arrows -slaying', catalogue)).toEqual([]);
    expect(otherSpellings('arrows or bolts', catalogue)).toEqual([]);
  });
});
