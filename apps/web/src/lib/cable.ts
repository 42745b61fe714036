import {
  ACCOUNT_DELETED_MESSAGE,
  CABLE_RECONNECT_BACKOFF_RATE,
  CABLE_REOPEN_DELAY_MS,
  CABLE_STALE_THRESHOLD_S,
} from '@haversack/contracts';
import { Connection, ConnectionMonitor, type Consumer, createConsumer } from '@rails/actioncable';
import { useAuthStore } from '../stores/auth-store';
import { registerCableTokenCheck } from './cable-status';
import { refreshSession } from './http-client';
import { noteSessionEnd } from './session-end-note';
import { onAccessTokenChange, tokenStorage } from './token-storage';

// The parts of the official client this module tunes or reads that its published types leave out.
declare module '@rails/actioncable' {
  export const ConnectionMonitor: { staleThreshold: number; reconnectionBackoffRate: number };
  export const Connection: { reopenDelay: number; prototype: { events: CableConnectionEvents } };
  type CableConnectionEvents = Record<
    'message' | 'open' | 'close' | 'error',
    (this: CableConnection, event: MessageEvent) => unknown
  >;
  interface CableConnection {
    isOpen(): boolean;
    isActive(): boolean;
    open(): boolean;
    reopen(): void;
    /** Closes the socket; the monitor keeps running (and reconnects) unless `allowReconnect` is false. */
    close(options?: { allowReconnect: boolean }): void;
    events: CableConnectionEvents;
    /** The socket now in use; a new one each time the connection opens again. */
    readonly webSocket: unknown;
    readonly monitor: { stop(): void; connectionIsStale(): boolean };
  }
  interface Consumer {
    readonly connection: CableConnection;
    ensureActiveConnection(): void;
  }
  interface Subscriptions {
    readonly subscriptions: readonly Subscription[];
  }
}

// spec/01 §9 real-time constants. They equal the client's own defaults; set here so that the spec, not a
// library release, decides them. (The 500 ms subscription retry is fixed inside the client.)
ConnectionMonitor.staleThreshold = CABLE_STALE_THRESHOLD_S;
ConnectionMonitor.reconnectionBackoffRate = CABLE_RECONNECT_BACKOFF_RATE;
Connection.reopenDelay = CABLE_REOPEN_DELAY_MS;

/**
 * After a token refresh the old socket stays open this long beside the new one, so that its subscriptions
 * hand over without the server seeing the user go offline and come back (which everyone else would see as
 * "left the party" then "joined the party").
 */
export const CABLE_HANDOVER_MS = 5_000;

const baseUrl: string = import.meta.env.VITE_API_BASE_URL ?? '';

/** DESIGN §6: the socket authenticates with the access token in the query. */
export function cableUrl(token: string): string {
  return `${baseUrl}/cable?token=${encodeURIComponent(token)}`;
}

interface CurrentCable {
  consumer: Consumer;
  token: string;
  /** The server said this token is no good (session ended or token expired): it never reconnects. */
  unauthorized: boolean;
  renewing: boolean;
}

let current: CurrentCable | null = null;
const listeners = new Set<(consumer: Consumer | null) => void>();
const reconnectListeners = new Set<() => void>();
/** The socket of this session closed (server stopped, network gone, token refused) and is not back yet. */
let serverLost = false;

/** The one consumer of this tab, or null when signed out. */
export function getConsumer(): Consumer | null {
  return current?.consumer ?? null;
}

/** Told whenever the consumer is created, rebuilt with a new token, or dropped at logout. */
export function onConsumerChange(listener: (consumer: Consumer | null) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * Told each time the server welcomes the socket again after it was lost (the server restarted, the network
 * came back). The browser's online state cannot say so: it stays online while only the server is down.
 */
export function onCableReconnect(listener: () => void): () => void {
  reconnectListeners.add(listener);
  return () => reconnectListeners.delete(listener);
}

/**
 * A server stopping on purpose (a restart, a deploy) says `disconnect` with `reconnect: true`. The client's
 * own monitor would wait out its stale threshold (6 s) and a poll before trying again, some 12 s of paused
 * updates for a server back in one or two: instead it tries after about a second, then two, then four,
 * each spread at random so that every client of a restarted server does not come back at the same instant.
 * The monitor still runs behind these tries.
 */
export const QUICK_RECONNECT_DELAYS_MS = [1_000, 2_000, 4_000] as const;

function reconnectSoon(entry: CurrentCable, attempt = 0): void {
  const delay = QUICK_RECONNECT_DELAYS_MS[attempt];
  if (delay === undefined) return;
  setTimeout(
    () => {
      if (current !== entry || entry.unauthorized) return;
      const { connection } = entry.consumer;
      if (connection.isOpen()) return;
      // An earlier try still connecting is left to finish.
      if (!connection.isActive()) connection.open();
      reconnectSoon(entry, attempt + 1);
    },
    delay * (0.5 + Math.random()),
  );
}

/**
 * The control frame of a socket message: its `type` (welcome, ping, disconnect...), `reason`, `reconnect`,
 * and for an ended session what ended it, when the device could not learn it otherwise (`session_end`).
 */
function readFrame(data: unknown): {
  type?: unknown;
  reason?: unknown;
  reconnect?: unknown;
  session_end?: unknown;
} {
  if (typeof data !== 'string') return {};
  try {
    const frame: unknown = JSON.parse(data);
    return typeof frame === 'object' && frame !== null ? frame : {};
  } catch {
    return {};
  }
}

/**
 * The server ends the socket of an ended session or an expired token with `disconnect` / `unauthorized`.
 * Left alone, the official client would give up for good (its subscribers told no reconnect is coming)
 * or come back with the same dead token. Instead its subscribers hear that a reconnect is coming, its own
 * reconnection stops, and the session is refreshed: a fresh token builds a new consumer that they move
 * to (syncCable), and a refused refresh ends the session. It also notes when the socket is lost and when
 * the server welcomes it back (onCableReconnect).
 */
function followUnauthorized(entry: CurrentCable): void {
  const base = Connection.prototype.events;
  entry.consumer.connection.events = {
    ...base,
    message(event) {
      const frame = readFrame(event.data);
      if (frame.type === 'welcome') welcomed(entry);
      if (frame.type === 'disconnect' && frame.reason !== 'unauthorized' && frame.reconnect === true)
        reconnectSoon(entry);
      if (frame.type !== 'disconnect' || frame.reason !== 'unauthorized')
        return base.message.call(this, event);
      entry.unauthorized = true;
      // The refresh that follows is refused without a reason: a deleted account keeps no session to read
      // one from. The server said it here, so the expiry says it too (http-client reads the note).
      if (frame.session_end === 'account_deleted') noteSessionEnd(ACCOUNT_DELETED_MESSAGE);
      void renewToken(entry);
    },
    close(event) {
      // A consumer retired after a refresh or at logout closes on purpose: the server is still there.
      if (current === entry) serverLost = true;
      const result = base.close.call(this, event);
      if (entry.unauthorized) this.monitor.stop();
      return result;
    },
  };
}

/**
 * The server accepted the session's socket. After a loss (including a refused token, whose fresh consumer is
 * welcomed instead) the server is reachable again: what failed meanwhile can be asked for again.
 */
function welcomed(entry: CurrentCable): void {
  if (current !== entry || !serverLost) return;
  serverLost = false;
  for (const listener of reconnectListeners) listener();
}

async function renewToken(entry: CurrentCable): Promise<void> {
  if (entry.renewing || current !== entry) return;
  // This tab signing out (lib/session.ts signOut: still signed in, loading): its logout revoked the session,
  // and the socket goes with it; a refresh would only spend the revoked refresh token (a 401).
  const { isAuthenticated, isLoading } = useAuthStore.getState();
  if (isAuthenticated && isLoading) return;
  entry.renewing = true;
  try {
    await refreshSession();
  } finally {
    entry.renewing = false;
  }
  // Also picks up a token another tab wrote meanwhile. A refresh that could not reach the server leaves
  // this consumer closed; the periodic token check and the page showing again try once more.
  syncCable();
}

/** True while the socket is closed for a token the server refused, and no refresh for it is under way. */
export function cableNeedsFreshToken(): boolean {
  return current?.unauthorized === true && !current.renewing;
}
registerCableTokenCheck(cableNeedsFreshToken);

function retire(consumer: Consumer, afterMs: number): void {
  const close = () => {
    consumer.disconnect();
    // The client leaves a socket that is still connecting alone (a Safari workaround): try again once it opens.
    if (consumer.connection.isActive() && !consumer.connection.isOpen())
      setTimeout(close, CABLE_REOPEN_DELAY_MS);
  };
  if (afterMs <= 0) close();
  else setTimeout(close, afterMs);
}

/**
 * spec/01 §4: the socket exists only while signed in with a token, and is rebuilt with the fresh token after
 * login and after every refresh (here or in another tab). Creating a consumer opens nothing: the client
 * connects when the first subscription is made, so pages without live data cost no socket.
 */
export function syncCable(): void {
  const signedIn = useAuthStore.getState().isAuthenticated;
  const token = signedIn ? tokenStorage.getAccessToken() : null;
  if ((current?.token ?? null) === token) return;
  const previous = current;
  // Signed out, nothing is waiting for the server to come back.
  if (!token) serverLost = false;
  current = token
    ? { consumer: createConsumer(cableUrl(token)), token, unauthorized: false, renewing: false }
    : null;
  if (current) followUnauthorized(current);
  for (const listener of listeners) listener(current?.consumer ?? null);
  // Subscribers move to the new consumer in the listeners above; at logout the old one closes at once, and
  // so does one the server has refused (there is nothing left to hand over).
  if (previous) retire(previous.consumer, current && !previous.unauthorized ? CABLE_HANDOVER_MS : 0);
}

/** spec/01 §4: a socket closed for good (e.g. the server said not to reconnect) reopens when the page shows. */
function reopenWhenVisible(): void {
  if (document.visibilityState !== 'visible' || !current) return;
  if (current.unauthorized) return void renewToken(current);
  const { consumer } = current;
  if (consumer.subscriptions.subscriptions.length > 0 && !consumer.connection.isActive()) {
    consumer.ensureActiveConnection();
  }
}

/**
 * spec/01 §4 ("reconnects ... when stale"): the browser says when its network is back, so a socket dropped
 * while offline reconnects now instead of after the monitor's backoff (some 10 s once it has tried a few
 * times in vain). A socket that still looks open may be a dead one from before the drop: it is reopened
 * when it has gone stale (no ping for the stale threshold), as the client's own visibility handling does.
 */
function reconnectWhenOnline(): void {
  if (!current) return;
  if (current.unauthorized) return void renewToken(current);
  const { consumer } = current;
  // No subscription, no socket wanted (see syncCable).
  if (consumer.subscriptions.subscriptions.length === 0) return;
  const { connection } = consumer;
  if (connection.isOpen()) {
    if (connection.monitor.connectionIsStale()) connection.reopen();
  } else if (!connection.isActive()) connection.open();
  // A socket still connecting is left to finish.
}

/**
 * The browser lost its network: the socket is closed rather than left to look open until the monitor finds
 * it stale (6 s and more), so that the party's indicator says updates are paused and its "3 online" goes
 * at once. The client's monitor keeps running, and the `online` above reconnects.
 */
function closeWhenOffline(): void {
  if (!current) return;
  const { connection } = current.consumer;
  if (connection.isOpen()) connection.close();
}

/**
 * Follow the session: the auth store (login, logout) and the stored token (refresh). Returns the stop
 * function; the session manager runs it for the app's lifetime.
 */
export function startCable(): () => void {
  syncCable();
  const stopAuth = useAuthStore.subscribe((state, before) => {
    if (state.isAuthenticated !== before.isAuthenticated) syncCable();
  });
  const stopToken = onAccessTokenChange(syncCable);
  document.addEventListener('visibilitychange', reopenWhenVisible);
  window.addEventListener('online', reconnectWhenOnline);
  window.addEventListener('offline', closeWhenOffline);
  return () => {
    stopAuth();
    stopToken();
    document.removeEventListener('visibilitychange', reopenWhenVisible);
    window.removeEventListener('online', reconnectWhenOnline);
    window.removeEventListener('offline', closeWhenOffline);
  };
}
