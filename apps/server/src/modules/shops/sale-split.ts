import { makeChange, type Purse } from '@haversack/contracts';
import { evenShares } from '../loot/loot-distribution.js';

/** One character's part of a split sale: copper owed, and the coins that pay it exactly. */
export interface SaleShare {
  cp: number;
  coins: Purse;
}

/**
 * Issue 11 §8: the proceeds of a sale shared evenly among `n` characters, as pure arithmetic. Everyone gets
 * total ÷ n copper and the remainder is dealt one copper each, in the order the characters were chosen,
 * so the shares differ by at most 1 cp and add up to the total: no copper is created or lost. Each share
 * is paid in the largest coins (change made down to copper), as a normal sale pays its seller.
 */
export function splitProceeds(totalCp: number, n: number): SaleShare[] {
  if (!Number.isInteger(n) || n < 1) throw new RangeError('at least one character');
  if (!Number.isInteger(totalCp) || totalCp < 0) throw new RangeError('a whole, non-negative amount');
  return evenShares(totalCp, n, 0).map((cp) => ({ cp, coins: makeChange(cp) }));
}
