/**
 * Money is typed in gold and kept in copper (DESIGN §4): 1.5 gp is 150 cp. An amount finer than a copper is
 * refused rather than rounded: 0.001 gp rounded to 0 cp and made the item free.
 */

/** Said under a price of 0: allowed, but it gives the item away. */
export const freeItemWarning = 'Players will get it for free.';

/** Why a typed amount in gold cannot be kept in copper as it is; null when it can (or the field is blank). */
export function gpAmountError(value: number | string, noun: 'price' | 'amount' = 'price'): string | null {
  if (value === '') return null;
  const gp = Number(value);
  if (!Number.isFinite(gp)) return `Enter the ${noun} in gp`;
  if (gp < 0) return `The ${noun} cannot be negative`;
  // With at most two decimals the copper divided back by 100 is the very number typed; anything finer is not.
  return Math.round(gp * 100) / 100 === gp ? null : `Enter the ${noun} to the copper (0.01 gp)`;
}

/** The amount in copper; null when blank or refused by `gpAmountError`. */
export function gpToCp(value: number | string): number | null {
  return value === '' || gpAmountError(value) !== null ? null : Math.round(Number(value) * 100);
}

/** A copper amount as the input shows it, in gold; none is blank. */
export const cpToGp = (cp: number | null): number | string => (cp === null ? '' : cp / 100);
