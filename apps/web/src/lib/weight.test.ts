import { describe, expect, it } from 'vitest';
import { formatWeight, weightLabel } from './weight';

describe('formatWeight: weight in lbs, the spec’s unit (spec/01 §9, spec/02 §9)', () => {
  it('shows weights as entered, totals with the decimals asked for, and weight against a limit', () => {
    expect(formatWeight(0.02)).toBe('0.02 lbs');
    expect(formatWeight(3)).toBe('3 lbs');
    expect(formatWeight(1250)).toBe('1,250 lbs');
    expect(formatWeight(6, { decimals: 1 })).toBe('6.0 lbs');
    expect(formatWeight(17.5, { of: 60 })).toBe('17.5 / 60 lbs');
    expect(weightLabel('Weight')).toBe('Weight (lbs)');
  });
});
