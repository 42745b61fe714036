import { type Party, roleLabels } from '@haversack/contracts';
import { Badge, Button, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { EmptyState } from '../../../components/empty-state';
import { ErrorPanel } from '../../../components/error-panel';
import { RefreshFailedNote } from '../../../components/refresh-failed-note';
import { failedWithNothingToShow } from '../../../lib/load-failed';
import { partyCharactersQuery } from '../../characters/api/characters-api';
import { CharacterAssignmentDialog } from '../../characters/components/character-assignment-dialog';
import { partyKeys, partyMembersQuery } from '../api/parties-api';
import { PartyCardSkeletons } from './party-card-skeletons';

/** spec/02 §2 Characters tab. */
export function PartyCharactersTab({ party }: { party: Party }) {
  const characters = useQuery(partyCharactersQuery(party.id));
  const members = useQuery(partyMembersQuery(party.id));
  const queryClient = useQueryClient();
  const [assigning, setAssigning] = useState(false);
  const roleOf = (userId: string) => members.data?.find((member) => member.user_id === userId)?.role;
  const newCharacterHref = `/characters/new?party_id=${party.id}`;

  return (
    <Stack gap="md">
      <Group justify="space-between" gap="sm">
        <Title order={2} size="h3">
          Party Characters ({characters.data?.meta.total_count ?? party.character_count})
        </Title>
        <Group gap="sm">
          <Button variant="default" onClick={() => setAssigning(true)}>
            Manage My Characters
          </Button>
          <Button component={Link} to={newCharacterHref}>
            New Character
          </Button>
        </Group>
      </Group>
      <RefreshFailedNote query={characters} />
      {characters.isPending ? (
        <PartyCardSkeletons count={3} />
      ) : failedWithNothingToShow(characters) ? (
        <ErrorPanel
          title="Failed to load characters"
          message={characters.error.message}
          onRetry={() => void characters.refetch()}
        />
      ) : characters.data.characters.length === 0 ? (
        <EmptyState
          title="No Characters Yet"
          message="Bring a character into this party to share its adventures."
          headingOrder={3}
          action={
            <Button component={Link} to={newCharacterHref}>
              Create Your Character
            </Button>
          }
        />
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md">
          {characters.data.characters.map((character) => {
            const role = roleOf(character.user_id);
            return (
              <Card key={character.id} withBorder padding="md" data-testid="party-character-card">
                <Stack gap="xs" h="100%">
                  {/* A long name wraps in its own column; the role keeps its width rather than being cut
                      from "Game Master" down to "G…". */}
                  <Group justify="space-between" wrap="nowrap" align="flex-start" gap="xs">
                    <Title order={3} size="h5" style={{ overflowWrap: 'anywhere', minWidth: 0, flex: 1 }}>
                      {character.name}
                    </Title>
                    {role ? (
                      <Badge variant="light" color="violet" style={{ flexShrink: 0, overflow: 'visible' }}>
                        {roleLabels[role]}
                      </Badge>
                    ) : null}
                  </Group>
                  <Text size="sm">Played by {character.player_name ?? 'Unknown'}</Text>
                  <Text size="sm" c="dimmed">
                    Level {character.level}
                    {character.race ? ` · ${character.race}` : ''}
                    {character.character_class ? ` · ${character.character_class}` : ''}
                  </Text>
                  {character.primary_container_id ? (
                    <Badge variant="dot" color="violet">
                      Has inventory
                    </Badge>
                  ) : null}
                  <Group gap="sm" mt="auto">
                    <Button
                      component={Link}
                      to={`/characters/${character.id}`}
                      size="xs"
                      variant="light"
                      aria-label={`View Details of ${character.name}`}
                    >
                      View Details
                    </Button>
                    {character.primary_container_id ? (
                      <Button
                        component={Link}
                        to={`/containers/${character.primary_container_id}`}
                        size="xs"
                        variant="default"
                        aria-label={`View Inventory of ${character.name}`}
                      >
                        View Inventory
                      </Button>
                    ) : null}
                  </Group>
                </Stack>
              </Card>
            );
          })}
        </SimpleGrid>
      )}
      <CharacterAssignmentDialog
        partyId={party.id}
        opened={assigning}
        onClose={() => setAssigning(false)}
        onSaved={() => void queryClient.invalidateQueries({ queryKey: partyKeys.detail(party.id) })}
      />
    </Stack>
  );
}
