import {
  copperPer,
  copperValue,
  formatGp,
  formatStackValue,
  gpToCopper,
  isStackable,
  normaliseTags,
  templateCategory,
} from '@haversack/contracts';
import { describe, expect, it } from 'vitest';

describe('money helpers (DESIGN §4)', () => {
  it('prices every coin in copper: 1 pp = 10 gp = 20 ep = 100 sp = 1000 cp', () => {
    expect(copperPer).toEqual({ cp: 1, sp: 10, ep: 50, gp: 100, pp: 1000 });
    expect(copperValue(1, 'pp')).toBe(10 * copperValue(1, 'gp'));
    expect(copperValue(2, 'ep')).toBe(copperValue(1, 'gp'));
    expect(copperValue(15, 'gp')).toBe(1500);
    expect(copperValue(4, 'cp')).toBe(4);
    expect(copperValue(0, 'sp')).toBe(0);
  });

  it('refuses a fractional base value instead of carrying a float', () => {
    expect(() => copperValue(0.2, 'cp')).toThrow(RangeError);
  });

  it('turns a typed gp amount into whole copper', () => {
    expect(gpToCopper(10)).toBe(1000);
    expect(gpToCopper(0.5)).toBe(50);
    expect(gpToCopper(0.015)).toBe(2);
    expect(gpToCopper(0.1 + 0.2)).toBe(30);
  });

  it('formats totals in whole gp (spec/02 §3: 0 decimals), rounded down', () => {
    expect(formatGp(0)).toBe('0 gp');
    expect(formatGp(99)).toBe('0 gp');
    expect(formatGp(150)).toBe('1 gp');
    expect(formatGp(123_456)).toBe('1,234 gp');
  });

  it('shows small change in silver or copper rather than 0 gp', () => {
    expect(formatStackValue(0)).toBe('0 gp');
    expect(formatStackValue(5)).toBe('5 cp');
    expect(formatStackValue(50)).toBe('5 sp');
    expect(formatStackValue(99)).toBe('99 cp');
    expect(formatStackValue(100)).toBe('1 gp');
    expect(formatStackValue(250)).toBe('2 gp');
  });
});

describe('template rules (spec/02 §3)', () => {
  it('is stackable with stack_size 0 or above 1', () => {
    expect([0, 1, 2, 20].map(isStackable)).toEqual([true, false, true, true]);
  });

  it('takes the category from a category: tag, else from metadata', () => {
    expect(templateCategory(['weapon', 'category:weapon'], { category: 'other' })).toBe('weapon');
    expect(templateCategory(['x'], { category: 'gem' })).toBe('gem');
    expect(templateCategory([], {})).toBeNull();
    expect(templateCategory(['category:'], {})).toBeNull();
  });

  it('normalises tags entered comma-separated or as a list', () => {
    expect(normaliseTags(' Loot, loot ,,Magic ')).toEqual(['loot', 'magic']);
    expect(normaliseTags(['A', ' b ', ''])).toEqual(['a', 'b']);
  });
});
