import { type Capacity, type EncumbranceLevel, formatEnUs } from '@haversack/contracts';
import { Group, Progress, Stack, Text } from '@mantine/core';
import { formatWeight } from '../lib/weight';

/** spec/02 §9: bars turn to the warning colour at 75 % and to the error colour at 90 %. */
export const CAPACITY_WARNING_PERCENT = 75;
export const CAPACITY_ERROR_PERCENT = 90;
export const weightNearlyFullMessage = 'Container is nearly full!';
export const slotsRunningOutMessage = 'Running out of slots!';
/** Ours, in the spec's style: at 100 % "nearly full" understated it (a 5 / 5 lbs pouch takes nothing more). */
export const weightFullMessage = 'Container is full!';
export const slotsFullMessage = 'No slots left!';
/** A container may hold more than its limits: filled while the party tracked no encumbrance, say. */
export const weightOverMessage = 'Over capacity: this container holds more than it can.';
export const slotsOverMessage = 'Over capacity: this container holds more stacks than it has slots.';

export type CapacityLevel = 'ok' | 'warning' | 'error' | 'over';

export function capacityLevel(percent: number): CapacityLevel {
  if (percent > 100) return 'over';
  if (percent >= CAPACITY_ERROR_PERCENT) return 'error';
  if (percent >= CAPACITY_WARNING_PERCENT) return 'warning';
  return 'ok';
}

const levelColors: Record<CapacityLevel, string> = {
  ok: 'teal',
  warning: 'yellow',
  error: 'red',
  // Deeper than the 90 % warning, and striped: over the limit is not the same as nearly full.
  over: 'red.9',
};

/**
 * A character's load by its SRD encumbrance level (docs/decisions.md "Encumbrance": encumbered past a third
 * of `max_weight`): its bar is coloured as its badge says, so that "Encumbered" never sits beside a green bar.
 */
export const encumbranceColors: Record<EncumbranceLevel, string> = {
  unencumbered: 'teal',
  encumbered: 'yellow',
  heavily_encumbered: 'orange',
  over_capacity: 'red',
};

/**
 * Percent of a limit used, unrounded and past 100 for a container over its limit; null when there is no
 * limit (null or 0 = unlimited, DESIGN §4).
 */
export function percentUsed(used: number, max: number | null): number | null {
  if (max === null || max <= 0) return null;
  return (used / max) * 100;
}

/** An amount held where there is no limit, as the bar and the container selects say it: "12 lbs (unlimited)". */
export function unlimitedAmount(amount: string): string {
  return `${amount} (unlimited)`;
}

/** A bar's fill (and its aria-valuenow): full at most, to a tenth of a percent; no limit, none. */
export function barFill(percent: number | null): number {
  return Math.round(Math.min(100, percent ?? 0) * 10) / 10;
}

/**
 * Whole percents, as the bar and the container selects say them: never "0%" of a container holding
 * something, nor "100%" of one not exactly full.
 */
export function formatPercent(percent: number): string {
  if (percent > 0 && percent < 1) return '<1%';
  const whole = Math.round(percent);
  if (whole === 100 && percent < 100) return '99%';
  if (whole === 100 && percent > 100) return '101%';
  return `${formatEnUs(whole)}%`;
}

function Meter({
  label,
  used,
  max,
  format,
  nearlyFullMessage,
  fullMessage,
  overMessage,
  color,
}: {
  label: string;
  used: number;
  max: number | null;
  /** "4.5 / 50 lbs", "12 lbs" without a limit. */
  format: (used: number, max?: number) => string;
  nearlyFullMessage: string;
  fullMessage: string;
  overMessage: string;
  /** The bar's colour where it is a character's load (its encumbrance level's); else the percent's. */
  color?: string;
}) {
  const percent = percentUsed(used, max);
  const level = percent === null ? 'ok' : capacityLevel(percent);
  const amount = max === null || max <= 0 ? unlimitedAmount(format(used)) : format(used, max);
  return (
    <Stack gap={4} data-testid={`capacity-${label.toLowerCase()}`} data-level={level}>
      <Group justify="space-between" gap="xs" wrap="nowrap">
        <Text size="xs" fw={600}>
          {label}
        </Text>
        <Text size="xs" c="dimmed">
          {amount}
          {percent === null ? '' : ` · ${formatPercent(percent)}`}
        </Text>
      </Group>
      {/* No limit, no bar (as the character's Load): an empty one said "0%" of a container in use to a screen
          reader, and to the eye. What it holds is said above. */}
      {percent === null ? null : (
        <Progress.Root size="sm">
          {/* Mantine's own value text is the fill ("100%" of a container at 150 %): the real one is said. */}
          <Progress.Section
            value={barFill(percent)}
            color={color ?? levelColors[level]}
            striped={level === 'over'}
            withAria={false}
            role="progressbar"
            aria-label={`${label} used`}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={barFill(percent)}
            aria-valuetext={`${formatPercent(percent)}${level === 'over' ? ', over capacity' : ''}`}
          />
        </Progress.Root>
      )}
      {level === 'error' || level === 'over' ? (
        <Text
          size="xs"
          c="light-dark(var(--mantine-color-red-8), var(--mantine-color-red-4))"
          fw={600}
          role="status"
        >
          {level === 'over'
            ? overMessage
            : percent !== null && percent >= 100
              ? fullMessage
              : nearlyFullMessage}
        </Text>
      ) : null}
    </Stack>
  );
}

/**
 * spec/02 §2: weight used against the maximum and slots used against the maximum. `loadLevel` is the
 * encumbrance of the character whose capacity the container carries (a primary container's limit is its
 * character's `max_weight`): where it is known, the weight is coloured by it, as the badge beside says it;
 * the messages stay the container's own (what it can still take). Other containers keep the percent colours.
 */
export function CapacityBar({
  capacity,
  loadLevel = null,
}: {
  capacity: Capacity;
  loadLevel?: EncumbranceLevel | null;
}) {
  return (
    <Stack gap="xs" data-testid="capacity-bar">
      {capacity.enforces.weight ? (
        <Meter
          label="Weight"
          used={capacity.used}
          max={capacity.max}
          format={(lbs, of) => formatWeight(lbs, { of })}
          nearlyFullMessage={weightNearlyFullMessage}
          fullMessage={weightFullMessage}
          overMessage={weightOverMessage}
          color={loadLevel ? encumbranceColors[loadLevel] : undefined}
        />
      ) : null}
      {capacity.enforces.slots ? (
        <Meter
          label="Slots"
          used={capacity.slots_used}
          max={capacity.slots_max}
          format={(slots, of) =>
            of === undefined ? formatEnUs(slots) : `${formatEnUs(slots)} / ${formatEnUs(of)}`
          }
          nearlyFullMessage={slotsRunningOutMessage}
          fullMessage={slotsFullMessage}
          overMessage={slotsOverMessage}
        />
      ) : null}
      {!capacity.enforces.weight && !capacity.enforces.slots ? (
        <Text size="xs" c="dimmed">
          This party does not track encumbrance.
        </Text>
      ) : null}
    </Stack>
  );
}
