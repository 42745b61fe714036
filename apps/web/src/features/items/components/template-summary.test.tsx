import { describe, expect, it } from 'vitest';
import { buildLootItemTemplate } from '../../loot/test/loot-fixtures';
import { templatePrice, templateSummary } from './template-summary';

describe('templatePrice', () => {
  it('gives the base value in its own currency', () => {
    expect(templatePrice({ base_value: 15, currency: 'gp', metadata: {} })).toBe('15 gp');
    expect(templatePrice({ base_value: 0, currency: 'cp', metadata: { priced: true } })).toBe('0 cp');
    expect(templatePrice({ base_value: 1_500, currency: 'gp', metadata: {} })).toBe('1,500 gp');
  });

  it('says Unpriced for catalogue items the SRD gives no price', () => {
    expect(templatePrice({ base_value: 0, currency: 'gp', metadata: { priced: false } })).toBe('Unpriced');
  });
});

describe('templateSummary', () => {
  it('groups the thousands of a big stack size', () => {
    const template = buildLootItemTemplate({ stack_size: 10_000_000, weight: 0, category: null });
    expect(templateSummary(template)).toContain('stacks of 10,000,000');
  });

  it('says a one-pound item weighs 1 lb, not 1 lbs', () => {
    const template = buildLootItemTemplate({ weight: 1, base_value: 2, currency: 'sp', category: null });
    expect(templateSummary(template)).toMatch(/^1 lb · 2 sp/);
  });
});
