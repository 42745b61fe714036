import type { Container } from '@haversack/contracts';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { partyCharactersQuery } from '../../characters/api/characters-api';
import { containerCoinsQuery } from '../../inventory/api/inventory-api';
import { useOwnerContainers } from '../../inventory/hooks/use-owner-containers';

/**
 * Who trades at a party's shop: my characters in that party, the containers they can pay from and carry
 * into (DESIGN §4: a purchase is paid from the buyer's own container), and the coins in the chosen one.
 */
export function useTrader(partyId: string | null) {
  const characters = useQuery({ ...partyCharactersQuery(partyId ?? ''), enabled: partyId !== null });
  const mine = (characters.data?.characters ?? []).filter((c) => c.is_owner);
  const sources = useOwnerContainers(mine.map((c) => ({ type: 'character' as const, id: c.id })));
  const containers: Container[] = sources.containers.filter((c) => c.owner.type === 'character' && c.can_act);
  const [chosen, setChosen] = useState<string | null>(null);
  const fallback =
    containers.find((c) => c.is_primary && c.owner.id === mine[0]?.id) ?? containers[0] ?? null;
  const container = containers.find((c) => c.id === chosen) ?? fallback;
  const coins = useQuery({ ...containerCoinsQuery(container?.id ?? ''), enabled: container !== null });
  return {
    isPending: characters.isPending || (mine.length > 0 && sources.isPending),
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
