import type { UsageEntry, UsageResource } from '@haversack/contracts';
import { Group, Progress, Stack, Text } from '@mantine/core';
import { formatCount } from '../../../lib/format';
import { usageResourceTitle } from '../plan-text';

/** Issue 3: warn at 75 % of a limit, alarm at 90 %. */
export const USAGE_WARNING_PERCENT = 75;
export const USAGE_ERROR_PERCENT = 90;

export type UsageLevel = 'unlimited' | 'not_included' | 'normal' | 'warning' | 'error' | 'over';

/**
 * How close a usage is to its limit; null is unlimited and 0 means not in the plan (spec/01 §3). Over it
 * (more than the limit, not only at it) is what a downgrade leaves: the server keeps what was made and
 * refuses only new ones, so the count can stand above the limit.
 */
export function usageLevel({ used, limit }: UsageEntry): UsageLevel {
  if (limit === null) return 'unlimited';
  if (used > limit) return 'over';
  if (limit === 0) return 'not_included';
  const percent = (used / limit) * 100;
  if (percent >= USAGE_ERROR_PERCENT) return 'error';
  if (percent >= USAGE_WARNING_PERCENT) return 'warning';
  return 'normal';
}

const levelColors: Partial<Record<UsageLevel, string>> = { warning: 'yellow', error: 'red', over: 'red' };

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
  const note = sponsoredNote && level !== 'normal' && level !== 'unlimited' ? sponsoredNote : null;
  const count = formatCount(used);

  let summary: string;
  // What the plan has stopped including still counts what was made under an earlier one: "3 used".
  if (limit === null) summary = `${count} used · Unlimited`;
  else if (limit === 0) summary = used > 0 ? `${count} used · Not included` : 'Not included';
  else summary = `${count} / ${formatCount(limit)}`;

  let flag: string | null = null;
  if (metered && used > limit) {
    const over = formatCount(used - limit);
    flag = note ? ` · ${over} over your plan’s limit` : ` · ${over} over the limit`;
  } else if (metered && used === limit) {
    flag = note ? ' · your plan’s limit' : ' · limit reached';
  }

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
          c={metered || level === 'over' ? undefined : 'dimmed'}
          ta="right"
          style={{ whiteSpace: 'nowrap', flexShrink: 0 }}
          data-testid={`usage-${resource}-summary`}
        >
          {summary}
          {flag ? (
            <Text span size="sm" fw={600}>
              {flag}
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
