import { describe, expect, it } from 'vitest';
import { formatStackWeight, formatWeight, weightLabel } from './weight';

describe('formatWeight: weight in lbs, the spec’s unit (spec/01 §9, spec/02 §9)', () => {
  it('shows weights as entered, totals with the decimals asked for, and weight against a limit', () => {
    expect(formatWeight(0.02)).toBe('0.02 lbs');
    expect(formatWeight(3)).toBe('3 lbs');
    expect(formatWeight(1250)).toBe('1,250 lbs');
    expect(formatWeight(6, { decimals: 1 })).toBe('6.0 lbs');
    expect(formatWeight(17.5, { of: 60 })).toBe('17.5 / 60 lbs');
    expect(weightLabel('Weight')).toBe('Weight (lbs)');
  });

  it('says one pound in the singular, with or without decimals, and as a limit', () => {
    expect(formatWeight(1)).toBe('1 lb');
    expect(formatWeight(1, { decimals: 1 })).toBe('1.0 lb');
    expect(formatWeight(0.5, { of: 1 })).toBe('0.5 / 1 lb');
    expect(formatWeight(1, { of: 2 })).toBe('1 / 2 lbs');
    expect(formatWeight(1.5)).toBe('1.5 lbs');
    expect(formatWeight(0)).toBe('0 lbs');
  });
});

describe('formatStackWeight: one decimal (spec/02 §3), two where the hundredths count', () => {
  it('uses the same unit rule as formatWeight', () => {
    expect(formatStackWeight(3, 1)).toBe('3.0 lbs');
    expect(formatStackWeight(0.05, 20)).toBe('1.0 lb');
    expect(formatStackWeight(0.25, 1)).toBe('0.25 lbs');
  });
});
