import { type Character, characterMessages } from '@haversack/contracts';
import { Alert, Anchor, Box, Button, Checkbox, Group, Modal, Stack, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { TextSkeleton } from '../../../components/loading';
import { RefreshFailedNote } from '../../../components/refresh-failed-note';
import { failedWithNothingToShow } from '../../../lib/load-failed';
import { toast } from '../../../lib/toast';
import { characterKeys, myCharactersQuery, updateCharacter } from '../api/characters-api';

function sameSet(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  return a.size === b.size && [...a].every((id) => b.has(id));
}

function inOtherParty(character: Character, partyId: string): boolean {
  return character.party_id !== null && character.party_id !== partyId;
}

/**
 * spec/02 §2, §4 Character assignment dialog: my characters, the selection starting as those in this party;
 * a character in another party is dimmed and cannot be toggled. Save is enabled only when the selection
 * changed and nothing is saving; it sets party_id for added characters and null for removed ones.
 */
export function CharacterAssignmentDialog({
  partyId,
  opened,
  onClose,
  onSaved,
}: {
  partyId: string;
  opened: boolean;
  onClose: () => void;
  onSaved?: () => void;
}) {
  const queryClient = useQueryClient();
  const query = useQuery({ ...myCharactersQuery(), enabled: opened });
  const characters = query.data?.characters;
  const [original, setOriginal] = useState<ReadonlySet<string>>(new Set());
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [saving, setSaving] = useState(false);

  // A save ends with the dialog closing while still busy (below): each opening starts idle.
  useEffect(() => {
    if (opened) setSaving(false);
  }, [opened]);

  useEffect(() => {
    if (!opened || !characters) return;
    const inParty = new Set(characters.filter((c) => c.party_id === partyId).map((c) => c.id));
    setOriginal(inParty);
    setSelected(inParty);
  }, [opened, characters, partyId]);

  const toggle = (id: string) =>
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  const save = async () => {
    setSaving(true);
    const added = [...selected].filter((id) => !original.has(id));
    const removed = [...original].filter((id) => !selected.has(id));
    try {
      await Promise.all([
        ...added.map((id) => updateCharacter(id, { party_id: partyId }, { toast: false })),
        ...removed.map((id) => updateCharacter(id, { party_id: null }, { toast: false })),
      ]);
      toast.success(characterMessages.assignmentsUpdated);
      onSaved?.();
      // Closed still busy, on purpose: a Save enabled again inside the closing dialog would take the focus
      // back (keepFocusThroughBusyButtons, main.tsx) just before Mantine returns it to the button that
      // opened the dialog, and the focus then fell to <body> when the dialog went (UI review, focus lost).
      onClose();
    } catch {
      toast.error(characterMessages.assignmentsFailed);
      setSaving(false);
    } finally {
      await queryClient.invalidateQueries({ queryKey: characterKeys.all });
    }
  };

  const changed = !sameSet(original, selected);

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      closeButtonProps={{ 'aria-label': 'Close' }}
      title="Manage My Characters"
      centered
    >
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          Choose which of your characters adventure with this party.
        </Text>
        <RefreshFailedNote query={query} />
        {query.isPending ? (
          <TextSkeleton lines={3} />
        ) : failedWithNothingToShow(query) ? (
          <Alert color="red" variant="light" title="Failed to load your characters">
            {query.error.message}
          </Alert>
        ) : characters && characters.length === 0 ? (
          <Text size="sm">
            You have no characters yet.{' '}
            <Anchor component={Link} to={`/characters/new?party_id=${partyId}`}>
              Create one for this party
            </Anchor>
            .
          </Text>
        ) : (
          <Stack gap="sm" data-testid="assignment-list">
            {characters?.map((character) => {
              const elsewhere = inOtherParty(character, partyId);
              return (
                <Box key={character.id} opacity={elsewhere ? 0.5 : 1} data-testid={`assign-${character.id}`}>
                  <Checkbox
                    label={character.name}
                    description={
                      elsewhere ? `Already in party: ${character.party_name ?? 'another party'}` : undefined
                    }
                    checked={selected.has(character.id)}
                    disabled={elsewhere || saving}
                    onChange={() => toggle(character.id)}
                  />
                </Box>
              );
            })}
          </Stack>
        )}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose} disabled={saving}>
            Cancel
          </Button>
          <Button onClick={save} disabled={!changed || saving} loading={saving}>
            Save
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
