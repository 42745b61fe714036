import { describe, expect, it } from 'vitest';
import { buildItem } from '../test/inventory-fixtures';
import { itemFilterParams, matchesItemFilters, noItemFilters, searchableItemFilters } from './inventory-api';

describe('matchesItemFilters', () => {
  it('matches a search on the name, the notes and the template’s tags, as the server does', () => {
    const oil = buildItem({
      name: 'Oil of Etherealness',
      notes: 'from the lich',
      item_template: { ...buildItem().item_template, name: 'Oil of Etherealness', tags: ['potion'] },
    });
    const search = (text: string) => matchesItemFilters(oil, { ...noItemFilters, search: text });
    expect([search('POTION'), search('lich'), search('oil'), search('sword')]).toEqual([
      true,
      true,
      true,
      false,
    ]);
  });
});

describe('matchesItemFilters and unpriced items', () => {
  // The SRD gives magic items no price (stored at 0): a value range leaves them out, as the server does.
  const bag = buildItem({
    name: 'Bag of Holding',
    value: 0,
    value_cp: 0,
    currency: 'gp',
    item_template: { ...buildItem().item_template, name: 'Bag of Holding', metadata: { priced: false } },
  });
  const appraised = { ...bag, value: 5, value_cp: 500, instance_data: { value_override: 5 } };
  const inRange = (item: typeof bag, minValue: number | null, maxValue: number | null) =>
    matchesItemFilters(item, { ...noItemFilters, minValue, maxValue });

  it('leaves an unpriced item out of any value range, and keeps it without one', () => {
    expect(inRange(bag, null, null)).toBe(true);
    expect(inRange(bag, 0, null)).toBe(false);
    expect(inRange(bag, null, 10)).toBe(false);
    expect(inRange(bag, 0, 10)).toBe(false);
  });

  it('compares an unpriced item that a value_override prices like any other', () => {
    expect(inRange(appraised, 0, null)).toBe(true);
    expect(inRange(appraised, null, 10)).toBe(true);
    expect(inRange(appraised, null, 4)).toBe(false);
    expect(inRange(buildItem({ value_cp: 0 }), null, 10)).toBe(true);
  });
});

describe('searchableItemFilters', () => {
  it('leaves out a value range whose max is below its min, and keeps a possible one', () => {
    const inverted = searchableItemFilters({ ...noItemFilters, rarity: 'rare', minValue: 500, maxValue: 10 });
    expect(inverted).toEqual({ ...noItemFilters, rarity: 'rare' });
    expect(itemFilterParams(inverted).toString()).toBe('rarity=rare');
    const single = searchableItemFilters({ ...noItemFilters, minValue: 10, maxValue: 10 });
    expect(itemFilterParams(single).toString()).toBe('min_value=10&max_value=10');
  });
});
