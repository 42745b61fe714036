import { describe, expect, it } from 'vitest';
import { characterFormSchema } from './characters.js';
import { inHundredths } from './fields.js';
import { containerFormSchema, instanceDataSchema } from './inventory.js';

const messages = (result: { error?: { issues: { message: string }[] } }) =>
  (result.error?.issues ?? []).map((issue) => issue.message);

describe('max weights', () => {
  it('are kept in hundredths: a finer one is refused, never rounded to 0, which means unlimited', () => {
    expect(messages(containerFormSchema.safeParse({ name: 'Sack', max_weight: 0.004 }))).toEqual([
      'Max weight can have at most 2 decimal places',
    ]);
    expect(messages(characterFormSchema.safeParse({ name: 'Thorin', max_weight: 12.345 }))).toEqual([
      'Max weight can have at most 2 decimal places',
    ]);
    expect(containerFormSchema.safeParse({ name: 'Sack', max_weight: 0.29 }).success).toBe(true);
    expect(characterFormSchema.safeParse({ name: 'Thorin', max_weight: 12.35 }).success).toBe(true);
    expect(characterFormSchema.safeParse({ name: 'Thorin', max_weight: null }).success).toBe(true);
  });

  it('tells hundredths apart within a float’s error', () => {
    expect([0.29, 12.35, 100, 0].map(inHundredths)).toEqual([true, true, true, true]);
    expect([0.005, 1e-7, 12.345].map(inHundredths)).toEqual([false, false, false]);
  });

  it('refuses every finer value, however tiny or however written (attack review: 1e-9 was stored as 0)', () => {
    const finer = [1e-9, 1e-12, 5e-9, 0.000000001, 10.0000001, 5.000000001, 999999.999, '1e-9', '0.001'];
    expect(finer.map(inHundredths)).toEqual(finer.map(() => false));
    const exact = [0.01, 0.1, 0.3, 1e2, 1e-2, 2.5e-1, 999999.99, 1_000_000, '0.29', '1e-2', -0.01];
    expect(exact.map(inHundredths)).toEqual(exact.map(() => true));
    for (const max_weight of [1e-9, 1e-12, 10.0000001]) {
      expect(messages(containerFormSchema.safeParse({ name: 'Sack', max_weight }))).toEqual([
        'Max weight can have at most 2 decimal places',
      ]);
      expect(messages(characterFormSchema.safeParse({ name: 'Thorin', max_weight }))).toEqual([
        'Max weight can have at most 2 decimal places',
      ]);
    }
  });

  // An item's weight, override included, takes thousandths (item-weight.test.ts); finer is still refused.
  it('hold for a weight override too: 0.0001 would be stored and its total shown as 0', () => {
    expect(messages(instanceDataSchema.safeParse({ weight_override: 0.0001 }))).toEqual([
      'Weight can have at most 3 decimal places',
    ]);
    expect(instanceDataSchema.safeParse({ weight_override: 0.25 }).success).toBe(true);
    expect(instanceDataSchema.safeParse({ weight_override: null }).success).toBe(true);
  });
});

describe('override and capacity refusals', () => {
  it('are worded, not zod’s own text', () => {
    expect(messages(containerFormSchema.safeParse({ name: 'Sack', max_weight: 'abc' }))).toEqual([
      'Max weight must be a number',
    ]);
    expect(messages(instanceDataSchema.safeParse({ value_override: 0.5 }))).toEqual([
      'Value must be a whole number',
    ]);
    expect(messages(instanceDataSchema.safeParse({ weight_override: -1 }))).toEqual([
      'Weight cannot be negative',
    ]);
  });
});

describe('a character’s capacity bounds', () => {
  it('are its main container’s: a limit the container takes, the character takes too', () => {
    const limits = { max_weight: 1_000_000, max_slots: 100_000 };
    expect(containerFormSchema.safeParse({ name: 'Backpack', ...limits }).success).toBe(true);
    expect(characterFormSchema.safeParse({ name: 'Thorin', ...limits }).success).toBe(true);
    expect(messages(characterFormSchema.safeParse({ name: 'Thorin', max_slots: 100_001 }))).toEqual([
      'Max slots must be at most 100,000',
    ]);
  });
});
