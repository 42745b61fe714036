import { type QueryKey, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import type { RealtimeStatus } from '../party-channels';
import { watchPartyInventories } from '../party-inventories-watch';

/**
 * Live updates for a page listing what several parties hold (see watchPartyInventories): follows each
 * party's inventory channel while mounted and returns the status the RealtimeIndicator shows. `resync` is
 * the page's own data, refetched when the channels come up or back.
 */
export function usePartyInventoriesLive(partyIds: readonly string[], resync: QueryKey): RealtimeStatus {
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<RealtimeStatus>('idle');
  const ids = [...new Set(partyIds)].sort().join(',');
  // The page's own data does not change while it is mounted; a key made anew each render must not resubscribe.
  const resyncKey = useRef(resync);
  useEffect(() => {
    if (!ids) {
      setStatus('idle');
      return;
    }
    return watchPartyInventories(ids.split(','), queryClient, resyncKey.current, setStatus);
  }, [ids, queryClient]);
  return status;
}
