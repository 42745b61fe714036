import { describe, expect, it } from 'vitest';
import { buildItem } from '../test/inventory-fixtures';
import { matchesItemFilters, noItemFilters } from './inventory-api';

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
