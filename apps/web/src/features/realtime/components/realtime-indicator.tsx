import { Badge } from '@mantine/core';
import { useNetwork } from '@mantine/hooks';
import { useEffect, useState } from 'react';
import type { RealtimeStatus } from '../party-channels';

export const realtimeActiveLabel = 'Real-time updates active';
export const realtimePausedLabel = 'Reconnecting: live updates paused';
export const realtimeOfflineLabel = 'Offline: live updates paused';

/**
 * spec/02 §7: "Real-time updates active" while the party's channels are connected. Once they have been, a
 * lost connection says so until it is back, rather than the badge just going away (at the table, a phone
 * that lost the Wi-Fi should not look up to date). The first connection shows nothing while it is made.
 * The live region stays in the page so that screen readers hear the badge come and go.
 *
 * The browser saying it is offline (the `offline` event, `navigator.onLine`) pauses it at once: the socket
 * itself notices a dead network only when its pings stop (the stale threshold, 6 s, then a reconnection
 * attempt), and until then it still looked connected. A socket that drops while online is told as before.
 * Offline, it says so rather than "Reconnecting": nothing reconnects until the network is back.
 *
 * The region is quiet (aria-live="off") until the first connection has been shown, and live from the render
 * after: a page that opens on a connection, or makes its first one online, shows the badge without saying it on
 * top of its focused heading (review L6); a connection lost, or back after it was, is said. The same element
 * all along, so that screen readers already follow it when it turns live.
 */
export function RealtimeIndicator({ status }: { status: RealtimeStatus }) {
  const network = useNetwork();
  const online = network.online && navigator.onLine;
  const [wasConnected, setWasConnected] = useState(false);
  if (status === 'connected' && !wasConnected) setWasConnected(true);
  const [speaks, setSpeaks] = useState(false);
  useEffect(() => {
    // Offline before the first connection: that connection, when the network is back, is news.
    if (wasConnected || !online) setSpeaks(true);
  }, [wasConnected, online]);
  const live = status === 'connected' && online;
  const paused =
    wasConnected && !live && (status === 'connected' || status === 'connecting' || status === 'failed');
  return (
    <div role="status" aria-live={speaks ? 'polite' : 'off'} style={{ display: 'contents' }}>
      {live ? (
        <Badge color="teal" variant="dot" radius="sm" tt="none" data-testid="realtime-indicator">
          {realtimeActiveLabel}
        </Badge>
      ) : paused ? (
        <Badge color="yellow" variant="dot" radius="sm" tt="none" data-testid="realtime-paused">
          {online ? realtimePausedLabel : realtimeOfflineLabel}
        </Badge>
      ) : null}
    </div>
  );
}
