import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { myActivePartiesQuery } from '../../parties/api/parties-api';
import { watchLootReveal } from '../party-channels';

/**
 * While a loot page shows Not Found for a loot whose party it cannot know (hidden loot answers 404 to
 * players), refetch the loot as soon as any of the user's parties reveals it (see watchLootReveal).
 */
export function useLootRevealWatch(lootId: string, enabled: boolean): void {
  const queryClient = useQueryClient();
  const parties = useQuery({ ...myActivePartiesQuery(), enabled });
  const partyIds = (parties.data?.parties ?? []).map((party) => party.id).join(',');
  useEffect(() => {
    if (!enabled || !partyIds) return;
    return watchLootReveal(partyIds.split(','), lootId, queryClient);
  }, [enabled, partyIds, lootId, queryClient]);
}
