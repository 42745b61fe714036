import type { Party } from '@haversack/contracts';
import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { toast } from '../../../lib/toast';
import { partyKeys, regenerateJoinCode, setPartyArchived } from '../api/parties-api';

/** GM only (spec/02 §6): Edit Party, Generate New Code, Archive Party. */
export function PartyAdminActions({ party }: { party: Party }) {
  const queryClient = useQueryClient();
  const [confirmRegenerate, setConfirmRegenerate] = useState(false);
  const [confirmArchive, setConfirmArchive] = useState(false);
  const saved = async (updated: Party, message: string) => {
    queryClient.setQueryData(partyKeys.detail(party.id), updated);
    await queryClient.invalidateQueries({ queryKey: partyKeys.lists() });
    toast.success(message);
  };
  const regenerate = useMutation({
    mutationFn: () => regenerateJoinCode(party.id),
    onSuccess: async (updated) => {
      setConfirmRegenerate(false);
      await saved(updated, 'New join code generated');
    },
  });
  const archive = useMutation({
    mutationFn: (archived: boolean) => setPartyArchived(party.id, archived),
    onSuccess: async (updated) => {
      setConfirmArchive(false);
      await saved(updated, updated.is_archived ? 'Party archived' : 'Party unarchived');
    },
  });

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="admin-heading">
      <Stack gap="sm">
        <Title order={3} size="h5" id="admin-heading">
          Game Master actions
        </Title>
        <Group gap="sm">
          {party.is_archived ? null : (
            <Button component={Link} to={`/parties/${party.id}/edit`} variant="default" size="sm">
              Edit Party
            </Button>
          )}
          {party.join_permission !== 'restricted' && !party.is_archived ? (
            <Button variant="default" size="sm" onClick={() => setConfirmRegenerate(true)}>
              Generate New Code
            </Button>
          ) : null}
          <Button
            variant="default"
            size="sm"
            loading={archive.isPending && !confirmArchive}
            // Archiving freezes the whole party for everyone, so it is asked first; unarchiving only gives back.
            onClick={() => (party.is_archived ? archive.mutate(false) : setConfirmArchive(true))}
          >
            {party.is_archived ? 'Unarchive Party' : 'Archive Party'}
          </Button>
        </Group>
        {party.is_archived ? (
          <Text size="sm" c="dimmed">
            This party is archived. Unarchive it to make changes.
          </Text>
        ) : null}
      </Stack>
      <ConfirmDialog
        opened={confirmRegenerate}
        title="Generate New Code"
        message="The current join code stops working at once. Players who have not joined yet will need the new one."
        confirmLabel="Generate New Code"
        danger={false}
        loading={regenerate.isPending}
        onClose={() => setConfirmRegenerate(false)}
        onConfirm={() => regenerate.mutate()}
      />
      <ConfirmDialog
        opened={confirmArchive}
        title="Archive Party"
        message={`While ${party.name} is archived, nobody can change its characters, items, shops, loot or notes. Members can still look, and you can unarchive it at any time.`}
        confirmLabel="Archive Party"
        danger={false}
        loading={archive.isPending}
        onClose={() => setConfirmArchive(false)}
        onConfirm={() => archive.mutate(true)}
      />
    </Paper>
  );
}
