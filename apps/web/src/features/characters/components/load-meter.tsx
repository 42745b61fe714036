import {
  type CharacterWealth,
  type EncumbranceLevel,
  encumbranceEffects,
  encumbranceLabels,
} from '@haversack/contracts';
import { Badge, Group, Progress, Stack, Text } from '@mantine/core';
import { barFill, encumbranceColors, percentUsed } from '../../../components/capacity-bar';
import { formatWeight } from '../../../lib/weight';

/** Filled badges whose text (black or white, picked by contrast) stays readable in both themes. */
const encumbranceBadgeColors: Record<EncumbranceLevel, string> = {
  unencumbered: 'teal.9',
  encumbered: 'yellow.5',
  heavily_encumbered: 'orange.6',
  over_capacity: 'red.9',
};

type Load = Pick<CharacterWealth, 'carried_weight' | 'max_weight' | 'encumbrance' | 'weight_tracked'>;

/**
 * The limit a load is measured against: `max_weight`, where the party tracks weight. Where it does not
 * (slots only, or none), the load is only a weight, as without a limit: "6,173.24 / 50 lbs" and a full bar
 * beside "Weight not tracked" told of a limit nothing applies.
 */
function trackedLimit(load: Pick<Load, 'max_weight' | 'weight_tracked'>): number | null {
  return load.weight_tracked ? load.max_weight : null;
}

/** "17.5 / 60 lbs", or "17.5 lbs" without a limit or where the party does not track weight. */
export function loadLabel(load: Pick<Load, 'carried_weight' | 'max_weight' | 'weight_tracked'>): string {
  const limit = trackedLimit(load);
  return limit === null
    ? formatWeight(load.carried_weight)
    : formatWeight(load.carried_weight, { of: limit });
}

/** What the badge says: the SRD level, or why there is none. */
export function encumbranceText(load: Pick<Load, 'max_weight' | 'encumbrance' | 'weight_tracked'>): string {
  if (load.encumbrance) return encumbranceLabels[load.encumbrance];
  if (!load.weight_tracked) return 'Weight not tracked';
  return 'No weight limit';
}

export function EncumbranceBadge({ load }: { load: Load }) {
  return (
    <Badge
      variant="filled"
      autoContrast
      color={load.encumbrance ? encumbranceBadgeColors[load.encumbrance] : 'gray.7'}
      data-testid="encumbrance-badge"
      data-level={load.encumbrance ?? 'none'}
      style={{ flexShrink: 0 }}
    >
      {encumbranceText(load)}
    </Badge>
  );
}

/**
 * A character's load against its `max_weight`: a bar coloured by the SRD encumbrance level, the weights,
 * and the level; only the weight and the badge without a limit or where the party does not track weight. `name` makes the bar's label unique when several are on screen (the party table).
 */
export function LoadMeter({
  load,
  name,
  showEffect = false,
}: {
  load: Load;
  name?: string;
  showEffect?: boolean;
}) {
  const percent = percentUsed(load.carried_weight, trackedLimit(load));
  // A limit the party tracks always has its level (no level: no limit, or weight not tracked).
  const color = load.encumbrance ? encumbranceColors[load.encumbrance] : 'gray';
  const label = name ? `Load of ${name}` : 'Load';
  return (
    <Stack gap={4} data-testid="load-meter">
      <Group justify="space-between" gap="xs" wrap="wrap">
        <Text size="sm" fw={600} data-testid="load-amount">
          {loadLabel(load)}
        </Text>
        <EncumbranceBadge load={load} />
      </Group>
      {percent === null ? null : (
        <Progress
          value={barFill(percent)}
          color={color}
          size="sm"
          // Mantine puts these on the bar's wrapper, where aria-valuetext is not allowed: the label says it all.
          aria-label={`${label}: ${loadLabel(load)}, ${encumbranceText(load)}`}
        />
      )}
      {showEffect && load.encumbrance && load.encumbrance !== 'unencumbered' ? (
        <Text size="xs" c="dimmed">
          {encumbranceEffects[load.encumbrance]}
        </Text>
      ) : null}
    </Stack>
  );
}
