import { type Container, partyMessages } from '@haversack/contracts';
import { useQueries, useQuery } from '@tanstack/react-query';
import { myCharactersQuery } from '../../characters/api/characters-api';
import { partyQuery } from '../../parties/api/parties-api';

/**
 * Issue 12 party rule, as the marketplace's destination lists show it: a container of a party whose GM
 * keeps marketplace adds to themselves is offered disabled, with the reason, to everyone but that GM.
 * The server decides; this only spares a player a refusal. Containers whose party is not known yet (or
 * another player's character, which only the GM can act on anyway) stay enabled.
 */
export function useConjuringRefusal(containers: Container[]): (container: Container) => string | null {
  const characters = useQuery(myCharactersQuery());
  const partyOfCharacter = new Map(
    (characters.data?.characters ?? []).map((c) => [c.id, c.party_id] as const),
  );
  const partyOf = (container: Container) =>
    container.party_id ??
    (container.character_id ? partyOfCharacter.get(container.character_id) : null) ??
    null;
  const partyIds = [...new Set(containers.map(partyOf).filter((id): id is string => id !== null))];
  const parties = useQueries({ queries: partyIds.map((id) => partyQuery(id)) });
  const gmOnly = new Set(
    parties.flatMap((q) =>
      q.data && q.data.item_conjuring === 'gm_only' && !q.data.is_gm ? [q.data.id] : [],
    ),
  );
  return (container) => {
    const party = partyOf(container);
    return party && gmOnly.has(party) ? partyMessages.conjuringGmOnly : null;
  };
}
