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
});
