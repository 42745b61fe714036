import type { Notification } from '@haversack/contracts';
import { Anchor, Badge, Button, Card, Group, Pagination, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { Link } from 'react-router';
import { EmptyState } from '../../../components/empty-state';
import { ErrorPanel } from '../../../components/error-panel';
import { TextSkeleton } from '../../../components/loading';
import { RefreshFailedNote } from '../../../components/refresh-failed-note';
import { failedWithNothingToShow } from '../../../lib/load-failed';
import { absoluteTime, relativeTime } from '../../activity/lib/relative-time';
import { useNoticesLive } from '../api/notices-live';
import {
  markAllNotificationsRead,
  markNotificationRead,
  moreLikeIt,
  notificationKeys,
  notificationsQuery,
} from '../api/notifications-api';

export const noticesEmptyMessage =
  'When someone sponsors you, decides a purchase of yours, gives your characters items or changes a party you are in, it shows here.';

/** /notifications, below the invitations: what others did to me, newest first, unread ones marked. */
export function RecentNotices() {
  useNoticesLive();
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const query = useQuery(notificationsQuery(page));
  const refresh = () => queryClient.invalidateQueries({ queryKey: notificationKeys.all });
  // The button pressed goes away (Mark as read) or is disabled (Mark all as read): focus moves to what it
  // changed, the notice or the count, not to the page's start.
  const statusRef = useRef<HTMLParagraphElement>(null);
  const markRead = useMutation({
    mutationFn: markNotificationRead,
    onSuccess: async (_read, id) => {
      await refresh();
      document.querySelector<HTMLElement>(`[data-notice-id="${CSS.escape(id)}"]`)?.focus();
    },
  });
  const markAll = useMutation({
    mutationFn: markAllNotificationsRead,
    onSuccess: async () => {
      await refresh();
      statusRef.current?.focus();
    },
  });
  const unread = query.data?.meta.unread_count ?? 0;

  return (
    <Stack gap="md" component="section" aria-labelledby="recent-notices-heading">
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Title order={2} size="h3" id="recent-notices-heading">
          Recent
        </Title>
        {query.data && query.data.data.length > 0 ? (
          <Button
            size="sm"
            variant="default"
            disabled={unread === 0}
            loading={markAll.isPending}
            onClick={() => markAll.mutate()}
          >
            Mark all as read
          </Button>
        ) : null}
      </Group>
      <RefreshFailedNote query={query} />
      {query.isPending ? (
        <TextSkeleton lines={4} />
      ) : failedWithNothingToShow(query) ? (
        <ErrorPanel
          title="Failed to load your notices"
          message={query.error.message}
          onRetry={() => void query.refetch()}
        />
      ) : query.data.data.length === 0 ? (
        <EmptyState title="No notices yet" message={noticesEmptyMessage} />
      ) : (
        <>
          <Text size="sm" c="dimmed" aria-live="polite" ref={statusRef} tabIndex={-1}>
            {unread === 0 ? 'All read.' : `${unread} unread.`}
          </Text>
          <Stack gap="sm" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {query.data.data.map((notice) => (
              <NoticeCard
                key={notice.id}
                notice={notice}
                onRead={() => markRead.mutate(notice.id)}
                reading={markRead.isPending && markRead.variables === notice.id}
              />
            ))}
          </Stack>
          {query.data.meta.total_pages > 1 ? (
            <Pagination
              total={query.data.meta.total_pages}
              value={page}
              onChange={setPage}
              getControlProps={(control) => ({
                'aria-label': control === 'previous' ? 'Previous page' : 'Next page',
              })}
            />
          ) : null}
        </>
      )}
    </Stack>
  );
}

function NoticeCard({
  notice,
  onRead,
  reading,
}: {
  notice: Notification;
  onRead: () => void;
  reading: boolean;
}) {
  const isUnread = notice.read_at === null;
  return (
    <Card
      component="li"
      tabIndex={-1}
      data-notice-id={notice.id}
      withBorder
      padding="sm"
      data-testid="notice"
      data-unread={isUnread || undefined}
      // Unread ones carry a word and a heavier line, not a colour alone; the border is an extra cue.
      style={isUnread ? { borderLeft: '4px solid var(--mantine-primary-color-filled)' } : undefined}
    >
      <Stack gap={6}>
        <Group gap="xs" wrap="nowrap" align="flex-start">
          {isUnread ? (
            <Badge size="sm" variant="light" style={{ flexShrink: 0 }}>
              Unread
            </Badge>
          ) : null}
          <Stack gap={0}>
            <Text size="sm" fw={isUnread ? 600 : 400} style={{ overflowWrap: 'anywhere' }}>
              {notice.message}
            </Text>
            {notice.repeat_count > 1 ? (
              <Text size="xs" c="dimmed">
                {moreLikeIt(notice.repeat_count)}
              </Text>
            ) : null}
          </Stack>
        </Group>
        <Group gap="sm" wrap="wrap" justify="space-between">
          <Group gap="sm" wrap="wrap">
            <Text
              size="xs"
              c="dimmed"
              component="time"
              dateTime={notice.created_at}
              title={absoluteTime(notice.created_at)}
            >
              {relativeTime(notice.created_at)}
            </Text>
            {notice.link ? (
              <Anchor
                component={Link}
                to={notice.link.path}
                size="xs"
                className="haversack-touch-target"
                onClick={isUnread ? onRead : undefined}
              >
                Open {notice.link.label}
              </Anchor>
            ) : notice.party_name ? (
              <Text size="xs" c="dimmed">
                {notice.party_name}
              </Text>
            ) : null}
          </Group>
          {isUnread ? (
            <Button size="compact-xs" variant="subtle" loading={reading} onClick={onRead}>
              Mark as read
            </Button>
          ) : null}
        </Group>
      </Stack>
    </Card>
  );
}
