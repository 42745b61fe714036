import type { Character, Party } from '@haversack/contracts';
import { Anchor, Group, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { DashboardListCard } from '../../../components/dashboard-list-card';
import { myCharactersQuery } from '../../characters/api/characters-api';
import { myActivePartiesQuery } from '../api/parties-api';
import { NoPartyActions } from './no-party-actions';
import { PartyRoleBadge } from './party-role-badge';

/**
 * Who I play in a party ("as Ireena"), or that a party I play in has no character of mine yet; nothing for a
 * GM or an observer without one, who need none. Undefined until my characters are known.
 */
export function playedAs(party: Pick<Party, 'id' | 'user_role'>, characters: Character[] | undefined) {
  if (!characters) return undefined;
  const mine = characters.filter((character) => character.party_id === party.id).map((c) => c.name);
  if (mine.length > 0) return `as ${mine.join(', ')}`;
  return party.user_role === 'player' || party.user_role === 'manager' ? 'No character yet' : undefined;
}

/** Dashboard: my live parties at a glance, each with the character I play there. */
export function MyPartiesCard() {
  const query = useQuery(myActivePartiesQuery());
  // The same list the My Characters card shows: asked for once.
  const characters = useQuery(myCharactersQuery());
  return (
    <DashboardListCard
      name="parties"
      title="My Parties"
      viewAllTo="/parties"
      query={query}
      errorText="Your parties could not be loaded."
      empty={<NoPartyActions />}
      items={query.data?.parties ?? []}
      total={query.data?.meta.total_count ?? 0}
      itemKey={(party) => party.id}
      renderItem={(party) => {
        const played = playedAs(party, characters.data?.characters);
        return (
          <>
            <Anchor
              component={Link}
              to={`/parties/${party.id}`}
              size="sm"
              className="haversack-touch-target"
              style={{ overflowWrap: 'anywhere' }}
            >
              {party.name}
            </Anchor>
            <Group gap="xs" wrap="nowrap">
              {played ? (
                <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                  {played}
                </Text>
              ) : null}
              <PartyRoleBadge party={party} />
            </Group>
          </>
        );
      }}
    />
  );
}
