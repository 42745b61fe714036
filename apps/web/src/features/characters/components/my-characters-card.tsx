import { Anchor, Button, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { DashboardListCard } from '../../../components/dashboard-list-card';
import { myCharactersQuery } from '../api/characters-api';

/** Dashboard: my characters at a glance. */
export function MyCharactersCard() {
  const query = useQuery(myCharactersQuery());
  return (
    <DashboardListCard
      name="characters"
      title="My Characters"
      viewAllTo="/characters"
      query={query}
      errorText="Your characters could not be loaded."
      empty={
        <Stack gap="xs" align="flex-start">
          <Text size="sm" c="dimmed">
            You have no characters yet.
          </Text>
          {/* 44 px on a phone (haversack-finger-target): the dashboard's first step for a newcomer. */}
          <Button component={Link} to="/characters/new" size="xs" className="haversack-finger-target">
            Create Character
          </Button>
        </Stack>
      }
      items={query.data?.characters ?? []}
      total={query.data?.meta.total_count ?? 0}
      itemKey={(character) => character.id}
      renderItem={(character) => (
        <>
          <Anchor
            component={Link}
            to={`/characters/${character.id}`}
            size="sm"
            className="haversack-touch-target"
            style={{ overflowWrap: 'anywhere' }}
          >
            {character.name}
          </Anchor>
          <Text size="xs" c="dimmed">
            Level {character.level}
            {character.party_name ? ` · ${character.party_name}` : ''}
          </Text>
        </>
      )}
    />
  );
}
