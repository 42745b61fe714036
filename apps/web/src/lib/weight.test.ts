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

// Content review, finding 4: 0.001 lb read "0.0 lbs" and 99,999.999 lbs read "100,000.0 lbs", past the most
// an item weighs. Weights are shown as kept: to the ten-thousandth at most, trailing zeros trimmed.
describe('weights finer than hundredths, and at the most an item weighs', () => {
  it('shows a stack’s weight in full: never 0.0 for a small weight, never rounded past the maximum', () => {
    expect(formatStackWeight(0.001, 1)).toBe('0.001 lbs');
    expect(formatStackWeight(99_999.999, 1)).toBe('99,999.999 lbs');
    expect(formatStackWeight(0.075, 1)).toBe('0.075 lbs');
    expect(formatStackWeight(0.075, 20)).toBe('1.5 lbs');
    expect(formatStackWeight(0.075, 3)).toBe('0.225 lbs');
    // Written before weights were held to thousandths: item_templates.weight keeps four decimals.
    expect(formatStackWeight(0.0001, 1)).toBe('0.0001 lbs');
  });

  it('shows a weight, a load and a load against its limit the same way', () => {
    expect(formatWeight(0.075)).toBe('0.075 lbs');
    expect(formatWeight(0.001)).toBe('0.001 lbs');
    expect(formatWeight(99_999.999)).toBe('99,999.999 lbs');
    expect(formatWeight(0.075, { of: 0.1 })).toBe('0.075 / 0.1 lbs');
    expect(formatWeight(0.1 + 0.2)).toBe('0.3 lbs');
  });
});

describe('a heavy stack', () => {
  it('is shown without a float’s error', () => {
    expect(formatStackWeight(99_999.999, 9_999_999)).toBe('999,999,890,000.0 lbs');
  });
});
