import type { Consumer, Subscription } from '@rails/actioncable';
import type { QueryClient, QueryKey } from '@tanstack/react-query';
import { getConsumer, onConsumerChange } from '../../lib/cable';
import { partyKeys } from '../parties/api/parties-api';
import type { RealtimeStatus } from './party-channels';
import { invalidationsFor, partyMessageSchema } from './party-events';

interface Watched {
  partyId: string;
  confirmed: boolean;
  everConfirmed: boolean;
  /** Dropped after being up: events may have been missed, so the page refetches on return. */
  missedEvents: boolean;
  /** Refused before it was ever up. */
  failed: boolean;
  /** Refused after it was up: the user is no longer a member. */
  removed: boolean;
}

/** What the indicator says for several parties: live only when every party still followed is. */
export function combinedStatus(watched: readonly Watched[], hasConsumer: boolean): RealtimeStatus {
  const followed = watched.filter((party) => !party.removed);
  if (!hasConsumer || followed.length === 0) return 'idle';
  if (followed.some((party) => party.failed)) return 'failed';
  return followed.every((party) => party.confirmed) ? 'connected' : 'connecting';
}

/**
 * A page listing what several parties hold (My Party Shops) follows PartyInventoryChannel of each, where
 * their shop, loot and inventory events are told, and refreshes what each event touches (party-events.ts),
 * as the party's own screens do. Only that channel, as for the hidden loot's watch: the server counts
 * presence on PartyChannel, so a list of all the user's parties does not show them online in every one.
 * Membership changes are told on both channels, so a removal is heard here too (the subscription is refused):
 * the party lists and `resync` are refetched, and the party is no longer counted in the status. `resync` is
 * what the page shows: refetched once the channels are first up if it was loaded before they were asked for,
 * and after a dropped connection comes back. Returns the stop function.
 */
export function watchPartyInventories(
  partyIds: readonly string[],
  queryClient: QueryClient,
  resync: QueryKey,
  onStatus: (status: RealtimeStatus) => void,
): () => void {
  const askedAt = Date.now();
  let consumer: Consumer | null = null;
  let subscriptions: Subscription[] = [];
  const watched: Watched[] = partyIds.map((partyId) => ({
    partyId,
    confirmed: false,
    everConfirmed: false,
    missedEvents: false,
    failed: false,
    removed: false,
  }));
  const tell = () => onStatus(combinedStatus(watched, consumer !== null));
  const subscribe = (next: Consumer | null) => {
    // The old consumer's subscriptions end with its socket, after the hand-over (lib/cable.ts); what was
    // up before is caught up once the new one's are.
    consumer = next;
    for (const party of watched) {
      party.missedEvents ||= party.confirmed;
      party.confirmed = false;
      party.failed = false;
    }
    const current = () => consumer === next;
    subscriptions = next
      ? watched
          .filter((party) => !party.removed)
          .map((party) =>
            next.subscriptions.create(
              { channel: 'PartyInventoryChannel', party_id: party.partyId },
              {
                connected() {
                  if (!current() || party.confirmed) return;
                  party.confirmed = true;
                  party.failed = false;
                  if (party.missedEvents) void queryClient.invalidateQueries({ queryKey: resync });
                  // First up: what was loaded before the channel was asked for may have missed a change.
                  else if (!party.everConfirmed)
                    void queryClient.invalidateQueries({
                      queryKey: resync,
                      predicate: (query) => query.state.dataUpdatedAt < askedAt,
                    });
                  party.everConfirmed = true;
                  party.missedEvents = false;
                  tell();
                },
                disconnected() {
                  if (!current()) return;
                  if (party.confirmed) party.missedEvents = true;
                  party.confirmed = false;
                  tell();
                },
                rejected() {
                  if (!current()) return;
                  party.confirmed = false;
                  if (party.everConfirmed) {
                    party.removed = true;
                    void queryClient.invalidateQueries({ queryKey: partyKeys.lists() });
                    void queryClient.invalidateQueries({ queryKey: resync });
                  } else party.failed = true;
                  tell();
                },
                received(data: unknown) {
                  if (!current()) return;
                  const parsed = partyMessageSchema.safeParse(data);
                  if (!parsed.success) return;
                  for (const { queryKey, exact } of invalidationsFor(parsed.data, party.partyId))
                    void queryClient.invalidateQueries({ queryKey, exact: exact ?? false });
                },
              },
            ),
          )
      : [];
    tell();
  };
  subscribe(getConsumer());
  const stopFollowing = onConsumerChange(subscribe);
  return () => {
    stopFollowing();
    if (consumer === getConsumer()) for (const subscription of subscriptions) subscription.unsubscribe();
    subscriptions = [];
  };
}
