import { roleLabels } from '@haversack/contracts';
import { Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { EmptyState } from '../../../components/empty-state';
import { ErrorPanel } from '../../../components/error-panel';
import { TextSkeleton } from '../../../components/loading';
import { RefreshFailedNote } from '../../../components/refresh-failed-note';
import { failedWithNothingToShow } from '../../../lib/load-failed';
import { usePageTitle } from '../../../lib/page-title';
import { toast } from '../../../lib/toast';
import { useSingleFlight } from '../../../lib/use-single-flight';
import { RecentNotices } from '../../notifications/components/recent-notices';
import { acceptInvitation, declineInvitation, myInvitationsQuery, partyKeys } from '../api/parties-api';

/** /notifications: the party invitations waiting for my answer, then what others did to me (Recent). */
export function NotificationsPage() {
  usePageTitle('Notifications');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const query = useQuery(myInvitationsQuery());
  const accept = useMutation({
    mutationFn: acceptInvitation,
    onSuccess: async ({ party, message }) => {
      toast.success(message);
      await queryClient.invalidateQueries({ queryKey: partyKeys.all });
      await queryClient.invalidateQueries({ queryKey: partyKeys.myInvitations() });
      navigate(`/parties/${party.id}?welcome=true`);
    },
  });
  const decline = useMutation({
    mutationFn: declineInvitation,
    onSuccess: async () => {
      toast.success('Invitation declined');
      await queryClient.invalidateQueries({ queryKey: partyKeys.myInvitations() });
    },
  });
  const busy = accept.isPending || decline.isPending;
  // Accept and Decline share one flight: a double click joins once, and never both accepts and declines.
  const once = useSingleFlight();

  return (
    <Stack gap="lg" maw={800}>
      <Stack gap={4}>
        <Title order={1}>Notifications</Title>
        <Text c="dimmed">Invitations to join parties, and what others did while you were away.</Text>
      </Stack>
      <RefreshFailedNote query={query} />
      {query.isPending ? (
        <TextSkeleton lines={4} />
      ) : failedWithNothingToShow(query) ? (
        <ErrorPanel
          title="Failed to load notifications"
          message={query.error.message}
          onRetry={() => void query.refetch()}
        />
      ) : query.data.length === 0 ? (
        <EmptyState title="No invitations" message="You have no pending party invitations." />
      ) : (
        <Stack gap="md">
          {query.data.map((invitation) => (
            <Card key={invitation.id} withBorder padding="md" data-testid="invitation-card">
              <Stack gap="xs">
                <Title order={2} size="h4">
                  {invitation.party_name}
                </Title>
                <Text size="sm">
                  {invitation.invited_by.username} invited you to join as {roleLabels[invitation.role]}.
                </Text>
                {invitation.message ? (
                  <Text size="sm" c="dimmed" fs="italic">
                    “{invitation.message}”
                  </Text>
                ) : null}
                <Group gap="sm">
                  <Button
                    size="sm"
                    loading={accept.isPending && accept.variables === invitation.id}
                    disabled={busy}
                    onClick={() => once(() => accept.mutateAsync(invitation.id))}
                    // Named after the party: with two invitations, two bare "Accept" could not be told apart.
                    aria-label={`Accept invitation to ${invitation.party_name}`}
                  >
                    Accept
                  </Button>
                  <Button
                    size="sm"
                    variant="default"
                    loading={decline.isPending && decline.variables === invitation.id}
                    disabled={busy}
                    onClick={() => once(() => decline.mutateAsync(invitation.id))}
                    aria-label={`Decline invitation to ${invitation.party_name}`}
                  >
                    Decline
                  </Button>
                </Group>
              </Stack>
            </Card>
          ))}
        </Stack>
      )}
      <RecentNotices />
    </Stack>
  );
}
