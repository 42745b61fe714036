import { describe, expect, it } from 'vitest';
import { templatePrice } from './template-summary';

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
