import { describe, expect, it } from 'vitest';
import { purchaseSchema, shopItemFormSchema, stockSchema } from './shops.js';

const id = '3F2B8C1E-9A4D-4E7F-8B6A-1C2D3E4F5A6B';
const messages = (result: { error?: { issues: { message: string }[] } }) =>
  (result.error?.issues ?? []).map((issue) => issue.message);

describe('shop contracts', () => {
  it('words the highest price in gp, the unit the price fields are in', () => {
    const tooDear = 900_000 * 1000 + 1;
    expect(messages(shopItemFormSchema.safeParse({ item_template_id: id, price_cp: tooDear }))).toEqual([
      'A price can be at most 9,000,000 gp',
    ]);
    expect(messages(stockSchema.safeParse({ item_id: id, source_container_id: id, price: tooDear }))).toEqual(
      ['A price can be at most 9,000,000 gp'],
    );
    expect(shopItemFormSchema.safeParse({ item_template_id: id, price_cp: tooDear - 1 }).success).toBe(true);
  });

  it('words a trade’s quantity cap as the other quantity caps are worded', () => {
    const result = purchaseSchema.safeParse({
      buyer_character_id: id,
      buyer_container_id: id,
      item_instance_id: id,
      quantity: 100_001,
    });
    expect(messages(result)).toContain('Quantity can be at most 100,000');
    // 2^53 is whole: past the cap, it is refused for the cap alone.
    const huge = purchaseSchema.safeParse({
      item_instance_id: id,
      buyer_character_id: id,
      quantity: 2 ** 53,
    });
    expect(messages(huge)).toEqual(['Quantity can be at most 100,000']);
    const fraction = purchaseSchema.safeParse({
      item_instance_id: id,
      buyer_character_id: id,
      quantity: 1.5,
    });
    expect(messages(fraction)).toEqual(['Quantity must be a whole number']);
    // Not a number at all reads as a give, split or transfer reads it.
    for (const quantity of ['abc', null, true, [1], {}]) {
      const result = purchaseSchema.safeParse({ item_instance_id: id, buyer_character_id: id, quantity });
      expect(messages(result)).toContain('Quantity must be a whole number');
    }
  });
});
