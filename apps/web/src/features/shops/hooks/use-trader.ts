import { type Container, emptyPurse, purseValueCp } from '@haversack/contracts';
import { useQueries, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { partyCharactersQuery } from '../../characters/api/characters-api';
import { containerCoinsQuery } from '../../inventory/api/inventory-api';
import { useOwnerContainers } from '../../inventory/hooks/use-owner-containers';

/**
 * Who trades at a party's shop: my characters in that party, the containers they can pay from and carry
 * into (DESIGN §4: a purchase is paid from the buyer's own container), and the coins in the chosen one.
 * Until I choose, it is the container holding the most coins (the purse, wherever the player keeps it),
 * else my first character's primary container.
 */
export function useTrader(partyId: string | null) {
  const characters = useQuery({ ...partyCharactersQuery(partyId ?? ''), enabled: partyId !== null });
  const mine = (characters.data?.characters ?? []).filter((c) => c.is_owner);
  const sources = useOwnerContainers(mine.map((c) => ({ type: 'character' as const, id: c.id })));
  const containers: Container[] = sources.containers.filter((c) => c.owner.type === 'character' && c.can_act);
  const [chosen, setChosen] = useState<string | null>(null);
  const purses = useQueries({
    queries: containers.map((c) => ({ ...containerCoinsQuery(c.id), enabled: chosen === null })),
  });
  const pursesPending = chosen === null && purses.some((p) => p.isPending);
  const worth = (index: number) => purseValueCp({ ...emptyPurse(), ...purses[index]?.data });
  const richest = containers.reduce<{ container: Container | null; cp: number }>(
    (best, container, index) => (worth(index) > best.cp ? { container, cp: worth(index) } : best),
    { container: null, cp: 0 },
  ).container;
  const fallback =
    richest ?? containers.find((c) => c.is_primary && c.owner.id === mine[0]?.id) ?? containers[0] ?? null;
  const container = containers.find((c) => c.id === chosen) ?? fallback;
  const coins = useQuery({ ...containerCoinsQuery(container?.id ?? ''), enabled: container !== null });
  return {
    // The choice waits for the purses, so that it does not jump from one container to another.
    isPending: characters.isPending || (mine.length > 0 && (sources.isPending || pursesPending)),
    hasCharacter: mine.length > 0,
    containers,
    container,
    characterId: container ? (container.character_id ?? container.owner.id) : null,
    choose: setChosen,
    coins: coins.data ?? null,
    coinsPending: coins.isPending && container !== null,
  };
}

export type Trader = ReturnType<typeof useTrader>;
