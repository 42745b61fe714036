import { adapters, type Consumer } from '@rails/actioncable';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useAuthStore } from '../stores/auth-store';
import { useUiStore } from '../stores/ui-store';
import { FakeSocket } from '../test/fake-socket';
import { buildTokens, buildUser, failure, mockFetch, success } from '../test/fixtures';
import {
  CABLE_HANDOVER_MS,
  cableNeedsFreshToken,
  getConsumer,
  onCableReconnect,
  onConsumerChange,
  QUICK_RECONNECT_DELAYS_MS,
  startCable,
} from './cable';
import { refreshIfExpiring, signOut } from './session';
import { onSessionExpired } from './session-events';
import { tokenStorage } from './token-storage';

function consumerNow(): Consumer {
  const consumer = getConsumer();
  if (!consumer) throw new Error('expected a consumer');
  return consumer;
}

const signIn = () =>
  useAuthStore.setState({ isAuthenticated: true, isInitializing: false, user: buildUser() });

let stop: (() => void) | undefined;
afterEach(() => {
  tokenStorage.clear();
  useAuthStore.setState({ isAuthenticated: false, user: null });
  stop?.();
});

describe('the real-time consumer (spec/01 §4)', () => {
  it('exists only when signed in with a token, and carries that token', () => {
    stop = startCable();
    expect(getConsumer()).toBeNull();
    tokenStorage.setTokens(buildTokens({ token: 'access-1' }));
    // A token alone (start-up still checking it) is not a session yet.
    expect(getConsumer()).toBeNull();
    signIn();
    expect(getConsumer()?.url).toMatch(/^ws:\/\/.*\/cable\?token=access-1$/);
  });

  it('is rebuilt with the fresh token after a refresh, the old one closing after the hand-over', () => {
    vi.useFakeTimers();
    stop = startCable();
    tokenStorage.setTokens(buildTokens({ token: 'access-1' }));
    signIn();
    const first = consumerNow();
    const closeFirst = vi.spyOn(first, 'disconnect');
    const seen: (Consumer | null)[] = [];
    const unwatch = onConsumerChange((consumer) => seen.push(consumer));

    tokenStorage.setTokens(buildTokens({ token: 'access-2' }));
    const second = getConsumer();
    expect(second).not.toBe(first);
    expect(second?.url).toMatch(/token=access-2$/);
    expect(seen).toEqual([second]);
    expect(closeFirst).not.toHaveBeenCalled();
    vi.advanceTimersByTime(CABLE_HANDOVER_MS);
    expect(closeFirst).toHaveBeenCalled();
    unwatch();
  });

  it('is dropped and closed at once on logout', () => {
    stop = startCable();
    tokenStorage.setTokens(buildTokens());
    signIn();
    const consumer = consumerNow();
    const close = vi.spyOn(consumer, 'disconnect');
    tokenStorage.clear();
    expect(getConsumer()).toBeNull();
    expect(close).toHaveBeenCalled();
  });

  it('follows a token written by another tab', () => {
    stop = startCable();
    tokenStorage.setTokens(buildTokens({ token: 'access-1' }));
    signIn();
    window.localStorage.setItem('auth_token', 'from-other-tab');
    window.dispatchEvent(new StorageEvent('storage', { key: 'auth_token' }));
    expect(getConsumer()?.url).toMatch(/token=from-other-tab$/);
  });
});

describe('a socket the server refuses as unauthorized', () => {
  const realWebSocket = adapters.WebSocket;
  afterEach(() => {
    adapters.WebSocket = realWebSocket;
    FakeSocket.opened = [];
  });

  /** Signed in with access-1 and one live subscription; returns its disconnected calls. */
  function connected() {
    adapters.WebSocket = FakeSocket as unknown as typeof WebSocket;
    stop = startCable();
    tokenStorage.setTokens(buildTokens({ token: 'access-1', refresh_token: 'refresh-1' }));
    signIn();
    const disconnected = vi.fn();
    consumerNow().subscriptions.create({ channel: 'PartyChannel', party_id: 'party-1' }, { disconnected });
    const socket = FakeSocket.opened.at(-1);
    if (!socket) throw new Error('expected a socket');
    socket.accept();
    return { socket, disconnected };
  }

  const socketsFor = (token: string) => FakeSocket.opened.filter((s) => s.url.endsWith(`token=${token}`));

  it.each([false, true])(
    'refreshes and moves to a consumer with the fresh token (reconnect: %s)',
    async (reconnect) => {
      const fetchMock = mockFetch(({ url }) =>
        url.endsWith('/auth/refresh')
          ? success(buildTokens({ token: 'access-2', refresh_token: 'refresh-2' }))
          : failure(404, 'RESOURCE_NOT_FOUND', 'no'),
      );
      const { socket, disconnected } = connected();
      vi.useFakeTimers();
      socket.refuse(reconnect);
      // Subscribers wait for the new consumer rather than giving up on live updates.
      expect(disconnected).toHaveBeenCalledWith({ willAttemptReconnect: true });
      await vi.waitFor(() => expect(getConsumer()?.url).toMatch(/token=access-2$/));
      expect(fetchMock.mock.calls.map(([url]) => String(url))).toEqual(['/api/v1/auth/refresh']);
      expect(cableNeedsFreshToken()).toBe(false);
      // The refused consumer never comes back with its dead token.
      vi.advanceTimersByTime(5 * 60_000);
      expect(socketsFor('access-1')).toHaveLength(1);
    },
  );

  it('ends the session, without reconnecting, when the refresh is refused', async () => {
    mockFetch(() => failure(401, 'REVOKED_TOKEN', 'revoked'));
    const expired = vi.fn();
    const unwatch = onSessionExpired(expired);
    const { socket } = connected();
    vi.useFakeTimers();
    socket.refuse(false);
    await vi.waitFor(() => expect(expired).toHaveBeenCalled());
    expect(getConsumer()).toBeNull();
    expect(tokenStorage.getAccessToken()).toBeNull();
    vi.advanceTimersByTime(5 * 60_000);
    expect(FakeSocket.opened).toHaveLength(1);
    unwatch();
  });

  it('does not refresh when the refusal comes from this tab signing out (its logout revoked the session)', async () => {
    const fetchMock = mockFetch(() => failure(401, 'REVOKED_TOKEN', 'revoked'));
    const expired = vi.fn();
    const unwatch = onSessionExpired(expired);
    try {
      const { socket } = connected();
      // lib/session.ts signOut: still signed in, loading, while the server answers DELETE /auth/logout.
      useAuthStore.setState({ isLoading: true });
      socket.refuse(false);
      await new Promise((resolve) => setTimeout(resolve, 50));
      // The revoked refresh token is not spent (a 401 in the server's log), nor the session expired twice.
      expect(fetchMock).not.toHaveBeenCalled();
      expect(expired).not.toHaveBeenCalled();
      // The sign-out then ends: the socket goes with the session.
      tokenStorage.clear();
      useAuthStore.setState({ isAuthenticated: false, isLoading: false, user: null });
      expect(getConsumer()).toBeNull();
    } finally {
      unwatch();
      useAuthStore.setState({ isLoading: false });
    }
  });

  it('says the account was deleted when the server ended the session for it', async () => {
    // The account's sessions went with it: the refresh finds no token, and only the socket said why.
    mockFetch(() => failure(401, 'INVALID_TOKEN', 'Invalid token.'));
    useUiStore.setState({ toasts: [] });
    const expired = vi.fn();
    const unwatch = onSessionExpired(expired);
    const { socket } = connected();
    socket.refuse(false, 'account_deleted');
    await vi.waitFor(() => expect(expired).toHaveBeenCalled());
    expect(useUiStore.getState().toasts.map((t) => t.message)).toContain('Your account has been deleted.');
    unwatch();
  });

  it('says nothing of another tab when this tab signs out and the server refuses its socket meanwhile', async () => {
    useUiStore.setState({ toasts: [] });
    const { socket } = connected();
    const fetchMock = mockFetch(({ url }) => {
      // The logout revokes the session: the server ends its socket before it answers.
      if (url.endsWith('/auth/logout')) {
        socket.refuse(false);
        return new Promise<Response>((resolve) =>
          setTimeout(() => resolve(new Response(null, { status: 204 })), 30),
        );
      }
      return failure(401, 'REVOKED_TOKEN', 'Your session has been terminated');
    });
    const expired = vi.fn();
    const unwatch = onSessionExpired(expired);
    try {
      await signOut();
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(useUiStore.getState().toasts.map((t) => t.message)).toEqual([]);
      expect(expired).not.toHaveBeenCalled();
      // Nothing to refresh: the session was ended here, on purpose.
      expect(fetchMock.mock.calls.map(([url]) => String(url))).toEqual(['/api/v1/auth/logout']);
      expect(getConsumer()).toBeNull();
    } finally {
      unwatch();
    }
  });

  it('stays closed while the refresh cannot get through, and recovers at the next token check', async () => {
    let online = false;
    const fetchMock = mockFetch(() => {
      if (!online) throw new TypeError('Failed to fetch');
      return success(buildTokens({ token: 'access-2', refresh_token: 'refresh-2' }));
    });
    const { socket } = connected();
    vi.useFakeTimers();
    socket.refuse(true);
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    await vi.waitFor(() => expect(cableNeedsFreshToken()).toBe(true));
    // The tokens are kept for a later try, but the dead one is not used to reconnect.
    expect(tokenStorage.getAccessToken()).toBe('access-1');
    vi.advanceTimersByTime(5 * 60_000);
    expect(socketsFor('access-1')).toHaveLength(1);
    online = true;
    // jsdom has no Web Locks: the refresh takes turns with other tabs through a lease, which waits on timers.
    const recovered = refreshIfExpiring();
    await vi.advanceTimersByTimeAsync(1_000);
    await recovered;
    expect(getConsumer()?.url).toMatch(/token=access-2$/);
    expect(cableNeedsFreshToken()).toBe(false);
  });
});

describe('the socket coming back after the server was lost', () => {
  const realWebSocket = adapters.WebSocket;
  afterEach(() => {
    adapters.WebSocket = realWebSocket;
    FakeSocket.opened = [];
  });

  /** Signed in with one live subscription, the server accepting the socket; returns the reconnect listener. */
  function connectedAndWatching(): { socket: FakeSocket; reconnected: ReturnType<typeof vi.fn> } {
    adapters.WebSocket = FakeSocket as unknown as typeof WebSocket;
    stop = startCable();
    tokenStorage.setTokens(buildTokens({ token: 'access-1' }));
    signIn();
    const reconnected = vi.fn();
    const unwatch = onCableReconnect(reconnected);
    const stopCable = stop;
    stop = () => {
      unwatch();
      stopCable();
    };
    consumerNow().subscriptions.create({ channel: 'PartyChannel', party_id: 'party-1' }, {});
    const socket = FakeSocket.opened.at(-1);
    if (!socket) throw new Error('expected a socket');
    socket.accept();
    return { socket, reconnected };
  }

  /** What the client's connection monitor does once the socket went stale: open a new one. */
  function reopen(): FakeSocket {
    consumerNow().ensureActiveConnection();
    const socket = FakeSocket.opened.at(-1);
    if (!socket) throw new Error('expected a socket');
    return socket;
  }

  it('tells its listeners once the server welcomes the socket again, not at the first welcome', () => {
    const { socket, reconnected } = connectedAndWatching();
    expect(reconnected).not.toHaveBeenCalled();

    // The server stops: the socket closes, and an attempt to reopen it is refused too.
    socket.close();
    reopen().close();
    expect(reconnected).not.toHaveBeenCalled();

    reopen().accept();
    expect(reconnected).toHaveBeenCalledTimes(1);
  });

  it('tries again within seconds after a planned restart, not after the monitor’s stale threshold', () => {
    const { socket, reconnected } = connectedAndWatching();
    vi.useFakeTimers();
    const opened = FakeSocket.opened.length;
    socket.receive({ type: 'disconnect', reason: 'server_restart', reconnect: true });
    socket.close();
    // The first try comes within 1.5 × its delay; the server is still starting and refuses it.
    vi.advanceTimersByTime(QUICK_RECONNECT_DELAYS_MS[0] * 1.5);
    expect(FakeSocket.opened).toHaveLength(opened + 1);
    FakeSocket.opened.at(-1)?.close();
    // The second one finds it back.
    vi.advanceTimersByTime(QUICK_RECONNECT_DELAYS_MS[1] * 1.5);
    expect(FakeSocket.opened).toHaveLength(opened + 2);
    FakeSocket.opened.at(-1)?.accept();
    expect(reconnected).toHaveBeenCalledTimes(1);
    // Once back, no further tries.
    vi.advanceTimersByTime(QUICK_RECONNECT_DELAYS_MS[2] * 1.5);
    expect(FakeSocket.opened).toHaveLength(opened + 2);
  });

  it('does not count a socket closed on purpose after a token refresh as the server lost', () => {
    const { reconnected } = connectedAndWatching();
    vi.useFakeTimers();
    tokenStorage.setTokens(buildTokens({ token: 'access-2' }));
    vi.advanceTimersByTime(CABLE_HANDOVER_MS);
    reopen().accept();
    expect(reconnected).not.toHaveBeenCalled();
  });
});

describe('the browser coming back online (spec/01 §4)', () => {
  const realWebSocket = adapters.WebSocket;
  afterEach(() => {
    adapters.WebSocket = realWebSocket;
    FakeSocket.opened = [];
    vi.useRealTimers();
  });

  function connected(): FakeSocket {
    adapters.WebSocket = FakeSocket as unknown as typeof WebSocket;
    stop = startCable();
    tokenStorage.setTokens(buildTokens({ token: 'access-1' }));
    signIn();
    consumerNow().subscriptions.create({ channel: 'PartyChannel', party_id: 'party-1' }, {});
    const socket = FakeSocket.opened.at(-1);
    if (!socket) throw new Error('expected a socket');
    socket.accept();
    return socket;
  }

  it('reconnects at once a socket dropped while offline, not after the monitor’s backoff', () => {
    const socket = connected();
    socket.close();
    const opened = FakeSocket.opened.length;
    window.dispatchEvent(new Event('online'));
    expect(FakeSocket.opened).toHaveLength(opened + 1);
  });

  it('closes the socket when the browser goes offline, so its subscribers show updates paused', () => {
    adapters.WebSocket = FakeSocket as unknown as typeof WebSocket;
    stop = startCable();
    tokenStorage.setTokens(buildTokens({ token: 'access-1' }));
    signIn();
    const disconnected = vi.fn();
    consumerNow().subscriptions.create({ channel: 'PartyChannel', party_id: 'party-1' }, { disconnected });
    FakeSocket.opened.at(-1)?.accept();
    window.dispatchEvent(new Event('offline'));
    expect(disconnected).toHaveBeenCalledWith({ willAttemptReconnect: true });
    const opened = FakeSocket.opened.length;
    window.dispatchEvent(new Event('online'));
    expect(FakeSocket.opened).toHaveLength(opened + 1);
  });

  it('reopens a socket that still looks open but has gone stale, and leaves a live one alone', () => {
    connected();
    const opened = FakeSocket.opened.length;
    window.dispatchEvent(new Event('online'));
    expect(FakeSocket.opened).toHaveLength(opened);

    vi.useFakeTimers({ now: Date.now() });
    // No ping for longer than the stale threshold: the socket died with the network.
    vi.setSystemTime(Date.now() + 10_000);
    window.dispatchEvent(new Event('online'));
    vi.advanceTimersByTime(1_000);
    expect(FakeSocket.opened).toHaveLength(opened + 1);
  });
});
