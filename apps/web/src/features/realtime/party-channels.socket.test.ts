import { adapters, type Consumer } from '@rails/actioncable';
import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { getConsumer, startCable } from '../../lib/cable';
import { tokenStorage } from '../../lib/token-storage';
import { useAuthStore } from '../../stores/auth-store';
import { FakeSocket } from '../../test/fake-socket';
import { buildTokens, buildUser } from '../../test/fixtures';
import { partyKeys } from '../parties/api/parties-api';
import { acquirePartyChannels, partyRealtimeState } from './party-channels';

// The official client over a stand-in socket, the test playing the server: what the page's queries see
// when the channels are confirmed (party-channels.test.tsx plays the client's callbacks directly).

/** A query on screen (the party's detail unless told) whose answers the test gives, one fetch at a time. */
function partyOnScreen(
  queryClient: QueryClient,
  partyId: string,
  queryKey: readonly unknown[] = partyKeys.detail(partyId),
  staleTime = 5 * 60_000,
) {
  const fetches: { resolve(name: string): void; signal: AbortSignal }[] = [];
  const observer = new QueryObserver(queryClient, {
    queryKey,
    queryFn: ({ signal }) =>
      new Promise<{ name: string }>((resolve) => {
        fetches.push({ resolve: (name) => resolve({ name }), signal });
      }),
    staleTime,
  });
  const unsubscribe = observer.subscribe(() => undefined);
  return { fetches, observer, unsubscribe };
}

let stopCable: (() => void) | undefined;
let release: (() => void) | undefined;
const realWebSocket = adapters.WebSocket;

beforeEach(() => {
  vi.useFakeTimers();
  adapters.WebSocket = FakeSocket as unknown as typeof WebSocket;
  stopCable = startCable();
  tokenStorage.setTokens(buildTokens());
  useAuthStore.setState({ isAuthenticated: true, isInitializing: false, user: buildUser() });
});

afterEach(() => {
  release?.();
  release = undefined;
  // The channels outlive their last user for a grace period.
  vi.advanceTimersByTime(5_000);
  tokenStorage.clear();
  useAuthStore.setState({ isAuthenticated: false, user: null });
  stopCable?.();
  adapters.WebSocket = realWebSocket;
  FakeSocket.opened = [];
  vi.useRealTimers();
});

function consumerNow(): Consumer {
  const consumer = getConsumer();
  if (!consumer) throw new Error('expected a consumer');
  return consumer;
}

/** The socket the consumer opens (as it does for the first subscription of a page). */
function openSocket(): FakeSocket {
  consumerNow().ensureActiveConnection();
  return socketNow();
}

function socketNow(): FakeSocket {
  const socket = FakeSocket.opened.at(-1);
  if (!socket) throw new Error('expected a socket');
  return socket;
}

/** The server welcomes the socket, without confirming anything yet. */
function welcome(socket: FakeSocket) {
  socket.readyState = FakeSocket.OPEN;
  socket.onopen?.();
  socket.receive({ type: 'welcome' });
}

/** The server confirms every subscribe sent so far on the socket (each repeat too, as it does). */
function confirmEverySubscribe(socket: FakeSocket) {
  for (const command of socket.sent.splice(0))
    if (command.command === 'subscribe')
      socket.receive({ type: 'confirm_subscription', identifier: command.identifier });
}

const identifier = (channel: string, partyId: string) => JSON.stringify({ channel, party_id: partyId });

describe('party channels confirmed on a real consumer', () => {
  it('does not fetch again when a slow server confirms the client’s repeated subscribe', async () => {
    const socket = openSocket();
    const queryClient = new QueryClient();
    release = acquirePartyChannels('p-echo', queryClient);
    const party = partyOnScreen(queryClient, 'p-echo');
    expect(party.fetches).toHaveLength(1);
    welcome(socket);
    // The page has its party before the server answers the channels' asks.
    party.fetches[0]?.resolve('The Copper Lanterns');
    await vi.advanceTimersByTimeAsync(0);

    // No answer within 500 ms: the client asks again, and the server confirms each ask.
    await vi.advanceTimersByTimeAsync(600);
    // Each of the party's two channels asked at least twice (another file's channels, alive in the shared
    // worker's consumer, may ask on this socket too: only this party's asks are counted).
    const asks = socket.sent.filter(
      (c) => c.command === 'subscribe' && String(c.identifier).includes('"party_id":"p-echo"'),
    );
    expect(asks.length).toBeGreaterThanOrEqual(4);
    confirmEverySubscribe(socket);
    expect(partyRealtimeState('p-echo').status).toBe('connected');
    await vi.advanceTimersByTimeAsync(0);

    expect(party.fetches).toHaveLength(1);
    expect(party.observer.getCurrentResult().data).toEqual({ name: 'The Copper Lanterns' });
    party.unsubscribe();
  });

  it('shows a change told between the fetch’s start and the confirmation', async () => {
    const socket = openSocket();
    const queryClient = new QueryClient();
    release = acquirePartyChannels('p-between', queryClient);
    const party = partyOnScreen(queryClient, 'p-between');

    welcome(socket);
    vi.advanceTimersByTime(600);
    // The server took the first asks and fed the party from then: a rename is told before its
    // confirmations of the repeated asks arrive.
    const sent = socket.sent.splice(0);
    for (const command of sent.slice(0, 2))
      socket.receive({ type: 'confirm_subscription', identifier: command.identifier });
    socket.receive({
      identifier: identifier('PartyChannel', 'p-between'),
      message: { action: 'party_updated', actor: { id: 'user-gm', name: 'Mira' } },
    });
    for (const command of sent.slice(2))
      socket.receive({ type: 'confirm_subscription', identifier: command.identifier });

    // The first answer may predate the rename: it is asked again, and the screen shows the second.
    await vi.advanceTimersByTimeAsync(0);
    expect(party.fetches[0]?.signal.aborted).toBe(true);
    expect(party.fetches).toHaveLength(2);
    party.fetches[0]?.resolve('Old name');
    party.fetches[1]?.resolve('New name');
    await vi.advanceTimersByTimeAsync(0);
    expect(party.observer.getCurrentResult().data).toEqual({ name: 'New name' });
    party.unsubscribe();
  });

  it('catches up once on data fetched before the channels were asked for, not on data fetched after', async () => {
    const queryClient = new QueryClient();
    // The party was loaded on an earlier visit and is still fresh in the cache.
    queryClient.setQueryData(partyKeys.detail('p-cached'), { name: 'Old name' });
    vi.advanceTimersByTime(60_000);
    const socket = openSocket();
    welcome(socket);
    // A tab mounts just before its page asks for the channels (child effects run first): its notes, kept
    // from the earlier visit too, are being asked for again as the channels are asked for.
    queryClient.setQueryData(partyKeys.notes('p-cached'), { name: 'Old notes' });
    const notes = partyOnScreen(queryClient, 'p-cached', partyKeys.notes('p-cached'), 0);
    release = acquirePartyChannels('p-cached', queryClient);
    const party = partyOnScreen(queryClient, 'p-cached');
    // Fresh: the page shows it without asking.
    expect(party.fetches).toHaveLength(0);
    // Its members are asked for, and answered, after the channels were asked for.
    const members = partyOnScreen(queryClient, 'p-cached', partyKeys.members('p-cached'));
    members.fetches[0]?.resolve('members');
    await vi.advanceTimersByTimeAsync(50);

    confirmEverySubscribe(socket);
    expect(partyRealtimeState('p-cached').status).toBe('connected');
    await vi.advanceTimersByTimeAsync(0);
    // What may have changed while nobody listened is asked for once; nothing else.
    expect(party.fetches).toHaveLength(1);
    party.fetches[0]?.resolve('New name');
    await vi.advanceTimersByTimeAsync(0);
    expect(party.observer.getCurrentResult().data).toEqual({ name: 'New name' });
    expect(members.fetches).toHaveLength(1);
    expect(notes.fetches).toHaveLength(1);
    expect(notes.fetches[0]?.signal.aborted).toBe(false);
    for (const query of [party, members, notes]) query.unsubscribe();
  });

  it('refetches when its channels are confirmed on a new socket whose old one never reported closing', async () => {
    const consumer = consumerNow();
    const first = openSocket();
    const queryClient = new QueryClient();
    release = acquirePartyChannels('p-new-socket', queryClient);
    const party = partyOnScreen(queryClient, 'p-new-socket');
    welcome(first);
    confirmEverySubscribe(first);
    party.fetches[0]?.resolve('The Copper Lanterns');
    await vi.advanceTimersByTimeAsync(0);
    expect(party.fetches).toHaveLength(1);

    // Offline, the socket was closing when the network came back: the client opens a new one and drops
    // the old one's handlers, so no disconnection is reported before the new confirmations.
    first.readyState = FakeSocket.CLOSING;
    consumer.connection.open();
    const second = socketNow();
    expect(second).not.toBe(first);
    welcome(second);
    confirmEverySubscribe(second);
    expect(party.fetches).toHaveLength(2);
    party.unsubscribe();
  });
});
