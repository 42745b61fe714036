import { type Party, type PartyMember, roleLabels } from '@haversack/contracts';
import { Badge, Button, Card, Group, Select, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { ErrorPanel } from '../../../components/error-panel';
import { TextSkeleton } from '../../../components/loading';
import { toast } from '../../../lib/toast';
import {
  type AssignableRole,
  changeMemberRole,
  partyKeys,
  partyMembersQuery,
  removeMember,
} from '../api/parties-api';
import { LeavePartyButton } from './leave-party-button';

const assignableRoles: AssignableRole[] = ['player', 'manager', 'observer'];

function joinedOn(iso: string): string {
  return new Date(iso).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });
}

/** spec/02 §2 Members tab: cards with role and joined date; the GM changes roles and removes members. */
export function PartyMembersTab({ party }: { party: Party }) {
  const query = useQuery(partyMembersQuery(party.id));
  const queryClient = useQueryClient();
  const [toRemove, setToRemove] = useState<PartyMember | null>(null);

  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: partyKeys.members(party.id) }),
      queryClient.invalidateQueries({ queryKey: partyKeys.detail(party.id) }),
    ]);
  const roleMutation = useMutation({
    mutationFn: ({ userId, role }: { userId: string; role: AssignableRole }) =>
      changeMemberRole(party.id, userId, role),
    onSuccess: async (_, { role }) => {
      toast.success(`Role changed to ${roleLabels[role]}`);
      await refresh();
    },
  });
  const removeMutation = useMutation({
    mutationFn: (userId: string) => removeMember(party.id, userId),
    onSuccess: async () => {
      toast.success('Member removed from the party');
      setToRemove(null);
      await refresh();
    },
  });

  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={2} size="h3">
          Members ({query.data?.length ?? party.member_count})
        </Title>
        {party.is_gm ? null : <LeavePartyButton party={party} />}
      </Group>
      {query.isPending ? (
        <TextSkeleton lines={4} />
      ) : query.isError && !query.data ? (
        <ErrorPanel
          title="Failed to load members"
          message={query.error.message}
          onRetry={() => void query.refetch()}
        />
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md">
          {query.data.map((member) => (
            <Card key={member.id} withBorder padding="md" data-testid="member-card">
              <Stack gap="xs">
                {/* A long name pushes the role below it rather than cutting "Game Master" short. */}
                <Group justify="space-between" wrap="wrap" gap="xs">
                  <Text fw={600} style={{ overflowWrap: 'anywhere', minWidth: 0 }}>
                    {member.user.username}
                  </Text>
                  <Badge variant="light" color="violet" style={{ flexShrink: 0, overflow: 'visible' }}>
                    {roleLabels[member.role]}
                  </Badge>
                </Group>
                <Text size="sm" c="dimmed">
                  Joined {joinedOn(member.created_at)}
                </Text>
                {member.character_details.length > 0 ? (
                  <Text size="sm">Characters: {member.character_details.map((c) => c.name).join(', ')}</Text>
                ) : null}
                {party.is_gm && member.role !== 'gm' ? (
                  <Group gap="sm" align="flex-end" wrap="wrap">
                    <Select
                      label={`Role of ${member.user.username}`}
                      size="xs"
                      w={150}
                      data={assignableRoles.map((role) => ({ value: role, label: roleLabels[role] }))}
                      value={member.role}
                      allowDeselect={false}
                      disabled={roleMutation.isPending}
                      onChange={(value) => {
                        if (value && value !== member.role)
                          roleMutation.mutate({ userId: member.user_id, role: value as AssignableRole });
                      }}
                    />
                    <Button
                      size="xs"
                      variant="light"
                      color="red"
                      onClick={() => setToRemove(member)}
                      aria-label={`Remove ${member.user.username}`}
                    >
                      Remove
                    </Button>
                  </Group>
                ) : null}
              </Stack>
            </Card>
          ))}
        </SimpleGrid>
      )}
      <ConfirmDialog
        opened={toRemove !== null}
        title="Remove member"
        message={`Remove ${toRemove?.user.username ?? ''} from ${party.name}? Their characters leave the party too.`}
        confirmLabel="Remove"
        loading={removeMutation.isPending}
        onClose={() => setToRemove(null)}
        onConfirm={() => toRemove && removeMutation.mutate(toRemove.user_id)}
      />
    </Stack>
  );
}
