import { copperPer, currencies, purseValueCp } from '@haversack/contracts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { splitProceeds } from './sale-split.js';

describe('splitProceeds', () => {
  it('shares 1001 cp among three as 334/334/333, in the largest coins', () => {
    const shares = splitProceeds(1001, 3);
    expect(shares.map((s) => s.cp)).toEqual([334, 334, 333]);
    expect(shares[0]?.coins).toEqual({ pp: 0, gp: 3, ep: 0, sp: 3, cp: 4 });
    expect(shares[2]?.coins).toEqual({ pp: 0, gp: 3, ep: 0, sp: 3, cp: 3 });
  });

  it('deals the odd copper to whoever has received the least from earlier split sales, ties in list order', () => {
    // Aria and Bram got the odd copper last time: this time it goes to Cole, then (a tie) to Aria.
    expect(splitProceeds(1001, 3, [334, 334, 333]).map((s) => s.cp)).toEqual([334, 333, 334]);
    expect(splitProceeds(1000, 3, [334, 334, 333]).map((s) => s.cp)).toEqual([333, 333, 334]);
    expect(splitProceeds(1001, 3, [10, 5, 0]).map((s) => s.cp)).toEqual([333, 334, 334]);
    // Over a run of odd sales among the same three, nobody is more than 1 cp ahead of anyone.
    const received = [0, 0, 0];
    for (let sale = 0; sale < 10; sale++) {
      for (const [i, share] of splitProceeds(1001, 3, received).entries())
        received[i] = (received[i] ?? 0) + share.cp;
      expect(Math.max(...received) - Math.min(...received)).toBeLessThanOrEqual(1);
    }
  });

  it('gives nothing to anyone when the sale is worth nothing, and refuses nonsense', () => {
    expect(splitProceeds(0, 2).map((s) => s.cp)).toEqual([0, 0]);
    expect(() => splitProceeds(10, 0)).toThrow(RangeError);
    expect(() => splitProceeds(-1, 2)).toThrow(RangeError);
    expect(() => splitProceeds(1.5, 2)).toThrow(RangeError);
    expect(() => splitProceeds(10, 2, [0])).toThrow(RangeError);
  });

  it('never creates or loses copper: shares add up to the total and differ by at most 1 cp', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 3_000_000_000 }), fc.integer({ min: 1, max: 8 }), (total, n) => {
        const shares = splitProceeds(total, n);
        expect(shares).toHaveLength(n);
        const amounts = shares.map((s) => s.cp);
        expect(amounts.reduce((a, b) => a + b, 0)).toBe(total);
        expect(Math.max(...amounts) - Math.min(...amounts)).toBeLessThanOrEqual(1);
        // The remainder goes to the first chosen: the shares never grow down the list.
        for (let i = 1; i < n; i++) expect(amounts[i]).toBeLessThanOrEqual(amounts[i - 1] ?? 0);
        for (const share of shares) {
          // Each share is paid exactly, in whole coins, with fewer than one of any larger coin in change.
          expect(purseValueCp(share.coins)).toBe(share.cp);
          for (const coin of currencies) expect(Number.isInteger(share.coins[coin])).toBe(true);
          expect(share.coins.cp).toBeLessThan(copperPer.sp);
          expect(share.coins.sp).toBeLessThan(copperPer.gp / copperPer.sp);
          expect(share.coins.gp).toBeLessThan(copperPer.pp / copperPer.gp);
        }
      }),
      { numRuns: 500 },
    );
  });
});
