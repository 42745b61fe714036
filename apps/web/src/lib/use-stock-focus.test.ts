import { renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useStockFocus } from './use-stock-focus';

describe('useStockFocus', () => {
  it('gives a row the same button props on every render, so that a memoised row is not drawn again', () => {
    const { result, rerender } = renderHook(({ open }) => useStockFocus(['a', 'b'], open), {
      initialProps: { open: false },
    });
    const take = result.current.tradeButton('a', 0, 'take');
    const claim = result.current.tradeButton('a', 0, 'claim');
    rerender({ open: true });
    expect(result.current.tradeButton('a', 0, 'take')).toBe(take);
    expect(result.current.tradeButton('a', 0, 'claim')).toBe(claim);
    // A row that moved to another place gets props of its own (its focus keeping names its index).
    expect(result.current.tradeButton('a', 1, 'take')).not.toBe(take);
  });
});
