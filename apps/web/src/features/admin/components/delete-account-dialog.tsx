import type { AdminSponsorship } from '@haversack/contracts';
import { Alert, Button, Group, List, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { isApiError } from '../../../lib/http-client';
import { toast } from '../../../lib/toast';
import { adminUserActions, adminUserQueryOptions } from '../api/admin-users-api';

/** Staff see why the server refused (an admin, a wrong email), not the catalogue's generic text. */
function refusalOf(error: Error): string {
  if (!isApiError(error)) return error.message;
  return error.details[0]?.message ?? error.serverMessage ?? error.message;
}

interface Props {
  opened: boolean;
  onClose: () => void;
  user: { id: string; email: string };
  /** The running sponsorships the user gives: deleting the account deletes them (a cascade). */
  sponsorshipsGiven?: readonly Pick<AdminSponsorship, 'username' | 'party_name'>[];
}

/** What deleting the account does to the sponsorships the user gives; null when they give none. */
function sponsorshipsLine(given: Props['sponsorshipsGiven']): string | null {
  const [only, ...more] = given ?? [];
  if (!only) return null;
  if (more.length === 0)
    return `their sponsorship of ${only.username} in ${only.party_name} ends at once: ${only.username} is back on their own plan there;`;
  const who = [only, ...more].map((s) => `${s.username} in ${s.party_name}`).join(', ');
  return `their ${more.length + 1} sponsorships end at once (${who}): each of them is back on their own plan there;`;
}

/**
 * Deleting an account cannot be undone, so the admin types the user's email to confirm. What happens to
 * the user's things is docs/decisions.md "Deleting an account"; the dialog says it in short.
 */
export function DeleteAccountDialog({ opened, onClose, user, sponsorshipsGiven }: Props) {
  const sponsorships = sponsorshipsLine(sponsorshipsGiven);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [typed, setTyped] = useState('');
  const matches = typed.trim().toLowerCase() === user.email.toLowerCase();
  const remove = useMutation({
    mutationFn: () => adminUserActions.deleteAccount(user.id, typed),
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: adminUserQueryOptions(user.id).queryKey });
      void queryClient.invalidateQueries({ queryKey: ['admin', 'users', 'list'] });
      toast.success('The account is deleted.');
      void navigate('/admin/users');
    },
  });
  const close = () => {
    setTyped('');
    remove.reset();
    onClose();
  };

  return (
    <Modal
      opened={opened}
      onClose={close}
      title="Delete this account"
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (matches) remove.mutate();
        }}
      >
        <Stack gap="sm">
          <Text size="sm">This cannot be undone. For {user.email}:</Text>
          <List size="sm" spacing={4}>
            <List.Item>
              their characters and everything they carry are deleted (written to the ledger);
            </List.Item>
            <List.Item>
              each party they run goes to its longest-standing manager or member; a party with no other member
              is deleted;
            </List.Item>
            <List.Item>
              their public templates stay without an owner; their private ones are deleted;
            </List.Item>
            {sponsorships ? <List.Item>{sponsorships}</List.Item> : null}
            <List.Item>they are signed out at once and their subscription ends.</List.Item>
          </List>
          <TextInput
            label="Type the user’s email to confirm"
            value={typed}
            onChange={(event) => setTyped(event.currentTarget.value)}
            autoComplete="off"
            data-autofocus
            required
          />
          {remove.isError ? (
            <Alert color="red" role="alert">
              {refusalOf(remove.error)}
            </Alert>
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" color="red.9" loading={remove.isPending} disabled={!matches}>
              Delete account
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
