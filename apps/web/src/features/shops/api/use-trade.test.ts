import { emptyPurse, type Purse } from '@haversack/contracts';
import { describe, expect, it } from 'vitest';
import { formatPurse, purseWorth } from './use-trade';

describe('purseWorth', () => {
  const purse = (coins: Partial<Purse>): Purse => ({ ...emptyPurse(), ...coins });

  it('reads coins as they are when they already read as their worth', () => {
    expect(purseWorth(purse({ gp: 8, sp: 2 }))).toBe('8 gp 2 sp');
    expect(purseWorth(purse({}))).toBe('no coins');
  });

  it('gives the worth first when the coins alone would hide it', () => {
    expect(purseWorth(purse({ gp: 62, sp: 110, cp: 26 }))).toBe('73 gp 2 sp 6 cp (62 gp, 110 sp, 26 cp)');
  });

  it('groups the thousands of a big purse, as prices are', () => {
    expect(purseWorth(purse({ gp: 12_500 }))).toBe('12,500 gp');
    expect(formatPurse({ pp: 1_200, gp: 3 })).toBe('1,200 pp 3 gp');
  });
});
