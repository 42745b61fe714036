import { Anchor, Badge, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { TextSkeleton } from '../../../components/loading';
import { RefreshFailedNote } from '../../../components/refresh-failed-note';
import { failedWithNothingToShow } from '../../../lib/load-failed';
import { relativeTime } from '../../activity/lib/relative-time';
import { useNoticesLive } from '../api/notices-live';
import { moreLikeIt, notificationsQuery } from '../api/notifications-api';

/** How many of the newest notices the dashboard shows; /notifications has them all. */
const DASHBOARD_NOTICES = 3;

/** Dashboard: the newest notices of what others did, with the unread count and the way to the rest. */
export function RecentNoticesCard() {
  useNoticesLive();
  const query = useQuery(notificationsQuery(1));
  const notices = query.data?.data.slice(0, DASHBOARD_NOTICES) ?? [];
  const unread = query.data?.meta.unread_count ?? 0;
  return (
    <Card
      withBorder
      padding="lg"
      component="section"
      aria-labelledby="dash-notices"
      data-testid="dashboard-notices"
    >
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Group gap="xs">
            <Title order={2} size="h4" id="dash-notices">
              Recent Notifications
            </Title>
            {unread > 0 ? (
              <Badge size="sm" variant="filled">
                {unread} unread
              </Badge>
            ) : null}
          </Group>
          <Anchor component={Link} to="/notifications" size="sm" className="haversack-touch-target">
            See all
          </Anchor>
        </Group>
        <RefreshFailedNote query={query} />
        {query.isPending ? (
          <TextSkeleton lines={3} />
        ) : failedWithNothingToShow(query) ? (
          <Stack gap="xs" align="flex-start">
            <Text size="sm" c="red">
              Your notifications could not be loaded.
            </Text>
            <Button size="xs" variant="light" color="red" onClick={() => void query.refetch()}>
              Try Again
            </Button>
          </Stack>
        ) : notices.length === 0 ? (
          <Text size="sm" c="dimmed">
            Nothing new. What others do to your characters and parties shows here.
          </Text>
        ) : (
          <Stack gap={6} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {notices.map((notice) => (
              <Text key={notice.id} component="li" size="sm" fw={notice.read_at === null ? 600 : 400}>
                {notice.message}{' '}
                <Text span size="xs" c="dimmed">
                  {notice.repeat_count > 1 ? `(${moreLikeIt(notice.repeat_count)}) ` : ''}·{' '}
                  {relativeTime(notice.created_at)}
                </Text>
              </Text>
            ))}
          </Stack>
        )}
      </Stack>
    </Card>
  );
}
