import { describe, expect, it } from 'vitest';
import { encumbranceOf } from './wealth.js';

describe('encumbranceOf (SRD variant rule on max_weight)', () => {
  it('is encumbered past a third, heavily past two thirds, over capacity past the maximum', () => {
    expect(encumbranceOf(0, 150, 'both')).toBe('unencumbered');
    expect(encumbranceOf(50, 150, 'both')).toBe('unencumbered');
    expect(encumbranceOf(50.1, 150, 'weight')).toBe('encumbered');
    expect(encumbranceOf(100, 150, null)).toBe('encumbered');
    expect(encumbranceOf(100.1, 150, null)).toBe('heavily_encumbered');
    expect(encumbranceOf(150, 150, null)).toBe('heavily_encumbered');
    expect(encumbranceOf(150.1, 150, null)).toBe('over_capacity');
  });

  it('absorbs decimal rounding at the limit', () => {
    expect(encumbranceOf(0.1 + 0.2, 0.3, null)).toBe('heavily_encumbered');
  });

  it('has no level without a limit or when the party does not count weight', () => {
    expect(encumbranceOf(500, null, 'both')).toBeNull();
    expect(encumbranceOf(500, 0, 'both')).toBeNull();
    expect(encumbranceOf(500, 10, 'slots')).toBeNull();
    expect(encumbranceOf(500, 10, 'none')).toBeNull();
  });
});
