import { describe, expect, it } from 'vitest';
import { fieldMessages } from './fields.js';
import {
  lootContentsFingerprint,
  lootDistributeSchema,
  lootInstanceCreateSchema,
  lootItemCreateBodySchema,
  lootMessages,
  lootTakeBodySchema,
  lootTemplateFormSchema,
  lootTemplateListQuerySchema,
} from './loot.js';

const id = '3F2B8C1E-9A4D-4E7F-8B6A-1C2D3E4F5A6B';
const issues = (result: {
  success: boolean;
  error?: { issues: { path: PropertyKey[]; message: string }[] };
}) => (result.error?.issues ?? []).map((issue) => ({ path: issue.path.join('.'), message: issue.message }));

describe('loot contracts', () => {
  it('a loot template form: a name, defaults, tags lower-cased and unique, safe text only', () => {
    expect(lootTemplateFormSchema.parse({ name: ' Hoard ', tag_list: 'Gold, gold ,Dragon' })).toEqual({
      name: 'Hoard',
      description: '',
      source_type: 'custom',
      source: '',
      tag_list: ['gold', 'dragon'],
      visibility: 'private',
    });
    expect(issues(lootTemplateFormSchema.safeParse({ name: '  ' }))).toEqual([
      { path: 'name', message: lootMessages.nameRequired },
    ]);
    expect(issues(lootTemplateFormSchema.safeParse({ name: 'ok', source: 'a\u0000' }))).toEqual([
      { path: 'source', message: fieldMessages.unsafeText },
    ]);
  });

  it('a loot item is an item or coins, never both or neither, with a whole positive quantity', () => {
    expect(lootItemCreateBodySchema.parse({ loot_item: { currency: 'gp', quantity: '12' } })).toEqual({
      currency: 'gp',
      quantity: 12,
    });
    expect(lootItemCreateBodySchema.parse({ item_template_id: id })).toEqual({
      item_template_id: id.toLowerCase(),
      quantity: 1,
    });
    for (const bad of [{}, { item_template_id: id, currency: 'gp' }, { quantity: 2 }])
      expect(issues(lootItemCreateBodySchema.safeParse(bad))).toEqual([
        { path: 'item_template_id', message: lootMessages.itemOrCoins },
      ]);
    expect(lootItemCreateBodySchema.safeParse({ currency: 'gp', quantity: 0 }).success).toBe(false);
  });

  it('deploying takes location_name bare or in instance_data', () => {
    const parsed = lootInstanceCreateSchema.parse({
      loot_template_id: id,
      party_id: id,
      instance_data: { location_name: 'Cave', extra: true },
    });
    expect(parsed.instance_data).toEqual({ location_name: 'Cave' });
    expect(parsed.loot_template_id).toBe(id.toLowerCase());
  });

  it('list filters: synonyms for sort, tag and tags merged, filters[...] unwrapped', () => {
    expect(
      lootTemplateListQuerySchema.parse({
        'filters[tag]': 'Orc',
        tags: 'camp,ORC',
        sort_by: 'value',
        direction: 'desc',
      }),
    ).toMatchObject({ tags: ['orc', 'camp'], sort: 'value', direction: 'desc', page: 1, per_page: 20 });
    expect(lootTemplateListQuerySchema.parse({})).toMatchObject({ tags: [], sort: 'name', direction: 'asc' });
    expect(lootTemplateListQuerySchema.safeParse({ source_type: 'dragon' }).success).toBe(false);
  });

  it('distribution: characters once each, even by default, a seed for repeatable random draws', () => {
    expect(lootDistributeSchema.parse({ character_ids: [id] })).toEqual({
      character_ids: [id.toLowerCase()],
      distribution_mode: 'even',
      preview: false,
    });
    expect(issues(lootDistributeSchema.safeParse({ character_ids: [id, id.toLowerCase()] }))).toEqual([
      { path: 'character_ids', message: 'Choose each character once' },
    ]);
    expect(lootDistributeSchema.safeParse({ character_ids: [] }).success).toBe(false);
    expect(lootDistributeSchema.safeParse({ character_ids: [id], seed: 2 ** 31 }).success).toBe(false);
    expect(lootDistributeSchema.safeParse({ character_ids: [id], distribution_mode: 'fair' }).success).toBe(
      false,
    );
  });

  it('a loot contents fingerprint: the same stacks in any order, a new one when a quantity changes', () => {
    const a = { id: 'a1', quantity: 3 };
    const b = { id: 'B2', quantity: 1 };
    const print = lootContentsFingerprint([a, b]);
    expect(print).toMatch(/^[0-9a-f]{14}$/);
    expect(lootContentsFingerprint([{ ...b, id: 'b2' }, a])).toBe(print);
    expect(lootContentsFingerprint([a, { ...b, quantity: 2 }])).not.toBe(print);
    expect(lootContentsFingerprint([a])).not.toBe(print);
    expect(lootDistributeSchema.parse({ character_ids: [id], contents_fingerprint: print })).toMatchObject({
      contents_fingerprint: print,
    });
    expect(
      lootDistributeSchema.safeParse({ character_ids: [id], contents_fingerprint: 'not hex' }).success,
    ).toBe(false);
  });

  it('take accepts its fields bare or wrapped as {take}', () => {
    const fields = { item_instance_id: id, target_container_id: id, quantity: 2 };
    expect(lootTakeBodySchema.parse({ take: fields })).toEqual(lootTakeBodySchema.parse(fields));
  });
});
