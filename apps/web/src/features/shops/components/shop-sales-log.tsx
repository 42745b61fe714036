import { formatCopper, formatEnUs } from '@haversack/contracts';
import { Badge, Group, Pagination, Paper, Skeleton, Stack, Text, VisuallyHidden } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { EmptyState } from '../../../components/empty-state';
import { ErrorPanel } from '../../../components/error-panel';
import { RefreshFailedNote } from '../../../components/refresh-failed-note';
import { listReset } from '../../../lib/list-reset';
import { failedWithNothingToShow } from '../../../lib/load-failed';
import { absoluteTime, relativeTime } from '../../activity/lib/relative-time';
import { shopSalesQuery } from '../api/shops-api';

/** Issue 10 §8: who bought or sold what at this shop, for how much, read from the ledger (GM and managers). */
export function ShopSalesLog({ shopId }: { shopId: string }) {
  const [page, setPage] = useState(1);
  const query = useQuery({ ...shopSalesQuery(shopId, page), placeholderData: keepPreviousData });

  if (query.isPending) {
    return (
      // A label on a plain div is read by nobody: a status is heard, politely (not under aria-busy, which
      // would hold a live region's news back until the busy part is done).
      <Stack gap="xs">
        <VisuallyHidden role="status">Loading the sales log</VisuallyHidden>
        <Skeleton height={48} aria-hidden="true" />
        <Skeleton height={48} aria-hidden="true" />
        <Skeleton height={48} aria-hidden="true" />
      </Stack>
    );
  }
  if (failedWithNothingToShow(query)) {
    return (
      <ErrorPanel
        title="Could not load the sales log"
        message="Check your connection and try again."
        onRetry={() => void query.refetch()}
      />
    );
  }
  const { transactions, meta } = query.data;
  // A refresh of this page of the log that failed keeps it on screen, with a note.
  const refreshNote = <RefreshFailedNote query={query} />;
  if (transactions.length === 0) {
    return (
      <>
        {refreshNote}
        <EmptyState
          headingOrder={3}
          title="No sales yet"
          message="Every purchase and sale at this shop appears here, with who traded and for how much."
          testId="sales-empty"
        />
      </>
    );
  }
  return (
    <Stack gap="sm" data-testid="shop-sales">
      {refreshNote}
      {/* A list, a line a trade, named as its tab is: a screen reader says how many and steps through. */}
      <Stack gap="sm" component="ul" aria-label="Sales log" style={listReset}>
        {transactions.map((row) => (
          <Paper key={row.id} withBorder p="sm" component="li" data-testid="shop-sale">
            <Group justify="space-between" align="flex-start" gap="xs" wrap="nowrap">
              <Stack gap={2} style={{ minWidth: 0 }}>
                <Group gap={6}>
                  <Badge
                    size="sm"
                    variant="light"
                    color={row.transaction_type === 'purchase' ? 'indigo' : 'grape'}
                  >
                    {row.transaction_type === 'purchase' ? 'Bought' : 'Sold'}
                  </Badge>
                  <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
                    {formatEnUs(row.quantity ?? 1)} × {row.transactable_data.name ?? 'Item'}
                  </Text>
                </Group>
                <Text size="sm" c="dimmed">
                  {/* The character who traded, and who acted (the GM, for an approved request). */}
                  {[row.target_data.name, row.actor_data.name && `by ${row.actor_data.name}`]
                    .filter(Boolean)
                    .join(' · ')}{' '}
                  ·{' '}
                  <span title={absoluteTime(row.transaction_date)}>{relativeTime(row.transaction_date)}</span>
                </Text>
              </Stack>
              <Text fw={700} style={{ whiteSpace: 'nowrap' }}>
                {row.amount !== null ? formatCopper(row.amount) : '—'}
              </Text>
            </Group>
          </Paper>
        ))}
      </Stack>
      {meta.total_pages > 1 ? (
        <Group justify="space-between" gap="sm">
          <Text size="sm" c="dimmed">
            {formatEnUs(meta.total_count)} trades
          </Text>
          <Pagination
            total={meta.total_pages}
            value={page}
            onChange={setPage}
            siblings={1}
            boundaries={1}
            size="sm"
            aria-label="Sales log pages"
          />
        </Group>
      ) : null}
    </Stack>
  );
}
