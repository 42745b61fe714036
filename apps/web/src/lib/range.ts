/**
 * A min/max filter pair whose max is below its min can match nothing: the Max field says so, and the search
 * leaves the pair out rather than asking for what cannot be (the marketplace, the workspace's value filter).
 */
export const rangeMessages = {
  value: 'Max value must be at least the min value',
  weight: 'Max weight must be at least the min weight',
} as const;

/** The same for a field too narrow for a sentence (the workspace's 110 px Max gp): one short line. */
export const shortRangeMessage = 'Below the min';

const numberOf = (value: number | string | null | undefined): number | null =>
  value === null || value === undefined || value === '' || !Number.isFinite(Number(value))
    ? null
    : Number(value);

/** Whether both ends are given and the max is below the min. */
export function isInvertedRange(
  min: number | string | null | undefined,
  max: number | string | null | undefined,
): boolean {
  const low = numberOf(min);
  const high = numberOf(max);
  return low !== null && high !== null && high < low;
}

/** The Max field's error for the pair, or null when the range can match something. */
export function rangeError(
  min: number | string | null | undefined,
  max: number | string | null | undefined,
  kind: keyof typeof rangeMessages,
): string | null {
  return isInvertedRange(min, max) ? rangeMessages[kind] : null;
}
