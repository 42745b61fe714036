import { partyMessages, roleLabels } from '@haversack/contracts';
import {
  ActionIcon,
  Button,
  Group,
  Paper,
  Select,
  Stack,
  Text,
  TextInput,
  Title,
  Tooltip,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconX } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { serverFieldErrors, useFocusFirstError } from '../../../lib/form-feedback';
import { failedWithNothingToShow } from '../../../lib/load-failed';
import { toast } from '../../../lib/toast';
import {
  type AssignableRole,
  type InvitationInput,
  inviteToParty,
  partyInvitationsQuery,
  partyKeys,
  revokeInvitation,
} from '../api/parties-api';

const roles: AssignableRole[] = ['player', 'manager', 'observer'];

/** GM only: invite by username or email, and the open invitations with Revoke (the way into restricted parties). */
export function InvitationBox({ partyId }: { partyId: string }) {
  const queryClient = useQueryClient();
  const invitations = useQuery(partyInvitationsQuery(partyId));
  const form = useFocusFirstError(
    useForm<InvitationInput>({
      mode: 'controlled',
      initialValues: { target: '', role: 'player', message: '' },
      validate: { target: (value) => (value.trim() ? null : partyMessages.inviteTarget) },
    }),
  );
  const invite = useMutation({
    mutationFn: (values: InvitationInput) => inviteToParty(partyId, values),
    onSuccess: async () => {
      toast.success('Invitation sent');
      form.reset();
      await queryClient.invalidateQueries({ queryKey: partyKeys.invitations(partyId) });
    },
    onError: (error) => {
      const errors = serverFieldErrors(error, ['username', 'email', 'role', 'message'], 'party_invitation.');
      if (errors) form.setFieldError('target', errors.username ?? errors.email ?? Object.values(errors)[0]);
    },
  });
  const revoke = useMutation({
    mutationFn: (invitationId: string) => revokeInvitation(partyId, invitationId),
    onSuccess: async () => {
      toast.success('Invitation revoked');
      await queryClient.invalidateQueries({ queryKey: partyKeys.invitations(partyId) });
    },
  });

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="invite-heading">
      <Stack gap="sm">
        <Title order={3} size="h5" id="invite-heading">
          Invite a player
        </Title>
        <form onSubmit={form.onSubmit((values) => invite.mutate(values))} noValidate>
          <Stack gap="xs">
            <TextInput label="Username or email" {...form.getInputProps('target')} />
            <Select
              label="Role"
              data={roles.map((role) => ({ value: role, label: roleLabels[role] }))}
              allowDeselect={false}
              {...form.getInputProps('role')}
            />
            <TextInput label="Message (optional)" maxLength={500} {...form.getInputProps('message')} />
            <Group justify="flex-end">
              <Button type="submit" size="sm" loading={invite.isPending}>
                Send Invitation
              </Button>
            </Group>
          </Stack>
        </form>
        {invitations.data && invitations.data.length > 0 ? (
          <Stack gap={4}>
            <Text size="sm" fw={600}>
              Open invitations
            </Text>
            {invitations.data.map((invitation) => (
              <Group key={invitation.id} justify="space-between" wrap="nowrap" gap="xs">
                <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                  {invitation.invited_user.username} · {roleLabels[invitation.role]}
                </Text>
                <Tooltip label="Revoke invitation">
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    aria-label={`Revoke invitation of ${invitation.invited_user.username}`}
                    loading={revoke.isPending && revoke.variables === invitation.id}
                    onClick={() => revoke.mutate(invitation.id)}
                  >
                    <IconX size={16} aria-hidden="true" />
                  </ActionIcon>
                </Tooltip>
              </Group>
            ))}
          </Stack>
        ) : failedWithNothingToShow(invitations) ? (
          <Stack gap="xs" align="flex-start">
            <Text size="sm" c="red">
              Open invitations could not be loaded.
            </Text>
            <Button size="xs" variant="light" color="red" onClick={() => void invitations.refetch()}>
              Try Again
            </Button>
          </Stack>
        ) : null}
      </Stack>
    </Paper>
  );
}
