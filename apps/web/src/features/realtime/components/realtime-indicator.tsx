import { Badge } from '@mantine/core';
import type { RealtimeStatus } from '../party-channels';

export const realtimeActiveLabel = 'Real-time updates active';

/**
 * spec/02 §7: "Real-time updates active" while the party's channels are connected. The live region stays in
 * the page so that screen readers hear the badge come and go.
 */
export function RealtimeIndicator({ status }: { status: RealtimeStatus }) {
  return (
    <div role="status" aria-live="polite" style={{ display: 'contents' }}>
      {status === 'connected' ? (
        <Badge color="teal" variant="dot" radius="sm" tt="none" data-testid="realtime-indicator">
          {realtimeActiveLabel}
        </Badge>
      ) : null}
    </div>
  );
}
