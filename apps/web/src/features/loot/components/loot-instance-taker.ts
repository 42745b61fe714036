import type { Character, Container } from '@haversack/contracts';
import { useQuery } from '@tanstack/react-query';
import { partyCharactersQuery } from '../../characters/api/characters-api';
import { useOwnerContainers } from '../../inventory/hooks/use-owner-containers';

/**
 * Who takes from a party's loot: my characters in that party and the containers they can carry into
 * (DESIGN §4: a take goes into a container of one of my characters in the party; a claim into the
 * character's main container). The GM may take and claim for any character of the party (the loot
 * policy's `canTake`, docs/decisions.md Loot; managers may not), so `forAnyCharacter` offers them all.
 * Nothing is fetched while `partyId` is null (the user cannot take).
 */
export function useLootTaker(partyId: string | null, { forAnyCharacter = false } = {}) {
  const characters = useQuery({ ...partyCharactersQuery(partyId ?? ''), enabled: partyId !== null });
  const mine: Character[] = (characters.data?.characters ?? []).filter((c) => forAnyCharacter || c.is_owner);
  const sources = useOwnerContainers(mine.map((c) => ({ type: 'character' as const, id: c.id })));
  const containers: Container[] = sources.containers.filter((c) => c.owner.type === 'character' && c.can_act);
  return {
    isPending: partyId !== null && (characters.isPending || (mine.length > 0 && sources.isPending)),
    isError: characters.isError,
    characters: mine,
    containers,
  };
}

export type LootTaker = ReturnType<typeof useLootTaker>;

/** "Backpack (Aria)": a container and whose it is. */
export function containerLabel(container: Container): string {
  return container.owner.name && container.owner.name !== container.name
    ? `${container.name} (${container.owner.name})`
    : container.name;
}
