import { formatEnUs, type ShopRequest, type ShopRequestStatus } from '@haversack/contracts';
import { Badge, Group, Paper, Skeleton, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { ErrorPanel } from '../../../components/error-panel';
import { RefreshFailedNote } from '../../../components/refresh-failed-note';
import { listReset } from '../../../lib/list-reset';
import { failedWithNothingToShow } from '../../../lib/load-failed';
import { absoluteTime, relativeTime } from '../../activity/lib/relative-time';
import { decidedRequestsQuery } from '../api/shop-requests-api';

const outcomes: Record<Exclude<ShopRequestStatus, 'pending'>, { label: string; color: string }> = {
  approved: { label: 'Approved', color: 'green' },
  declined: { label: 'Declined', color: 'red' },
  cancelled: { label: 'Cancelled', color: 'gray' },
};

/**
 * The purchases decided lately under the waiting ones: who asked finds what became of theirs, with the
 * GM's reason, after the live notice has gone (or when they were not on a party page to hear it). Nothing
 * shows until something was decided.
 */
export function DecidedRequests({ shopId }: { shopId: string }) {
  const headingId = useId();
  const query = useQuery(decidedRequestsQuery(shopId));
  if (query.isPending) {
    return (
      <div>
        <VisuallyHidden role="status">Loading decided requests</VisuallyHidden>
        <Skeleton height={56} aria-hidden="true" />
      </div>
    );
  }
  if (failedWithNothingToShow(query)) {
    return (
      <ErrorPanel
        title="Could not load decided requests"
        message="Check your connection and try again."
        onRetry={() => void query.refetch()}
      />
    );
  }
  if (query.data.length === 0) return null;
  return (
    <Stack gap="xs" component="section" aria-labelledby={headingId} data-testid="decided-requests">
      <Title order={2} size="h5" id={headingId}>
        Decided lately
      </Title>
      <RefreshFailedNote query={query} />
      <Stack gap="xs" component="ul" aria-labelledby={headingId} style={listReset}>
        {query.data.map((request) => (
          <DecidedRequestRow key={request.id} request={request} />
        ))}
      </Stack>
    </Stack>
  );
}

function DecidedRequestRow({ request }: { request: ShopRequest }) {
  const outcome = outcomes[request.status === 'pending' ? 'cancelled' : request.status];
  const when = request.decided_at ?? request.updated_at;
  return (
    <Paper withBorder p="sm" component="li" data-testid="decided-request">
      <Stack gap={4}>
        <Group justify="space-between" align="flex-start" gap="xs">
          <Text fw={600} style={{ overflowWrap: 'anywhere', minWidth: 0 }}>
            {formatEnUs(request.quantity)} × {request.item_name}
          </Text>
          <Badge variant="light" color={outcome.color}>
            {outcome.label}
          </Badge>
        </Group>
        <Text size="sm" c="dimmed">
          {request.character.name} ({request.requester.name}) · {request.formatted} ·{' '}
          {request.decided_by ? `${outcome.label} by ${request.decided_by.name} · ` : ''}
          <span title={absoluteTime(when)}>{relativeTime(when)}</span>
        </Text>
        {request.reason ? (
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            Reason: {request.reason}
          </Text>
        ) : null}
      </Stack>
    </Paper>
  );
}
