import type { Capacity } from '@haversack/contracts';
import { formatWeight } from '../../../lib/weight';

/**
 * How many items of `each` lbs the container still takes by weight, or null when weight does not limit it.
 * With the server's thousandth of a pound of slack (capacityRefusal), so that the number is one it accepts.
 */
export function weightRoomFor(capacity: Capacity, each: number): number | null {
  if (!capacity.enforces.weight || capacity.max === null || capacity.max <= 0 || each <= 0) return null;
  return Math.max(0, Math.floor((capacity.max - capacity.used + 0.0005) / each));
}

/**
 * "Item(s) would exceed weight limit (room for 2)": the spec's sentence first (spec/02 §5), then what fits,
 * when known. When not even one fits, how much weight is left beside what one weighs: "(no room left)" was
 * shown with 36.1 lbs free to a 65 lb armour (review newgm L1).
 */
export function capacityRefusalText(
  refusal: string,
  room: number | null,
  weights?: { each: number; capacity: Capacity },
): string {
  if (room === null) return refusal;
  if (room > 0) return `${refusal} (room for ${room})`;
  const { max, used } = weights?.capacity ?? {};
  // In thousandths of a pound, as weights are kept: 50 − 13.9 is 36.1, not 36.099999….
  const left = weights && max != null && used !== undefined ? Math.round((max - used) * 1000) / 1000 : 0;
  return weights && left > 0
    ? `${refusal} (${formatWeight(weights.each)} each, only ${formatWeight(left)} left)`
    : `${refusal} (no room left)`;
}
