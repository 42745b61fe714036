import { DEFAULT_WEIGHT_UNIT } from '@haversack/contracts';

/** spec/01 §9, spec/02 §9: weight is in lbs, everywhere it is shown. */
export const WEIGHT_UNIT = DEFAULT_WEIGHT_UNIT;

interface WeightFormat {
  /** Always this many decimals ("3.0 lbs"); by default up to two, as the weights are entered. */
  decimals?: number;
  /** Weight against a limit: "17.5 / 60 lbs". */
  of?: number;
}

/** One formatter per number of decimals: `toLocaleString` with options builds a new one on every call. */
const formatters = new Map<number | undefined, Intl.NumberFormat>();

function amount(lbs: number, decimals: number | undefined): string {
  let formatter = formatters.get(decimals);
  if (!formatter) {
    formatter = new Intl.NumberFormat('en-US', {
      minimumFractionDigits: decimals ?? 0,
      maximumFractionDigits: decimals ?? 2,
    });
    formatters.set(decimals, formatter);
  }
  return formatter.format(lbs);
}

/** The one weight formatter: "0.02 lbs", "1,250 lbs", "3.0 lbs" with one decimal, "17.5 / 60 lbs". */
export function formatWeight(lbs: number, format: WeightFormat = {}): string {
  const used = amount(lbs, format.decimals);
  if (format.of === undefined) return `${used} ${WEIGHT_UNIT}`;
  return `${used} / ${amount(format.of, format.decimals)} ${WEIGHT_UNIT}`;
}

/** A field's label with the unit: "Weight (lbs)". */
export function weightLabel(label: string): string {
  return `${label} (${WEIGHT_UNIT})`;
}
