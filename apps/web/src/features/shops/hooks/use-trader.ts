import { type Container, emptyPurse, purseValueCp } from '@haversack/contracts';
import { useQueries, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
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
  // The container chosen in this party's shops before, kept on this device; else none until the purses are
  // counted, when the default is pinned so that it never jumps (to another character) as coins change.
  const [picked, setChosen] = useState<string | null>(null);
  // Read on every render: the party is known only once its shop has loaded.
  const chosen = picked ?? (partyId ? rememberedTrader(partyId) : null);
  const purses = useQueries({
    queries: containers.map((c) => ({ ...containerCoinsQuery(c.id), enabled: chosen === null })),
  });
  // A count kept from before (the pouch seen empty, then filled from the market) is refetched on mount: wait
  // for the fresh one, else the default is pinned to a container from an old count.
  const pursesPending = chosen === null && purses.some((p) => p.isPending || p.isFetching);
  const worth = (index: number) => purseValueCp({ ...emptyPurse(), ...purses[index]?.data });
  const richest = containers.reduce<{ container: Container | null; cp: number }>(
    (best, container, index) => (worth(index) > best.cp ? { container, cp: worth(index) } : best),
    { container: null, cp: 0 },
  ).container;
  const fallback =
    richest ?? containers.find((c) => c.is_primary && c.owner.id === mine[0]?.id) ?? containers[0] ?? null;
  const container = containers.find((c) => c.id === chosen) ?? fallback;
  const settled = !characters.isPending && !sources.isPending && !pursesPending;
  useEffect(() => {
    if (settled && container && container.id !== chosen) setChosen(container.id);
  }, [settled, container, chosen]);
  const choose = (id: string) => {
    setChosen(id);
    if (partyId) rememberTrader(partyId, id);
  };
  const coins = useQuery({ ...containerCoinsQuery(container?.id ?? ''), enabled: container !== null });
  return {
    // The choice waits for the purses, so that it does not jump from one container to another.
    isPending: characters.isPending || (mine.length > 0 && (sources.isPending || pursesPending)),
    hasCharacter: mine.length > 0,
    // My characters or their containers could not be loaded: not the same as having none.
    isError: (characters.isError && !characters.data) || (mine.length > 0 && sources.isError),
    retry: () => void (characters.isError ? characters.refetch() : sources.refetch()),
    containers,
    container,
    characterId: container ? (container.character_id ?? container.owner.id) : null,
    choose,
    coins: coins.data ?? null,
    coinsPending: coins.isPending && container !== null,
  };
}

export type Trader = ReturnType<typeof useTrader>;

const traderKey = (partyId: string) => `haversack-trader:${partyId}`;

function rememberedTrader(partyId: string): string | null {
  try {
    return window.localStorage.getItem(traderKey(partyId));
  } catch {
    return null;
  }
}

function rememberTrader(partyId: string, containerId: string): void {
  try {
    window.localStorage.setItem(traderKey(partyId), containerId);
  } catch {
    // Private browsing without storage: the choice lasts as long as the page.
  }
}
