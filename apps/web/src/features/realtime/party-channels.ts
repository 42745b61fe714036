import { TOAST_ERROR_MS } from '@haversack/contracts';
import type { Consumer, Subscription } from '@rails/actioncable';
import type { Query, QueryClient, QueryFilters } from '@tanstack/react-query';
import { getConsumer, onConsumerChange } from '../../lib/cable';
import { tabId } from '../../lib/tab-id';
import { toast } from '../../lib/toast';
import { useAuthStore } from '../../stores/auth-store';
import { characterKeys } from '../characters/api/characters-api';
import { lootKeys } from '../loot/api/loot-api';
import { partyQuery } from '../parties/api/parties-api';
import { currentPreferences } from '../preferences/lib/current-preferences';
import {
  type Invalidation,
  invalidationsFor,
  isPresenceAction,
  type Notice,
  noticeFor,
  type OnlineUser,
  type PartyChannelName,
  partyMessageSchema,
  resyncInvalidations,
} from './party-events';
import { type PresenceNotices, presenceNotices } from './presence-notices';

export const connectFailedMessage = 'Failed to connect to real-time updates';
export const removedFromPartyMessage = 'You are no longer a member of this party.';

/**
 * The removal notice names the party, for a player in several (the spec does not fix this text). The name
 * comes from the party's cached detail, which every screen holding its channels has loaded; without it the
 * notice falls back to "this party".
 */
export function removedFromPartyNotice(partyName: string | null | undefined): string {
  return partyName ? `You are no longer a member of ${partyName}.` : removedFromPartyMessage;
}

function cachedPartyName(entry: Entry): string | null {
  const party = entry.queryClient.getQueryData(partyQuery(entry.partyId).queryKey);
  if (party?.name) return party.name;
  // A character's or a container's page holds the party's channels without its detail: the character
  // loaded there names its party.
  for (const [, data] of entry.queryClient.getQueriesData<unknown>({ queryKey: characterKeys.all })) {
    const named = partyNameIn(data, entry.partyId);
    if (named) return named;
  }
  return null;
}

/** The `party_name` of a character (or a page of characters) in the party, if the data holds one. */
function partyNameIn(data: unknown, partyId: string): string | null {
  const characters =
    data && typeof data === 'object' && 'characters' in data && Array.isArray(data.characters)
      ? (data.characters as unknown[])
      : [data];
  for (const character of characters) {
    if (
      character &&
      typeof character === 'object' &&
      'party_id' in character &&
      character.party_id === partyId &&
      'party_name' in character &&
      typeof character.party_name === 'string'
    )
      return character.party_name;
  }
  return null;
}

/** Both channels must be confirmed within this time, or the user is told live updates are off. */
export const CONNECT_TIMEOUT_MS = 5_000;
/**
 * A party's channels outlive their last user this long, so that moving between screens of one party (or
 * React's development double effects) does not unsubscribe and resubscribe, which others would see as the
 * user leaving and joining.
 */
const RELEASE_GRACE_MS = 2_000;

const channels: readonly PartyChannelName[] = ['PartyChannel', 'PartyInventoryChannel'];

/** The changes whose refreshed queries an entry remembers: a change's messages arrive together. */
const REMEMBERED_CHANGES = 64;

export type RealtimeStatus = 'idle' | 'connecting' | 'connected' | 'failed' | 'removed';

export interface PartyRealtimeState {
  status: RealtimeStatus;
  onlineUsers: OnlineUser[];
}

export const idleRealtimeState: PartyRealtimeState = { status: 'idle', onlineUsers: [] };

interface Entry {
  partyId: string;
  refs: number;
  queryClient: QueryClient;
  consumer: Consumer | null;
  subscriptions: Subscription[];
  confirmed: Set<PartyChannelName>;
  /** The socket each confirmed channel was confirmed on. */
  confirmedOn: Map<PartyChannelName, unknown>;
  everConfirmed: Set<PartyChannelName>;
  /**
   * Until the channels are first up: the queries fetched (or written) since they were asked for. Whatever
   * else the party's screens hold may predate them, and is caught up once they are confirmed.
   */
  freshSinceRequest: Set<string> | null;
  stopWatchingFetches: () => void;
  /** The socket dropped after being up: events may have been missed, so refetch on return. */
  missedEvents: boolean;
  /** The user is leaving this party themselves: the refusal of its channels that follows is no news. */
  leaving: boolean;
  failureShown: boolean;
  connectTimer: ReturnType<typeof setTimeout> | undefined;
  releaseTimer: ReturnType<typeof setTimeout> | undefined;
  /** "Joined" and "left the party", told for real arrivals and departures only (not page moves). */
  presence: PresenceNotices;
  /** By change id, oldest first: the queries (hashes) the change's earlier messages already refreshed. */
  refreshedByChange: Map<string, Set<string>>;
  state: PartyRealtimeState;
}

const entries = new Map<string, Entry>();
/** Watchers by party, apart from the entries so that a watcher outlives an entry torn down and rebuilt. */
const watchers = new Map<string, Set<() => void>>();
let followingConsumer = false;

function setState(entry: Entry, change: Partial<PartyRealtimeState>): void {
  entry.state = { ...entry.state, ...change };
  for (const listener of watchers.get(entry.partyId) ?? []) listener();
}

const firstLoadUnderWay = (query: Query) =>
  query.state.data === undefined && query.state.fetchStatus === 'fetching';

/**
 * Marks what an event changed as stale and refetches what is on screen. The echo of this tab's own change
 * joins a fetch already under way instead of cancelling it and starting over (a whole round trip more
 * before the screen shows the change): the change's own settling started that fetch after the server
 * answered, so it holds the change, and if the echo comes first the settling still cancels any older fetch
 * of what it changed. Someone else's change always refetches anew, a first load too: TanStack cancels a
 * fetch under way for a refetch only when the query has data, and otherwise joins it, whose answer (maybe
 * read before the change) then clears the invalidation, so the change would never show. Such a fetch is
 * cancelled first.
 */
function invalidate(
  entry: Entry,
  invalidations: Invalidation[],
  ownEcho = false,
  only?: (query: Query) => boolean,
): void {
  const { queryClient } = entry;
  for (const { queryKey, exact } of invalidations) {
    const filters: QueryFilters = { queryKey, exact: exact ?? false, ...(only && { predicate: only }) };
    if (ownEcho) {
      void queryClient.invalidateQueries(filters, { cancelRefetch: false });
      continue;
    }
    const firstLoads: QueryFilters = {
      ...filters,
      predicate: (q) => (only?.(q) ?? true) && firstLoadUnderWay(q),
    };
    if (queryClient.getQueryCache().findAll(firstLoads).length === 0)
      void queryClient.invalidateQueries(filters);
    else void queryClient.cancelQueries(firstLoads).then(() => queryClient.invalidateQueries(filters));
  }
}

/**
 * One committed change reaches the page as several messages (a move's row on the inventory channel, then
 * PartyChannel's `inventory_updated` and `party_activity`) naming overlapping queries, and each refetch of
 * someone else's change cancels the fetch the previous message started: every change was read twice. The
 * server publishes them after the commit, so whatever an earlier message of the change refreshed (a fetch it
 * started, or the own echo's joined fetch, started after the server answered) already holds the change:
 * a later message refreshes only the queries not refreshed for that change yet, which still get the whole
 * treatment (a first load under way is cancelled). A message without a change id refreshes all it names.
 */
function invalidateChange(
  entry: Entry,
  invalidations: Invalidation[],
  change: string | undefined,
  ownEcho: boolean,
): void {
  if (change === undefined) {
    invalidate(entry, invalidations, ownEcho);
    return;
  }
  let refreshed = entry.refreshedByChange.get(change);
  if (!refreshed) {
    refreshed = new Set();
    entry.refreshedByChange.set(change, refreshed);
    for (const oldest of entry.refreshedByChange.keys()) {
      if (entry.refreshedByChange.size <= REMEMBERED_CHANGES) break;
      entry.refreshedByChange.delete(oldest);
    }
  }
  // A copy: a first load's refetch waits for its cancellation and filters with this afterwards.
  const before = new Set(refreshed);
  const notYet = (query: Query) => !before.has(query.queryHash);
  const cache = entry.queryClient.getQueryCache();
  const named: Invalidation[] = [];
  const matched: string[] = [];
  for (const invalidation of invalidations) {
    const { queryKey, exact } = invalidation;
    const queries = cache.findAll({ queryKey, exact: exact ?? false, predicate: notYet });
    if (queries.length === 0) continue;
    named.push(invalidation);
    for (const query of queries) matched.push(query.queryHash);
  }
  invalidate(entry, named, ownEcho, notYet);
  for (const hash of matched) refreshed.add(hash);
}

/**
 * Follows which queries are fetched or written from now on, until the channels are first confirmed. A fetch
 * already under way counts as one of them: it is the screen's own, started as it mounted with its channels
 * (a component's effects run before its parent's, so a tab's queries start just before the page's channels
 * are asked for).
 */
function watchFetches(entry: Entry): void {
  const cache = entry.queryClient.getQueryCache();
  const fresh = new Set(
    cache
      .getAll()
      .filter((query) => query.state.fetchStatus === 'fetching')
      .map((query) => query.queryHash),
  );
  entry.freshSinceRequest = fresh;
  entry.stopWatchingFetches = cache.subscribe((event) => {
    if (event.type !== 'updated') return;
    const { action } = event;
    if (action.type === 'fetch' || (action.type === 'success' && action.manual))
      fresh.add(event.query.queryHash);
  });
}

/**
 * The channels are up for the first time: what the party's screens hold from before they were asked for
 * (a page loaded before its channels, a cache kept from an earlier visit) may have missed a change made
 * before the server fed them, so it is asked for again, once. What was fetched after they were asked for
 * is not: events since the subscription took hold reach it through their own invalidations.
 */
function catchUp(entry: Entry): void {
  const fresh = entry.freshSinceRequest;
  entry.stopWatchingFetches();
  entry.freshSinceRequest = null;
  if (!fresh) return;
  const predates = (query: Query) => !fresh.has(query.queryHash) && query.state.data !== undefined;
  const cache = entry.queryClient.getQueryCache();
  const invalidations = resyncInvalidations(entry.partyId).filter(
    ({ queryKey, exact }) =>
      cache.findAll({ queryKey, exact: exact ?? false, predicate: predates }).length > 0,
  );
  invalidate(entry, invalidations, false, predates);
}

function fail(entry: Entry): void {
  if (entry.state.status === 'removed') return;
  setState(entry, { status: 'failed' });
  if (entry.failureShown) return;
  entry.failureShown = true;
  // spec/02 §8: shown for 5 s.
  toast.error(connectFailedMessage, TOAST_ERROR_MS);
}

function watchConnect(entry: Entry): void {
  clearTimeout(entry.connectTimer);
  entry.connectTimer = setTimeout(() => {
    if (entry.confirmed.size < channels.length) fail(entry);
  }, CONNECT_TIMEOUT_MS);
}

function receive(entry: Entry, data: unknown): void {
  const parsed = partyMessageSchema.safeParse(data);
  if (!parsed.success) return;
  const message = parsed.data;
  if (isPresenceAction(message.action) && message.online_users)
    setState(entry, { onlineUsers: message.online_users });
  invalidateChange(entry, invalidationsFor(message, entry.partyId), message.change, message.tab === tabId);
  const notice = noticeFor(message, useAuthStore.getState().user?.id ?? null);
  if (message.action === 'presence_update' && message.change_type === 'snapshot' && message.online_users)
    entry.presence.snapshot(message.online_users);
  else if (message.action === 'presence_changed') entry.presence.changed(message, notice);
  else if (notice) show(entry, notice);
}

/** The Notifications preference (as it is when the notice shows) turns notices off; the data still refreshes. */
function show(entry: Entry, notice: Notice): void {
  if (currentPreferences(entry.queryClient).notificationsEnabled) toast.info(notice.message, notice.duration);
}

/** Subscribe the entry's two channels on a consumer; callbacks of an earlier consumer are ignored from now on. */
function attach(entry: Entry, consumer: Consumer | null): void {
  // The old consumer's subscriptions end with its socket, after the hand-over (lib/cable.ts).
  entry.subscriptions = [];
  entry.consumer = consumer;
  entry.confirmed.clear();
  clearTimeout(entry.connectTimer);
  if (!consumer) {
    setState(entry, { status: 'idle' });
    return;
  }
  if (entry.state.status !== 'removed') setState(entry, { status: 'connecting' });
  const current = () => entry.consumer === consumer && entries.get(entry.partyId) === entry;
  const socket = () => consumer.connection?.webSocket;
  entry.subscriptions = channels.map((channel) =>
    consumer.subscriptions.create(
      { channel, party_id: entry.partyId },
      {
        connected() {
          if (!current()) return;
          if (entry.confirmed.has(channel)) {
            // The client repeats a subscribe every 500 ms until it hears back, and the server confirms each
            // (a slow server confirms twice or more): confirmed again on the same socket, the feed never
            // stopped.
            const now = socket();
            if (now !== undefined && entry.confirmedOn.get(channel) === now) return;
            // Confirmed again on another socket without a drop heard in between: the socket was replaced
            // before the old one's close arrived (the client drops a closing socket's handlers when it
            // reopens, e.g. the network coming back before an offline close finished), so events may have
            // been missed all the same. The other channel went with the old socket: the party is caught up
            // once both are confirmed on the new one.
            entry.missedEvents = true;
            if (now !== undefined)
              for (const other of entry.confirmed)
                if (entry.confirmedOn.get(other) !== now) entry.confirmed.delete(other);
          }
          entry.confirmed.add(channel);
          entry.confirmedOn.set(channel, socket());
          entry.everConfirmed.add(channel);
          if (entry.confirmed.size < channels.length) return;
          clearTimeout(entry.connectTimer);
          entry.failureShown = false;
          setState(entry, { status: 'connected' });
          if (entry.missedEvents) {
            entry.missedEvents = false;
            entry.stopWatchingFetches();
            entry.freshSinceRequest = null;
            invalidate(entry, resyncInvalidations(entry.partyId));
          } else catchUp(entry);
        },
        disconnected({ willAttemptReconnect }: { willAttemptReconnect: boolean | undefined }) {
          if (!current()) return;
          if (entry.confirmed.size > 0) entry.missedEvents = true;
          entry.confirmed.delete(channel);
          if (entry.state.status === 'removed') return;
          if (!willAttemptReconnect) fail(entry);
          else {
            if (entry.state.status === 'connected') setState(entry, { status: 'connecting' });
            // Live updates that were up and dropped (a server restarting, a phone in a tunnel) come back on
            // their own, and the indicator says they are paused meanwhile: the failure notice is for
            // channels that never came up.
            if (entry.everConfirmed.size < channels.length) watchConnect(entry);
            else clearTimeout(entry.connectTimer);
          }
        },
        rejected() {
          if (!current()) return;
          entry.confirmed.delete(channel);
          // A subscription refused after it was confirmed means the member was removed from the party.
          if (entry.everConfirmed.has(channel)) {
            if (entry.state.status !== 'removed') {
              setState(entry, { status: 'removed' });
              if (!entry.leaving) toast.warning(removedFromPartyNotice(cachedPartyName(entry)));
            }
          } else fail(entry);
        },
        received(data: unknown) {
          if (current()) receive(entry, data);
        },
      },
    ),
  );
  watchConnect(entry);
}

function teardown(entry: Entry): void {
  clearTimeout(entry.connectTimer);
  entry.stopWatchingFetches();
  entry.presence.stop();
  entries.delete(entry.partyId);
  if (entry.consumer === getConsumer())
    for (const subscription of entry.subscriptions) subscription.unsubscribe();
  entry.subscriptions = [];
  setState(entry, idleRealtimeState);
}

/**
 * Hold a party's two channels open; shared by every screen of the party, so each event is handled once
 * however many components watch it. Returns the release function.
 */
export function acquirePartyChannels(partyId: string, queryClient: QueryClient): () => void {
  if (!followingConsumer) {
    followingConsumer = true;
    onConsumerChange((consumer) => {
      for (const entry of entries.values()) attach(entry, consumer);
    });
  }
  let entry = entries.get(partyId);
  if (entry) {
    clearTimeout(entry.releaseTimer);
    // Another client's queries share the hashes of this one's, not their fetches.
    if (entry.queryClient !== queryClient) entry.refreshedByChange.clear();
    entry.queryClient = queryClient;
  } else {
    const notices = presenceNotices((notice) => show(created, notice));
    const created: Entry = {
      partyId,
      refs: 0,
      queryClient,
      consumer: null,
      subscriptions: [],
      confirmed: new Set(),
      confirmedOn: new Map(),
      everConfirmed: new Set(),
      freshSinceRequest: null,
      stopWatchingFetches: () => undefined,
      missedEvents: false,
      leaving: false,
      failureShown: false,
      connectTimer: undefined,
      releaseTimer: undefined,
      presence: notices,
      refreshedByChange: new Map(),
      state: idleRealtimeState,
    };
    entry = created;
    entries.set(partyId, entry);
    watchFetches(entry);
    attach(entry, getConsumer());
  }
  entry.refs += 1;
  const held = entry;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    held.refs -= 1;
    if (held.refs > 0) return;
    clearTimeout(held.releaseTimer);
    held.releaseTimer = setTimeout(() => {
      if (held.refs === 0) teardown(held);
    }, RELEASE_GRACE_MS);
  };
}

/**
 * The user is about to leave this party: the server then refuses its channels, which must not read as
 * "You are no longer a member of this party." on top of "You left …". Returns the undo, for a leave that
 * failed. Called before the request, as the refusal may arrive before its answer.
 */
export function expectPartyExit(partyId: string): () => void {
  const entry = entries.get(partyId);
  if (entry) entry.leaving = true;
  return () => {
    if (entry) entry.leaving = false;
  };
}

export function partyRealtimeState(partyId: string): PartyRealtimeState {
  return entries.get(partyId)?.state ?? idleRealtimeState;
}

export function watchPartyRealtime(partyId: string, listener: () => void): () => void {
  const set = watchers.get(partyId) ?? new Set();
  watchers.set(partyId, set);
  set.add(listener);
  return () => {
    set.delete(listener);
    if (set.size === 0) watchers.delete(partyId);
  };
}

/**
 * A loot page opened while the loot was hidden (404 to players) cannot know its party, so it listens for
 * `loot_revealed` naming it on the inventory channel of every party the user belongs to, and refetches it
 * then. Only PartyInventoryChannel: the server counts presence on PartyChannel, so this does not show the
 * user online in parties they are not looking at. Returns the stop function.
 */
export function watchLootReveal(
  partyIds: readonly string[],
  lootId: string,
  queryClient: QueryClient,
): () => void {
  let subscriptions: Subscription[] = [];
  let consumer: Consumer | null = null;
  const subscribe = (next: Consumer | null) => {
    // The old consumer's subscriptions end with its socket, after the hand-over (lib/cable.ts).
    consumer = next;
    if (!next) {
      subscriptions = [];
      return;
    }
    subscriptions = partyIds.map((partyId) =>
      next.subscriptions.create(
        { channel: 'PartyInventoryChannel', party_id: partyId },
        {
          received(data: unknown) {
            const parsed = partyMessageSchema.safeParse(data);
            if (!parsed.success || parsed.data.action !== 'loot_revealed') return;
            if (parsed.data.ids?.loot_instance_id !== lootId) return;
            void queryClient.invalidateQueries({ queryKey: lootKeys.instance(lootId) });
          },
        },
      ),
    );
  };
  subscribe(getConsumer());
  const stopFollowing = onConsumerChange(subscribe);
  return () => {
    stopFollowing();
    if (consumer === getConsumer()) for (const subscription of subscriptions) subscription.unsubscribe();
    subscriptions = [];
  };
}
