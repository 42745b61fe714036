import { Anchor, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { TextSkeleton } from '../../../components/loading';
import { RefreshFailedNote } from '../../../components/refresh-failed-note';
import { failedWithNothingToShow } from '../../../lib/load-failed';
import { myInvitationsQuery } from '../api/parties-api';

/** Dashboard: party invitations waiting for an answer. */
export function PendingInvitationsCard() {
  const query = useQuery(myInvitationsQuery());
  return (
    <Card
      withBorder
      padding="lg"
      component="section"
      aria-labelledby="dash-invitations"
      data-testid="dashboard-invitations"
    >
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={2} size="h4" id="dash-invitations">
            Pending Invitations
          </Title>
          <Anchor component={Link} to="/notifications" size="sm" className="haversack-touch-target">
            Notifications
          </Anchor>
        </Group>
        <RefreshFailedNote query={query} />
        {query.isPending ? (
          <TextSkeleton lines={2} />
        ) : failedWithNothingToShow(query) ? (
          <Stack gap="xs" align="flex-start">
            <Text size="sm" c="red">
              Your invitations could not be loaded.
            </Text>
            <Button size="xs" variant="light" color="red" onClick={() => void query.refetch()}>
              Try Again
            </Button>
          </Stack>
        ) : query.data.length === 0 ? (
          <Text size="sm" c="dimmed">
            No pending invitations.
          </Text>
        ) : (
          <Stack gap={6}>
            {query.data.map((invitation) => (
              <Text key={invitation.id} size="sm">
                {invitation.invited_by.username} invited you to {invitation.party_name}
              </Text>
            ))}
            <Button
              component={Link}
              to="/notifications"
              size="xs"
              variant="light"
              style={{ alignSelf: 'flex-start' }}
            >
              Answer invitations
            </Button>
          </Stack>
        )}
      </Stack>
    </Card>
  );
}
