import { formatStackWorth, type LootSummaryEntry, saturatingSum } from '@haversack/contracts';
import { Card, Group, Progress, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { ErrorPanel } from '../../../components/error-panel';
import { failedWithNothingToShow } from '../../../lib/load-failed';
import { lootSummaryQuery } from '../api/loot-api';
import { itemsCountLabel } from './loot-instance-format';

/** How much of the largest amount received this is, 0–100 (everyone at 0: 0). */
export function shareOfLargest(value: number, largest: number): number {
  if (largest <= 0 || value <= 0) return 0;
  return Math.round((value / largest) * 100);
}

function ReceivedRow({ entry, largest }: { entry: LootSummaryEntry; largest: number }) {
  const percent = shareOfLargest(entry.value_cp, largest);
  // To the copper, as shares of a split differ by coppers; nothing reads "0 gp", as totals do elsewhere.
  const value = formatStackWorth(entry.value_cp);
  // items_count leaves coins out (they are in the value): no "0 items" next to 190 gp of coins.
  const line = [
    entry.items_count > 0 ? itemsCountLabel(entry.items_count) : null,
    `${percent}% of the most received`,
  ]
    .filter(Boolean)
    .join(' · ');
  return (
    <Stack
      component="li"
      gap={4}
      data-testid="loot-received-row"
      data-character-id={entry.character_id}
      style={{ listStyle: 'none' }}
    >
      <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
        {/* Whole, wrapping: cut with "…", a long name had no way to be read but the bar's label. */}
        <Text size="sm" fw={600} style={{ minWidth: 0, overflowWrap: 'anywhere' }}>
          {entry.name}
        </Text>
        <Text size="sm" fw={600} style={{ whiteSpace: 'nowrap' }} data-testid="loot-received-value">
          {value}
        </Text>
      </Group>
      <Progress
        value={percent}
        size="sm"
        color={percent === 100 ? 'teal' : 'blue'}
        aria-label={`${entry.name}: ${percent}% of the most received`}
      />
      <Text size="xs" c="dimmed">
        {line}
      </Text>
    </Stack>
  );
}

/**
 * Issue 11 §8 "Loot received": per character, the value of what they have received from loot so far
 * (takes, claims, distributions and shares of split sales), with a bar against the largest, so the table
 * can see a split was fair. For the party's Loot tab.
 */
export function LootReceivedSummary({ partyId }: { partyId: string }) {
  const query = useQuery(lootSummaryQuery(partyId));
  const headingId = useId();
  const entries = query.data ?? [];
  const largest = entries.reduce((max, e) => Math.max(max, e.value_cp), 0);
  const total = saturatingSum(entries.map((e) => e.value_cp));
  return (
    <Card withBorder padding="md" component="section" aria-labelledby={headingId} data-testid="loot-received">
      <Stack gap="sm">
        <Group justify="space-between" align="baseline" gap="xs">
          <Title order={3} size="h4" id={headingId}>
            Loot received
          </Title>
          {query.isSuccess && entries.length > 0 ? (
            <Text size="sm" c="dimmed" data-testid="loot-received-total">
              Total {formatStackWorth(total)}
            </Text>
          ) : null}
        </Group>
        {query.isPending ? (
          <Stack gap="sm" data-testid="loot-received-loading" aria-busy="true">
            {[0, 1, 2].map((i) => (
              <Stack key={i} gap={4}>
                <Skeleton height={14} width="60%" />
                <Skeleton height={8} />
              </Stack>
            ))}
          </Stack>
        ) : failedWithNothingToShow(query) ? (
          <ErrorPanel
            title="Unable to Load Loot Received"
            message="Failed to load what each character has received. Please try again."
            onRetry={() => void query.refetch()}
          />
        ) : entries.length === 0 ? (
          <Text size="sm" c="dimmed" data-testid="loot-received-empty">
            No characters in this party yet.
          </Text>
        ) : (
          <>
            {largest === 0 ? (
              <Text size="sm" c="dimmed" data-testid="loot-received-none">
                Nobody has received any loot yet.
              </Text>
            ) : null}
            <Stack component="ul" gap="sm" p={0} m={0}>
              {entries.map((entry) => (
                <ReceivedRow key={entry.character_id} entry={entry} largest={largest} />
              ))}
            </Stack>
          </>
        )}
      </Stack>
    </Card>
  );
}
