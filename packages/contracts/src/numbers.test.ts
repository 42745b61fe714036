import { describe, expect, it } from 'vitest';
import { formatCopper, formatGp, formatStackValue } from './items.js';
import { formatEnUs, isSaturated, MAX_REPORTED_SUM, saturate, saturatingSum } from './numbers.js';

/**
 * What formatEnUs stands in for: toLocaleString('en-US') with these digits. One Intl.NumberFormat per pair
 * of digits, because toLocaleString builds a new one on every call and the 20,000 comparisons below then
 * came near the test's timeout on a loaded machine.
 */
const enUsFormats = new Map<string, Intl.NumberFormat>();
const intl = (value: number, min = 0, max = 3) => {
  const key = `${min}-${max}`;
  let format = enUsFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat('en-US', {
      minimumFractionDigits: min,
      maximumFractionDigits: Math.max(min, max),
    });
    enUsFormats.set(key, format);
  }
  return format.format(value);
};

describe('formatEnUs', () => {
  it('writes numbers as en-US does: grouped thousands, trimmed or padded decimals', () => {
    expect(formatEnUs(10_000)).toBe('10,000');
    expect(formatEnUs(1234567.891, 0, 2)).toBe('1,234,567.89');
    expect(formatEnUs(3, 1, 1)).toBe('3.0');
    expect(formatEnUs(0.02, 0, 2)).toBe('0.02');
    expect(formatEnUs(-1250.5, 0, 2)).toBe('-1,250.5');
  });

  it('gives the same answer as toLocaleString("en-US") for integers, decimals and ties', () => {
    const values = [
      0,
      -0,
      1,
      9,
      10,
      99,
      100,
      999,
      1000,
      1001,
      12_345,
      999_999,
      1_000_000,
      123_456_789,
      2 ** 53,
      0.1,
      0.125,
      0.135,
      1.005,
      2.675,
      0.5,
      1.5,
      2.5,
      -0.5,
      -2.5,
      -0.001,
      0.0049,
      0.005,
      0.015,
      17.5,
      1e20,
      1e21,
      Number.NaN,
      Number.POSITIVE_INFINITY,
    ];
    // And a spread of weights as they are typed (two decimals) and computed (sums, ratios).
    for (let i = 0; i < 2000; i++) values.push(((i * 7919) % 100_000) / 100, (i * 104_729) / 997);
    for (const value of values) {
      for (const [min, max] of [
        [0, 3],
        [0, 2],
        [1, 1],
        [0, 0],
        [2, 2],
      ] as const) {
        expect(formatEnUs(value, min, max), `${value} (${min}–${max})`).toBe(intl(value, min, max));
      }
    }
  });
});

describe('saturating sums (worth past Number.MAX_SAFE_INTEGER)', () => {
  it('adds exactly inside the range and stops at its edge past it', () => {
    expect(saturatingSum([1, 2, 3])).toBe(6);
    expect(saturatingSum([])).toBe(0);
    // 9e15 + 7e12 = 9.007e15 is still safe and exact; one more full stack is not.
    expect(saturatingSum([9e15, 7_000_000_000_000])).toBe(9_007_000_000_000_000);
    expect(saturatingSum(Array(11).fill(9e15))).toBe(MAX_REPORTED_SUM);
    expect(saturatingSum([MAX_REPORTED_SUM, 1])).toBe(MAX_REPORTED_SUM);
    expect(() => saturatingSum([0.5])).toThrow(RangeError);
  });

  it('reads a database sum (text) or a bigint, exact up to the limit', () => {
    expect(saturate('9007199254740991')).toBe(MAX_REPORTED_SUM);
    expect(saturate('9007199254740990')).toBe(9007199254740990);
    expect(saturate('9007199254740992')).toBe(MAX_REPORTED_SUM);
    expect(saturate('99000000000000000')).toBe(MAX_REPORTED_SUM);
    expect(saturate('12.5')).toBe(12.5);
    expect(saturate(10n ** 20n)).toBe(MAX_REPORTED_SUM);
    expect(saturate(-(10n ** 20n))).toBe(-MAX_REPORTED_SUM);
    expect(isSaturated(MAX_REPORTED_SUM)).toBe(true);
    expect(isSaturated(MAX_REPORTED_SUM - 1)).toBe(false);
  });

  it('writes a saturated worth as at least that many gp, and every other worth as before', () => {
    expect(formatGp(MAX_REPORTED_SUM)).toBe('90,071,992,547,409+ gp');
    expect(formatStackValue(MAX_REPORTED_SUM)).toBe('90,071,992,547,409+ gp');
    expect(formatCopper(MAX_REPORTED_SUM)).toBe('90,071,992,547,409+ gp');
    expect(formatGp(9e15)).toBe('90,000,000,000,000 gp');
    expect(formatCopper(1234)).toBe('12 gp 3 sp 4 cp');
  });
});
