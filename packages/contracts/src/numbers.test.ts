import { describe, expect, it } from 'vitest';
import { formatEnUs } from './numbers.js';

/** What formatEnUs stands in for. */
const intl = (value: number, min = 0, max = 3) =>
  value.toLocaleString('en-US', { minimumFractionDigits: min, maximumFractionDigits: Math.max(min, max) });

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
