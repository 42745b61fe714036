import { usePartyChannels } from '../hooks/use-party-channels';
import { RealtimeIndicator } from './realtime-indicator';

/**
 * The realtime indicator of a party, for a screen that does not hold the party's channels itself: the
 * subscription is shared, so this only reads its status. Where a removed member goes is the page's to say
 * (its own usePartyChannels): a Backpack of theirs stays, a party page goes back to /parties.
 */
export function PartyRealtimeIndicator({ partyId }: { partyId: string }) {
  return <RealtimeIndicator status={usePartyChannels(partyId, { staysOnRemoval: true }).status} />;
}
