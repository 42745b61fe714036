import { describe, expect, it } from 'vitest';
import { gpAmountError, gpToCp } from './gp-amount';

describe('gold typed, copper kept', () => {
  it('keeps an amount to the copper exactly, however the float falls', () => {
    expect(gpToCp(0.29)).toBe(29);
    expect(gpToCp('10.01')).toBe(1001);
    expect(gpToCp(9_000_000.01)).toBe(900_000_001);
    expect(gpToCp(0)).toBe(0);
    expect(gpToCp('')).toBeNull();
    expect(gpAmountError(0.29)).toBeNull();
    expect(gpAmountError('')).toBeNull();
  });

  it('refuses an amount finer than a copper rather than rounding it (0.001 gp was saved as 0 cp)', () => {
    expect(gpToCp(0.001)).toBeNull();
    expect(gpToCp('1.255')).toBeNull();
    expect(gpAmountError(0.001)).toBe('Enter the price to the copper (0.01 gp)');
    expect(gpAmountError(12.345, 'amount')).toBe('Enter the amount to the copper (0.01 gp)');
  });

  it('refuses what is not an amount at all', () => {
    expect(gpToCp(-1)).toBeNull();
    expect(gpAmountError(-1)).toBe('The price cannot be negative');
    expect(gpAmountError('-')).toBe('Enter the price in gp');
  });
});
