import {
  DEFAULT_WEIGHT_UNIT,
  formatEnUs,
  roundLoadWeight,
  WEIGHT_SHOWN_DECIMALS,
} from '@haversack/contracts';

/** spec/01 §9, spec/02 §9: weight is in lbs, everywhere it is shown. */
export const WEIGHT_UNIT = DEFAULT_WEIGHT_UNIT;

interface WeightFormat {
  /** At least this many decimals ("3.0 lbs"); more where the weight, as kept, has them ("0.075 lbs"). */
  decimals?: number;
  /** Weight against a limit: "17.5 / 60 lbs". */
  of?: number;
}

/**
 * "1,250", "0.02", "0.075", "3.0": en-US digits without Intl (formatEnUs: Intl's first use is slow on a
 * phone). Up to the decimals a weight is kept in, never fewer: 0.001 lb is not "0", 99,999.999 not "100,000".
 */
function amount(lbs: number, decimals: number | undefined): string {
  return formatEnUs(lbs, decimals ?? 0, Math.max(decimals ?? 0, WEIGHT_SHOWN_DECIMALS));
}

/** "1 lb" and "1.0 lb", but "0 lbs", "0.5 lbs", "2 lbs": the market read "1 lbs". */
function unitOf(lbs: number): string {
  return lbs === 1 ? 'lb' : WEIGHT_UNIT;
}

/** The one weight formatter: "0.075 lbs", "1,250 lbs", "3.0 lbs" with one decimal, "17.5 / 60 lbs", "1 lb". */
export function formatWeight(lbs: number, format: WeightFormat = {}): string {
  const used = amount(lbs, format.decimals);
  if (format.of === undefined) return `${used} ${unitOf(lbs)}`;
  return `${used} / ${amount(format.of, format.decimals)} ${unitOf(format.of)}`;
}

/**
 * A stack's total weight: one decimal as spec/02 §3 says ("6.0 lbs"), and more where they count, as the
 * weight is kept, so that a total never contradicts its each: one 0.25 lb charm weighs 0.25 lb in all, not
 * 0.3, 0.04 lb of salt is not 0.0, nor 0.001 lb "0.0", and 99,999.999 lbs is not "100,000.0". It is worked
 * out from the each, which the server's `totalWeight`, in tenths, has lost.
 */
export function formatStackWeight(each: number, quantity: number): string {
  const total = roundLoadWeight(each * quantity);
  return `${amount(total, 1)} ${unitOf(total)}`;
}

/** A field's label with the unit: "Weight (lbs)". */
export function weightLabel(label: string): string {
  return `${label} (${WEIGHT_UNIT})`;
}
