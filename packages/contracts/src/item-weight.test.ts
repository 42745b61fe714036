import { describe, expect, it } from 'vitest';
import { instanceDataSchema, MAX_ITEM_WEIGHT } from './inventory.js';
import { itemTemplateCreateBodySchema, itemTemplateUpdateSchema } from './items.js';

const messages = (result: { error?: { issues: { message: string }[] } }) =>
  (result.error?.issues ?? []).map((issue) => issue.message);

const template = (weight: unknown) =>
  itemTemplateCreateBodySchema.safeParse({ item_template: { name: 'Bolt', weight } });

// One rule for an item's weight, template or override, in the API and the form alike: to the thousandth
// of a pound, as the catalogue's own crossbow bolt weighs 0.075 lb (content review, finding 4).
describe('item weights', () => {
  it('take thousandths, the catalogue’s crossbow bolt and the edges included', () => {
    for (const weight of [0.075, 0.001, 99_999.999, MAX_ITEM_WEIGHT, 0, '0.075']) {
      expect(template(weight).success, String(weight)).toBe(true);
      expect(itemTemplateUpdateSchema.safeParse({ weight }).success, String(weight)).toBe(true);
      expect(instanceDataSchema.safeParse({ weight_override: weight }).success, String(weight)).toBe(true);
    }
  });

  it('refuse anything finer, however written, with the same words everywhere', () => {
    for (const weight of [0.0001, 0.0005, 12.3456, 1e-9, '0.0001', 99_999.9999]) {
      const expected = ['Weight can have at most 3 decimal places'];
      expect(messages(template(weight)), String(weight)).toEqual(expected);
      expect(messages(itemTemplateUpdateSchema.safeParse({ weight })), String(weight)).toEqual(expected);
      expect(messages(instanceDataSchema.safeParse({ weight_override: weight })), String(weight)).toEqual(
        expected,
      );
    }
  });
});
