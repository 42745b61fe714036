import { emptyPurse, type Purse } from '@haversack/contracts';
import { describe, expect, it } from 'vitest';
import { purseWorth } from './use-trade';

describe('purseWorth', () => {
  const purse = (coins: Partial<Purse>): Purse => ({ ...emptyPurse(), ...coins });

  it('reads coins as they are when they already read as their worth', () => {
    expect(purseWorth(purse({ gp: 8, sp: 2 }))).toBe('8 gp 2 sp');
    expect(purseWorth(purse({}))).toBe('no coins');
  });

  it('gives the worth first when the coins alone would hide it', () => {
    expect(purseWorth(purse({ gp: 62, sp: 110, cp: 26 }))).toBe('73 gp 2 sp 6 cp (62 gp, 110 sp, 26 cp)');
  });
});
