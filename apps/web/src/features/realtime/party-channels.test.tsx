import { defaultPreferences } from '@haversack/contracts';
import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { tabId } from '../../lib/tab-id';
import { toast } from '../../lib/toast';
import { useAuthStore } from '../../stores/auth-store';
import { buildUser, failure, mockFetch, success } from '../../test/fixtures';
import { buildCharacter, buildParty } from '../../test/party-fixtures';
import { renderRoutes } from '../../test/render';
import { transactionsQuery } from '../activity/api/transactions-api';
import { characterKeys } from '../characters/api/characters-api';
import { characterWealthQuery, wealthKeys } from '../characters/api/wealth-api';
import { buildCharacterWealth } from '../characters/test/wealth-fixtures';
import { inventoryKeys, ownerContainersQuery } from '../inventory/api/inventory-api';
import { partyKeys } from '../parties/api/parties-api';
import { preferencesKeys } from '../preferences/api/preferences-api';
import { usePartyChannels } from './hooks/use-party-channels';
import {
  acquirePartyChannels,
  CONNECT_TIMEOUT_MS,
  connectFailedMessage,
  expectPartyExit,
  partyRealtimeState,
  removedFromPartyMessage,
} from './party-channels';
import { PRESENCE_LEFT_GRACE_MS } from './presence-notices';

interface FakeSubscription {
  params: { channel: string; party_id: string };
  callbacks: {
    connected(arg: { reconnected: boolean }): void;
    disconnected(arg: { willAttemptReconnect: boolean | undefined }): void;
    rejected(): void;
    received(data: unknown): void;
  };
  unsubscribe: ReturnType<typeof vi.fn>;
}

// The socket is the server's business (tested there with the official client); here a stand-in consumer
// records the subscriptions so that the test can play the server's answers.
const fake = vi.hoisted(() => ({ subscriptions: [] as FakeSubscription[] }));
vi.mock('../../lib/cable', () => ({
  getConsumer: () => ({
    subscriptions: {
      create: (params: FakeSubscription['params'], callbacks: FakeSubscription['callbacks']) => {
        const subscription = { params, callbacks, unsubscribe: vi.fn() };
        fake.subscriptions.push(subscription);
        return subscription;
      },
    },
  }),
  onConsumerChange: () => () => undefined,
}));

const channel = (partyId: string, name: string) => {
  const found = fake.subscriptions.find((s) => s.params.party_id === partyId && s.params.channel === name);
  if (!found) throw new Error(`no ${name} subscription for ${partyId}`);
  return found.callbacks;
};
const confirmBoth = (partyId: string) => {
  channel(partyId, 'PartyChannel').connected({ reconnected: false });
  channel(partyId, 'PartyInventoryChannel').connected({ reconnected: false });
};

let release: () => void = () => undefined;
beforeEach(() => {
  fake.subscriptions = [];
  useAuthStore.setState({ isAuthenticated: true, user: buildUser({ id: 'user-me' }) });
});
afterEach(() => release());

describe('party channels', () => {
  it('subscribes both channels, invalidates on events and tells me only about other people', () => {
    const queryClient = new QueryClient();
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
    const info = vi.spyOn(toast, 'info');
    release = acquirePartyChannels('p-events', queryClient);
    expect(fake.subscriptions.map((s) => s.params)).toEqual([
      { channel: 'PartyChannel', party_id: 'p-events' },
      { channel: 'PartyInventoryChannel', party_id: 'p-events' },
    ]);
    expect(partyRealtimeState('p-events').status).toBe('connecting');
    confirmBoth('p-events');
    expect(partyRealtimeState('p-events').status).toBe('connected');

    const inventory = channel('p-events', 'PartyInventoryChannel');
    const party = channel('p-events', 'PartyChannel');
    const pip = { id: 'user-pip', name: 'Pip' };
    inventory.received({ action: 'item_added', actor: pip, ids: { destination_container_id: 'c-1' } });
    expect(invalidate).toHaveBeenCalledWith({ queryKey: inventoryKeys.container('c-1'), exact: false });
    // Issue 14: the row refreshes; PartyChannel's one summary of the change tells.
    expect(info).not.toHaveBeenCalled();
    party.received({ action: 'inventory_updated', actor: pip, ids: { character_id: null } });
    expect(info).toHaveBeenCalledWith('Pip updated inventory', 3_000);
    expect(info).toHaveBeenCalledTimes(1);

    info.mockClear();
    party.received({ action: 'inventory_updated', actor: { id: 'user-me', name: 'Me' }, ids: {} });
    expect(info).not.toHaveBeenCalled();

    party.received({ action: 'notes_updated', actor: pip });
    expect(invalidate).toHaveBeenCalledWith({ queryKey: partyKeys.notes('p-events'), exact: false });
    expect(info).not.toHaveBeenCalled();

    inventory.received({
      action: 'presence_update',
      change_type: 'snapshot',
      online_users: [{ id: 'user-pip', username: 'Pip' }],
    });
    expect(partyRealtimeState('p-events').onlineUsers).toEqual([{ id: 'user-pip', username: 'Pip' }]);
  });

  it('says where a change came from, in the words of spec/02 §8', () => {
    const queryClient = new QueryClient();
    const info = vi.spyOn(toast, 'info');
    release = acquirePartyChannels('p-sources', queryClient);
    confirmBoth('p-sources');
    const party = channel('p-sources', 'PartyChannel');
    const pip = { id: 'user-pip', name: 'Pip' };
    const expected = [
      ['web', 'Pip updated inventory'],
      ['discord', 'Pip updated inventory via Discord'],
      ['api', 'Pip updated inventory via API'],
      ['admin', 'Admin Pip updated inventory'],
    ] as const;
    for (const [source, notice] of expected) {
      info.mockClear();
      party.received({ action: 'inventory_updated', actor: pip, ids: {}, source });
      expect(info, source).toHaveBeenCalledWith(notice, 3_000);
    }
  });

  it('keeps the notices quiet when the Notifications preference is off, and still refreshes', () => {
    const queryClient = new QueryClient();
    queryClient.setQueryData(preferencesKeys.all, { ...defaultPreferences, notificationsEnabled: false });
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
    const info = vi.spyOn(toast, 'info');
    release = acquirePartyChannels('p-quiet', queryClient);
    confirmBoth('p-quiet');
    const change = {
      action: 'inventory_updated',
      actor: { id: 'user-pip', name: 'Pip' },
      ids: { character_id: 'ch-1' },
    };
    channel('p-quiet', 'PartyChannel').received(change);
    expect(invalidate).toHaveBeenCalledWith({
      queryKey: inventoryKeys.owner({ type: 'character', id: 'ch-1' }),
      exact: false,
    });
    expect(info).not.toHaveBeenCalled();

    queryClient.setQueryData(preferencesKeys.all, { ...defaultPreferences, notificationsEnabled: true });
    channel('p-quiet', 'PartyChannel').received(change);
    expect(info).toHaveBeenCalledWith('Pip updated inventory', 3_000);
  });

  it('says "Failed to connect to real-time updates" for 5 s when the channels are not confirmed in time', () => {
    vi.useFakeTimers();
    const error = vi.spyOn(toast, 'error');
    release = acquirePartyChannels('p-slow', new QueryClient());
    vi.advanceTimersByTime(CONNECT_TIMEOUT_MS - 1);
    expect(error).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(error).toHaveBeenCalledWith(connectFailedMessage, 5_000);
    expect(partyRealtimeState('p-slow').status).toBe('failed');
  });

  it('waits quietly for channels that dropped after being up, and refetches when they are back', () => {
    vi.useFakeTimers();
    const error = vi.spyOn(toast, 'error');
    const queryClient = new QueryClient();
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
    release = acquirePartyChannels('p-restart', queryClient);
    confirmBoth('p-restart');
    // The server restarts: both channels drop, and the client will reconnect.
    channel('p-restart', 'PartyChannel').disconnected({ willAttemptReconnect: true });
    channel('p-restart', 'PartyInventoryChannel').disconnected({ willAttemptReconnect: true });
    expect(partyRealtimeState('p-restart').status).toBe('connecting');
    vi.advanceTimersByTime(CONNECT_TIMEOUT_MS * 3);
    expect(error).not.toHaveBeenCalled();
    expect(partyRealtimeState('p-restart').status).toBe('connecting');
    confirmBoth('p-restart');
    expect(partyRealtimeState('p-restart').status).toBe('connected');
    expect(invalidate).toHaveBeenCalledWith({ queryKey: inventoryKeys.all, exact: false });
  });

  it('refetches when its channels are confirmed again on a new socket whose drop it never heard', () => {
    const queryClient = new QueryClient();
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
    release = acquirePartyChannels('p-reopened', queryClient);
    confirmBoth('p-reopened');
    expect(invalidate).not.toHaveBeenCalled();
    // Offline, the socket was closing when the network came back: the client opened a new one and dropped
    // the old one's handlers, so no disconnection was reported before the new confirmations.
    confirmBoth('p-reopened');
    expect(partyRealtimeState('p-reopened').status).toBe('connected');
    expect(invalidate).toHaveBeenCalledWith({ queryKey: inventoryKeys.all, exact: false });
  });

  it('treats a refusal before confirmation as a failure, and one after it as removal from the party', () => {
    const error = vi.spyOn(toast, 'error');
    const warning = vi.spyOn(toast, 'warning');
    release = acquirePartyChannels('p-refused', new QueryClient());
    channel('p-refused', 'PartyChannel').rejected();
    expect(error).toHaveBeenCalledWith(connectFailedMessage, 5_000);
    expect(partyRealtimeState('p-refused').status).toBe('failed');
    release();

    const releaseRemoved = acquirePartyChannels('p-removed', new QueryClient());
    confirmBoth('p-removed');
    channel('p-removed', 'PartyChannel').rejected();
    channel('p-removed', 'PartyInventoryChannel').rejected();
    expect(partyRealtimeState('p-removed').status).toBe('removed');
    expect(warning).toHaveBeenCalledTimes(1);
    expect(warning).toHaveBeenCalledWith(removedFromPartyMessage);
    expect(error).toHaveBeenCalledTimes(1);
    release = releaseRemoved;
  });

  it('names the party in the removal notice, for a player in several parties', () => {
    const warning = vi.spyOn(toast, 'warning');
    const queryClient = new QueryClient();
    queryClient.setQueryData(
      partyKeys.detail('p-named'),
      buildParty({ id: 'p-named', name: 'Friday Night Crew' }),
    );
    release = acquirePartyChannels('p-named', queryClient);
    confirmBoth('p-named');
    channel('p-named', 'PartyChannel').rejected();
    expect(warning).toHaveBeenCalledWith('You are no longer a member of Friday Night Crew.');
  });

  it('names the party from the character on screen when the party itself is not loaded', () => {
    const warning = vi.spyOn(toast, 'warning');
    const queryClient = new QueryClient();
    queryClient.setQueryData(
      characterKeys.detail('c-1'),
      buildCharacter({ id: 'c-1', party_id: 'p-char', party_name: 'Lantern Watch' }),
    );
    release = acquirePartyChannels('p-char', queryClient);
    confirmBoth('p-char');
    channel('p-char', 'PartyChannel').rejected();
    expect(warning).toHaveBeenCalledWith('You are no longer a member of Lantern Watch.');
  });

  it('says nothing of the refusal when the user left the party themselves', () => {
    const warning = vi.spyOn(toast, 'warning');
    release = acquirePartyChannels('p-left', new QueryClient());
    confirmBoth('p-left');
    expectPartyExit('p-left');
    channel('p-left', 'PartyChannel').rejected();
    channel('p-left', 'PartyInventoryChannel').rejected();
    expect(partyRealtimeState('p-left').status).toBe('removed');
    expect(warning).not.toHaveBeenCalled();
    release();

    // A leave that failed is undone: a removal by the GM afterwards is news again.
    release = acquirePartyChannels('p-stayed', new QueryClient());
    confirmBoth('p-stayed');
    expectPartyExit('p-stayed')();
    channel('p-stayed', 'PartyChannel').rejected();
    expect(warning).toHaveBeenCalledWith(removedFromPartyMessage);
  });
});

describe('presence notices', () => {
  const pip = { id: 'user-pip', username: 'Pip' };
  const cara = { id: 'user-cara', username: 'Cara' };
  const me = { id: 'user-me', username: 'Me' };
  const change = (change_type: 'joined' | 'left', who: typeof pip, online: (typeof pip)[]) => ({
    action: 'presence_changed',
    change_type,
    user_id: who.id,
    actor: { id: who.id, name: who.username },
    online_users: online,
  });
  const open = (partyId: string, online: (typeof pip)[]) => {
    release = acquirePartyChannels(partyId, new QueryClient());
    confirmBoth(partyId);
    channel(partyId, 'PartyInventoryChannel').received({
      action: 'presence_update',
      change_type: 'snapshot',
      online_users: online,
    });
    return channel(partyId, 'PartyChannel');
  };

  it('says nothing when a member moves between pages and comes back within the grace', () => {
    vi.useFakeTimers();
    const info = vi.spyOn(toast, 'info');
    const party = open('p-move', [me, pip]);
    party.received(change('left', pip, [me]));
    vi.advanceTimersByTime(PRESENCE_LEFT_GRACE_MS - 1);
    party.received(change('joined', pip, [me, pip]));
    vi.advanceTimersByTime(PRESENCE_LEFT_GRACE_MS * 2);
    expect(info).not.toHaveBeenCalled();
    // The avatars follow the server at once all the same.
    expect(partyRealtimeState('p-move').onlineUsers).toEqual([me, pip]);
  });

  it('announces a real departure once the grace is over', () => {
    vi.useFakeTimers();
    const info = vi.spyOn(toast, 'info');
    const party = open('p-gone', [me, pip]);
    party.received(change('left', pip, [me]));
    expect(partyRealtimeState('p-gone').onlineUsers).toEqual([me]);
    vi.advanceTimersByTime(PRESENCE_LEFT_GRACE_MS - 1);
    expect(info).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(info).toHaveBeenCalledWith('Pip left the party', 2_000);
    // Back later: a real arrival, told.
    party.received(change('joined', pip, [me, pip]));
    expect(info).toHaveBeenLastCalledWith('Pip joined the party', 2_000);
    expect(info).toHaveBeenCalledTimes(2);
  });

  it('announces a real arrival at once, but not one of someone already counted present', () => {
    vi.useFakeTimers();
    const info = vi.spyOn(toast, 'info');
    const party = open('p-arrive', [me, pip]);
    party.received(change('joined', cara, [me, pip, cara]));
    expect(info).toHaveBeenCalledWith('Cara joined the party', 2_000);
    info.mockClear();
    // A server that restarted counts everyone anew: Pip never left for this screen.
    party.received(change('joined', pip, [me, pip, cara]));
    vi.advanceTimersByTime(PRESENCE_LEFT_GRACE_MS * 2);
    expect(info).not.toHaveBeenCalled();
  });

  it('drops a departure still in its grace when the party’s screens close', () => {
    vi.useFakeTimers();
    const info = vi.spyOn(toast, 'info');
    const party = open('p-closed', [me, pip]);
    party.received(change('left', pip, [me]));
    release();
    vi.advanceTimersByTime(PRESENCE_LEFT_GRACE_MS * 2);
    expect(info).not.toHaveBeenCalled();
  });
});

describe('the echo of this tab’s own change', () => {
  it('joins the fetch its change started instead of starting over; another tab’s change refetches anew', async () => {
    const queryClient = new QueryClient();
    release = acquirePartyChannels('p-echo', queryClient);
    confirmBoth('p-echo');
    const inventory = channel('p-echo', 'PartyInventoryChannel');
    const me = { id: 'user-me', name: 'Me' };
    let fetches = 0;
    const answers: (() => void)[] = [];
    // On screen with what it held, and being fetched again (as the change's own settling does).
    queryClient.setQueryData(inventoryKeys.container('c-echo'), 'items before');
    const observer = new QueryObserver(queryClient, {
      queryKey: inventoryKeys.container('c-echo'),
      queryFn: () => {
        fetches += 1;
        return new Promise<string>((resolve) => answers.push(() => resolve(`items ${fetches}`)));
      },
    });
    const unobserve = observer.subscribe(() => undefined);
    expect(fetches).toBe(1);

    inventory.received({
      action: 'item_added',
      actor: me,
      ids: { destination_container_id: 'c-echo' },
      tab: tabId,
    });
    // Given its time, the invalidation still left the fetch under way alone.
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(fetches).toBe(1);

    inventory.received({
      action: 'item_added',
      actor: me,
      ids: { destination_container_id: 'c-echo' },
      tab: 'tab_another0000',
    });
    await waitFor(() => expect(fetches).toBe(2));
    for (const answer of answers) answer();
    unobserve();
  });
});

describe('usePartyChannels on removal from the party', () => {
  // A party of its own for each test: a party's channels outlive their screen for a moment.
  function Screen({ partyId, stays }: { partyId: string; stays: boolean }) {
    usePartyChannels(partyId, { staysOnRemoval: stays });
    return <p>My character</p>;
  }
  const routes = (partyId: string, stays: boolean) => [
    { path: '/', element: <Screen partyId={partyId} stays={stays} /> },
    { path: '/parties', element: <p>My Parties</p> },
  ];
  const remove = (partyId: string) =>
    act(() => {
      confirmBoth(partyId);
      channel(partyId, 'PartyChannel').rejected();
    });

  it('sends the member back to /parties from a screen of the party', async () => {
    const view = renderRoutes(routes('p-page-leave', false), '/');
    remove('p-page-leave');
    await waitFor(() => expect(view.router.state.location.pathname).toBe('/parties'));
    view.unmount();
  });

  it('keeps them on a screen of their own character, which leaves the party with them', async () => {
    const view = renderRoutes(routes('p-page-stay', true), '/');
    const invalidate = vi.spyOn(view.queryClient, 'invalidateQueries');
    remove('p-page-stay');
    await waitFor(() => expect(invalidate).toHaveBeenCalledWith({ queryKey: characterKeys.all }));
    expect(view.router.state.location.pathname).toBe('/');
    expect(screen.getByText('My character')).toBeInTheDocument();
    view.unmount();
  });
});

describe('the messages of one change', () => {
  const giver = 'ch-giver';
  const receiver = 'ch-receiver';
  const pip = { id: 'user-pip', name: 'Pip' };
  const ledgerFilters = { range: 'all', type: 'all', page: 1, perPage: 20 } as const;

  /**
   * Pip gives the receiver a rope, as the server tells it in one publish: the inventory channel's row, then
   * PartyChannel's `party_activity` and `inventory_updated` (realtime/event-bus.ts), each with the change's id.
   */
  function gift(partyId: string, change?: string) {
    const stamp = change ? { change } : {};
    const moved = {
      action: 'item_moved',
      party_id: partyId,
      actor: pip,
      summary: 'Pip gave 1 × Rope to Brom',
      ids: {
        source_container_id: 'c-giver-pack',
        destination_container_id: 'c-receiver-pack',
        character_id: giver,
        target_id: receiver,
        recipient_character_id: receiver,
      },
      ...stamp,
    };
    const activity = {
      action: 'party_activity',
      party_id: partyId,
      actor: pip,
      summary: moved.summary,
      ids: { character_id: giver, target_id: receiver },
      ...stamp,
    };
    const summary = {
      action: 'inventory_updated',
      party_id: partyId,
      actor: pip,
      summary: moved.summary,
      ids: { character_id: giver, recipient_character_id: receiver },
      ...stamp,
    };
    return { moved, activity, summary };
  }

  /**
   * A page watching the party, loaded: both characters' containers (one GET containers/by_owner), the
   * receiver's wealth and the party's ledger. Counts the reads made from then on, by path.
   */
  async function watchingPage(partyId: string) {
    const reads = mockFetch(({ url }) => {
      const { pathname } = new URL(url, 'http://test');
      if (pathname.endsWith('/containers')) return success([]);
      if (pathname === `/api/v1/characters/${receiver}/wealth`)
        return success(buildCharacterWealth({ character_id: receiver }));
      if (pathname === `/api/v1/transactions/party/${partyId}`) return success({ transactions: [] });
      return failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${pathname}`);
    });
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    release = acquirePartyChannels(partyId, queryClient);
    confirmBoth(partyId);
    const observers = [
      new QueryObserver(queryClient, ownerContainersQuery({ type: 'character', id: giver })),
      new QueryObserver(queryClient, ownerContainersQuery({ type: 'character', id: receiver })),
      new QueryObserver(queryClient, characterWealthQuery(receiver)),
      new QueryObserver(queryClient, transactionsQuery({ kind: 'party', id: partyId }, ledgerFilters)),
    ];
    const stops = observers.map((observer) => observer.subscribe(() => undefined));
    await waitFor(
      () => expect(observers.map((o) => o.getCurrentResult().status)).toEqual(Array(4).fill('success')),
      {
        timeout: 5_000,
      },
    );
    reads.mockClear();
    const readsOf = () => {
      const counts: Record<string, number> = {};
      for (const [input] of reads.mock.calls) {
        const { pathname } = new URL(String(input), 'http://test');
        counts[pathname] = (counts[pathname] ?? 0) + 1;
      }
      return counts;
    };
    /** Waits until the page has read again what the messages made stale. */
    const settled = async () => {
      await new Promise((resolve) => setTimeout(resolve, 30));
      await waitFor(() => expect(queryClient.isFetching()).toBe(0), { timeout: 5_000 });
    };
    unwatch.push(...stops);
    return { readsOf, settled };
  }

  const unwatch: (() => void)[] = [];
  afterEach(() => {
    for (const stop of unwatch.splice(0)) stop();
  });

  /**
   * The messages reach the page one socket frame at a time, each its own task (as the browser dispatches
   * them): what one message started, a batch of container lists included, is under way at the next.
   */
  async function tell(partyId: string, ...messages: { action: string }[]) {
    for (const message of messages) {
      const name = message.action === 'item_moved' ? 'PartyInventoryChannel' : 'PartyChannel';
      channel(partyId, name).received(message);
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
  }

  const once = (partyId: string) => ({
    '/api/v1/containers/by_owner': 1,
    [`/api/v1/characters/${receiver}/wealth`]: 1,
    [`/api/v1/transactions/party/${partyId}`]: 1,
  });

  it('reads each thing one change changed once, however many messages tell it', async () => {
    const page = await watchingPage('p-one-change');
    const { moved, activity, summary } = gift('p-one-change', 'chg-1');
    await tell('p-one-change', moved, activity, summary);
    await page.settled();
    expect(page.readsOf()).toEqual(once('p-one-change'));
  });

  it('still reads what only a later message of the change names, whatever order they come in', async () => {
    const page = await watchingPage('p-reordered');
    const { moved, activity, summary } = gift('p-reordered', 'chg-2');
    // Two streams through Redis may arrive in either order: the ledger is named first by the last message.
    await tell('p-reordered', summary, moved, activity);
    await page.settled();
    expect(page.readsOf()).toEqual(once('p-reordered'));
  });

  it('still cancels and asks again for a first load under way when a change arrives, once', async () => {
    const queryClient = new QueryClient();
    release = acquirePartyChannels('p-first-load', queryClient);
    confirmBoth('p-first-load');
    const fetches: { resolve(wealth: string): void; signal: AbortSignal }[] = [];
    const observer = new QueryObserver(queryClient, {
      queryKey: wealthKeys.character(receiver),
      queryFn: ({ signal }) => new Promise<string>((resolve) => fetches.push({ resolve, signal })),
    });
    unwatch.push(observer.subscribe(() => undefined));
    expect(fetches).toHaveLength(1);

    const { moved, summary } = gift('p-first-load', 'chg-5');
    await tell('p-first-load', moved, summary);
    // The first answer may have been read before the change: asked again, and only once for the change.
    await waitFor(() => expect(fetches).toHaveLength(2), { timeout: 5_000 });
    expect(fetches[0]?.signal.aborted).toBe(true);
    fetches[1]?.resolve('after the gift');
    await waitFor(() => expect(observer.getCurrentResult().data).toBe('after the gift'), { timeout: 5_000 });
    expect(fetches).toHaveLength(2);
  });

  it('reads again for another change, and for messages without a change id as before', async () => {
    const page = await watchingPage('p-two-changes');
    const first = gift('p-two-changes', 'chg-3');
    const second = gift('p-two-changes', 'chg-4');
    await tell('p-two-changes', first.moved, second.summary);
    await page.settled();
    expect(page.readsOf()).toEqual({
      '/api/v1/containers/by_owner': 2,
      [`/api/v1/characters/${receiver}/wealth`]: 2,
      '/api/v1/transactions/party/p-two-changes': 1,
    });

    // An older server stamps nothing: every message refreshes what it names, as it always did.
    const unstamped = gift('p-two-changes');
    await tell('p-two-changes', unstamped.moved, unstamped.activity, unstamped.summary);
    await page.settled();
    expect(page.readsOf()).toEqual({
      '/api/v1/containers/by_owner': 4,
      [`/api/v1/characters/${receiver}/wealth`]: 4,
      '/api/v1/transactions/party/p-two-changes': 3,
    });
  });
});
