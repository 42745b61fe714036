import type { UsageEntry, UsageResource } from '@haversack/contracts';
import { Group, Progress, Stack, Text } from '@mantine/core';
import { usageResourceTitle } from '../plan-text';

/** Issue 3: warn at 75 % of a limit, alarm at 90 %. */
export const USAGE_WARNING_PERCENT = 75;
export const USAGE_ERROR_PERCENT = 90;

export type UsageLevel = 'unlimited' | 'not_included' | 'normal' | 'warning' | 'error';

/** How close a usage is to its limit; null is unlimited and 0 means not in the plan (spec/01 §3). */
export function usageLevel({ used, limit }: UsageEntry): UsageLevel {
  if (limit === null) return 'unlimited';
  if (limit === 0) return 'not_included';
  const percent = (used / limit) * 100;
  if (percent >= USAGE_ERROR_PERCENT) return 'error';
  if (percent >= USAGE_WARNING_PERCENT) return 'warning';
  return 'normal';
}

const levelColors: Partial<Record<UsageLevel, string>> = { warning: 'yellow', error: 'red' };

interface UsageBarProps {
  resource: UsageResource;
  entry: UsageEntry;
  /**
   * Set when a sponsorship lifts this limit in some party (see sponsoredLimitNote): a full bar then is not a
   * block, so it is not alarmed in red; the note says where the sponsor's plan applies instead.
   */
  sponsoredNote?: string | null;
}

/** One resource against its limit: "Characters 1 / 5" over a bar that turns yellow, then red. */
export function UsageBar({ resource, entry, sponsoredNote }: UsageBarProps) {
  const level = usageLevel(entry);
  const title = usageResourceTitle(resource);
  const { used, limit } = entry;
  const metered = limit !== null && limit > 0;
  const atLimit = metered && used >= limit;
  const note = sponsoredNote && level !== 'normal' && level !== 'unlimited' ? sponsoredNote : null;

  let summary: string;
  if (limit === null) summary = `${used.toLocaleString('en-US')} used · Unlimited`;
  else if (limit === 0) summary = 'Not included';
  else summary = `${used.toLocaleString('en-US')} / ${limit.toLocaleString('en-US')}`;

  return (
    <Stack
      gap={6}
      data-testid={`usage-${resource}`}
      data-level={level}
      data-sponsored={note ? true : undefined}
    >
      <Group justify="space-between" gap="xs" wrap="nowrap" align="baseline">
        <Text size="sm" fw={500}>
          {title}
        </Text>
        <Text
          size="sm"
          c={metered ? undefined : 'dimmed'}
          ta="right"
          style={{ whiteSpace: 'nowrap', flexShrink: 0 }}
          data-testid={`usage-${resource}-summary`}
        >
          {summary}
          {atLimit ? (
            <Text span size="sm" fw={600}>
              {note ? ' · your plan’s limit' : ' · limit reached'}
            </Text>
          ) : null}
        </Text>
      </Group>
      {metered ? (
        <Progress
          value={Math.min(100, (used / limit) * 100)}
          color={note ? 'blue' : levelColors[level]}
          size="md"
          aria-label={`${title}: ${used} of ${limit} used`}
        />
      ) : null}
      {note ? (
        <Text size="xs" c="dimmed" data-testid={`usage-${resource}-sponsored`}>
          {note}
        </Text>
      ) : null}
    </Stack>
  );
}
