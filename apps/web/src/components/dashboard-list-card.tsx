import { Anchor, Card, Group, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { failedWithNothingToShow } from '../lib/load-failed';
import { LoadFailedLine } from './load-failed-line';
import { TextSkeleton } from './loading';
import { RefreshFailedNote } from './refresh-failed-note';

interface DashboardListCardProps<T> {
  /** Used for the heading id and the test id. */
  name: string;
  title: string;
  viewAllTo: string;
  /** The list's query; `items` and `total` are read once it has data (kept when a later refresh fails). */
  query: { isPending: boolean; isError: boolean; data: unknown; isFetching: boolean; refetch: () => unknown };
  errorText: string;
  empty: ReactNode;
  items: T[];
  total: number;
  itemKey: (item: T) => string;
  renderItem: (item: T) => ReactNode;
  shown?: number;
}

/** A dashboard card listing the first few of something, with loading, error and empty states. */
export function DashboardListCard<T>({
  name,
  title,
  viewAllTo,
  query,
  errorText,
  empty,
  items,
  total,
  itemKey,
  renderItem,
  shown = 5,
}: DashboardListCardProps<T>) {
  const headingId = `dash-${name}`;
  return (
    <Card
      withBorder
      padding="lg"
      component="section"
      aria-labelledby={headingId}
      data-testid={`dashboard-${name}`}
    >
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={2} size="h4" id={headingId}>
            {title}
          </Title>
          {/* Two cards, two "View all": each says which list it opens to a screen reader's links list. */}
          <Anchor
            component={Link}
            to={viewAllTo}
            size="sm"
            className="haversack-touch-target"
            aria-label={`View all: ${title}`}
          >
            View all
          </Anchor>
        </Group>
        <RefreshFailedNote query={query} />
        {query.isPending ? (
          <TextSkeleton lines={3} />
        ) : failedWithNothingToShow(query) ? (
          <LoadFailedLine text={errorText} onRetry={() => void query.refetch()} />
        ) : items.length === 0 ? (
          empty
        ) : (
          <Stack gap={6}>
            {items.slice(0, shown).map((item) => (
              // A long name and its details share a line while they fit; otherwise the details go below,
              // never squeezing the name into a column of broken words.
              <Group key={itemKey(item)} justify="space-between" gap="sm" style={{ rowGap: 0 }}>
                {renderItem(item)}
              </Group>
            ))}
            {total > shown ? (
              <Text size="xs" c="dimmed">
                and {total - shown} more
              </Text>
            ) : null}
          </Stack>
        )}
      </Stack>
    </Card>
  );
}
