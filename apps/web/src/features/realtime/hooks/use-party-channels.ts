import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useSyncExternalStore } from 'react';
import { useNavigate } from 'react-router';
import { characterKeys } from '../../characters/api/characters-api';
import { inventoryKeys } from '../../inventory/api/inventory-api';
import { partyKeys } from '../../parties/api/parties-api';
import {
  acquirePartyChannels,
  idleRealtimeState,
  type PartyRealtimeState,
  partyRealtimeState,
  watchPartyRealtime,
} from '../party-channels';

/**
 * Live updates for a party (issue 6 item 4): subscribes to its PartyChannel and PartyInventoryChannel while
 * the calling screen is mounted, invalidates the queries each event touches, shows the notices of spec/02
 * §8, and sends a member who is removed from the party back to /parties. Any number of screens may call it
 * for the same party; the subscriptions are shared.
 *
 * Returns the connection status (`connected` drives "Real-time updates active") and who is online.
 */
export function usePartyChannels(
  partyId: string | null | undefined,
  options: {
    /**
     * The screen shows something of the user's own that outlives the membership (their character, its
     * containers: characters leave a party with their player): on removal it stays, refreshed, instead of
     * going back to /parties.
     */
    staysOnRemoval?: boolean;
  } = {},
): PartyRealtimeState {
  const queryClient = useQueryClient();
  const navigate = useNavigate();

  // Acquire before the store subscription below, so the first snapshot already sees the entry.
  useEffect(() => {
    if (!partyId) return;
    return acquirePartyChannels(partyId, queryClient);
  }, [partyId, queryClient]);

  const subscribe = useCallback(
    (listener: () => void) => (partyId ? watchPartyRealtime(partyId, listener) : () => undefined),
    [partyId],
  );
  const state = useSyncExternalStore(subscribe, () =>
    partyId ? partyRealtimeState(partyId) : idleRealtimeState,
  );

  const { staysOnRemoval = false } = options;
  useEffect(() => {
    if (!partyId || state.status !== 'removed') return;
    queryClient.removeQueries({ queryKey: partyKeys.detail(partyId) });
    void queryClient.invalidateQueries({ queryKey: partyKeys.lists() });
    if (staysOnRemoval) {
      void queryClient.invalidateQueries({ queryKey: characterKeys.all });
      void queryClient.invalidateQueries({ queryKey: inventoryKeys.all });
      return;
    }
    navigate('/parties', { replace: true });
  }, [partyId, state.status, staysOnRemoval, queryClient, navigate]);

  return state;
}
