import { DEFAULT_WEIGHT_UNIT, formatEnUs, roundLoadWeight } from '@haversack/contracts';

/** spec/01 §9, spec/02 §9: weight is in lbs, everywhere it is shown. */
export const WEIGHT_UNIT = DEFAULT_WEIGHT_UNIT;

interface WeightFormat {
  /** Always this many decimals ("3.0 lbs"); by default up to two, as the weights are entered. */
  decimals?: number;
  /** Weight against a limit: "17.5 / 60 lbs". */
  of?: number;
}

/** "1,250", "0.02", "3.0": en-US digits without Intl (formatEnUs: Intl's first use is slow on a phone). */
function amount(lbs: number, decimals: number | undefined): string {
  return formatEnUs(lbs, decimals ?? 0, decimals ?? 2);
}

/** "1 lb" and "1.0 lb", but "0 lbs", "0.5 lbs", "2 lbs": the market read "1 lbs". */
function unitOf(lbs: number): string {
  return lbs === 1 ? 'lb' : WEIGHT_UNIT;
}

/** The one weight formatter: "0.02 lbs", "1,250 lbs", "3.0 lbs" with one decimal, "17.5 / 60 lbs", "1 lb". */
export function formatWeight(lbs: number, format: WeightFormat = {}): string {
  const used = amount(lbs, format.decimals);
  if (format.of === undefined) return `${used} ${unitOf(lbs)}`;
  return `${used} / ${amount(format.of, format.decimals)} ${unitOf(format.of)}`;
}

/**
 * A stack's total weight: one decimal as spec/02 §3 says ("6.0 lbs"), and a second where the hundredths
 * count, so that a total never contradicts its each: one 0.25 lb charm weighs 0.25 lb in all, not 0.3,
 * and 0.04 lb of salt is not 0.0. It is worked out from the each, which the server's `totalWeight`, in
 * tenths, has lost.
 */
export function formatStackWeight(each: number, quantity: number): string {
  const total = roundLoadWeight(each * quantity);
  return `${formatEnUs(total, 1, 2)} ${unitOf(total)}`;
}

/** A field's label with the unit: "Weight (lbs)". */
export function weightLabel(label: string): string {
  return `${label} (${WEIGHT_UNIT})`;
}
