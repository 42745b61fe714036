import { makeChange, type Purse } from '@haversack/contracts';

/** One character's part of a split sale: copper owed, and the coins that pay it exactly. */
export interface SaleShare {
  cp: number;
  coins: Purse;
}

/**
 * Issue 11 §8: the proceeds of a sale shared evenly among `n` characters, as pure arithmetic. Everyone gets
 * total ÷ n copper and the remainder is dealt one copper each to whoever has received the least from earlier
 * split sales (`receivedSoFar`, copper, in the same order; ties in the order the characters were chosen), so
 * the odd copper goes round instead of always to the first chosen. The shares differ by at most 1 cp and add
 * up to the total: no copper is created or lost. Each share is paid in the largest coins (change made down to
 * copper), as a normal sale pays its seller.
 */
export function splitProceeds(
  totalCp: number,
  n: number,
  receivedSoFar: readonly number[] = [],
): SaleShare[] {
  if (!Number.isInteger(n) || n < 1) throw new RangeError('at least one character');
  if (!Number.isInteger(totalCp) || totalCp < 0) throw new RangeError('a whole, non-negative amount');
  if (receivedSoFar.length !== 0 && receivedSoFar.length !== n)
    throw new RangeError('what each character received so far, or nothing');
  const base = Math.floor(totalCp / n);
  const extras = new Set(
    Array.from({ length: n }, (_, i) => i)
      .sort((a, b) => (receivedSoFar[a] ?? 0) - (receivedSoFar[b] ?? 0) || a - b)
      .slice(0, totalCp - base * n),
  );
  return Array.from({ length: n }, (_, i) => base + (extras.has(i) ? 1 : 0)).map((cp) => ({
    cp,
    coins: makeChange(cp),
  }));
}
