import { describe, expect, it } from 'vitest';
import { copyNameFor } from './copy-names.js';

describe('copyNameFor', () => {
  it('says "(Copy)", then counts on while the owner already has that name', () => {
    expect(copyNameFor('Hoard', 100, new Set())).toBe('Hoard (Copy)');
    expect(copyNameFor('Hoard', 100, new Set(['Hoard (Copy)']))).toBe('Hoard (Copy 2)');
    expect(copyNameFor('Hoard', 100, new Set(['Hoard (Copy)', 'Hoard (Copy 2)']))).toBe('Hoard (Copy 3)');
    // A gap left by a renamed copy is taken again.
    expect(copyNameFor('Hoard', 100, new Set(['Hoard (Copy)', 'Hoard (Copy 3)']))).toBe('Hoard (Copy 2)');
  });

  it('counts a copy of a copy from the same original', () => {
    expect(copyNameFor('Hoard (Copy)', 100, new Set(['Hoard (Copy)']))).toBe('Hoard (Copy 2)');
    expect(copyNameFor('Hoard (Copy 2)', 100, new Set(['Hoard (Copy)', 'Hoard (Copy 2)']))).toBe(
      'Hoard (Copy 3)',
    );
  });

  it('cuts a long name to keep the suffix within the longest name allowed', () => {
    const long = 'x'.repeat(200);
    expect(copyNameFor(long, 200, new Set())).toBe(`${'x'.repeat(193)} (Copy)`);
    const second = copyNameFor(long, 200, new Set([`${'x'.repeat(193)} (Copy)`]));
    expect(second).toBe(`${'x'.repeat(191)} (Copy 2)`);
    expect(second).toHaveLength(200);
  });

  it('cuts a long name between characters as shown, never inside an emoji sequence', () => {
    const family = '👨‍👩‍👧'; // three people joined by zero-width joiners: 8 UTF-16 units, one character
    const long = `Abbbbbb${family.repeat(24)}`; // 199 units
    const copy = copyNameFor(long, 200, new Set());
    // 193 units would end inside the 24th family; the cut ends after the 23rd.
    expect(copy).toBe(`Abbbbbb${family.repeat(23)} (Copy)`);
    expect(copy.length).toBeLessThanOrEqual(200);
    expect(copyNameFor(long, 200, new Set([copy]))).toBe(`Abbbbbb${family.repeat(23)} (Copy 2)`);
    // A letter with its combining accent stays whole too.
    expect(copyNameFor(`${'x'.repeat(12)}e\u0301`, 20, new Set())).toBe(`${'x'.repeat(12)} (Copy)`);
  });
});
