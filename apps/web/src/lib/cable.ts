import {
  CABLE_RECONNECT_BACKOFF_RATE,
  CABLE_REOPEN_DELAY_MS,
  CABLE_STALE_THRESHOLD_S,
} from '@haversack/contracts';
import { Connection, ConnectionMonitor, type Consumer, createConsumer } from '@rails/actioncable';
import { useAuthStore } from '../stores/auth-store';
import { onAccessTokenChange, tokenStorage } from './token-storage';

// The parts of the official client this module tunes or reads that its published types leave out.
declare module '@rails/actioncable' {
  export const ConnectionMonitor: { staleThreshold: number; reconnectionBackoffRate: number };
  export const Connection: { reopenDelay: number };
  interface Consumer {
    readonly connection: { isOpen(): boolean; isActive(): boolean };
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

let current: { consumer: Consumer; token: string } | null = null;
const listeners = new Set<(consumer: Consumer | null) => void>();

/** The one consumer of this tab, or null when signed out. */
export function getConsumer(): Consumer | null {
  return current?.consumer ?? null;
}

/** Told whenever the consumer is created, rebuilt with a new token, or dropped at logout. */
export function onConsumerChange(listener: (consumer: Consumer | null) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

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
  current = token ? { consumer: createConsumer(cableUrl(token)), token } : null;
  for (const listener of listeners) listener(current?.consumer ?? null);
  // Subscribers move to the new consumer in the listeners above; at logout the old one closes at once.
  if (previous) retire(previous.consumer, current ? CABLE_HANDOVER_MS : 0);
}

/** spec/01 §4: a socket closed for good (e.g. the server said not to reconnect) reopens when the page shows. */
function reopenWhenVisible(): void {
  if (document.visibilityState !== 'visible' || !current) return;
  const { consumer } = current;
  if (consumer.subscriptions.subscriptions.length > 0 && !consumer.connection.isActive()) {
    consumer.ensureActiveConnection();
  }
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
  return () => {
    stopAuth();
    stopToken();
    document.removeEventListener('visibilitychange', reopenWhenVisible);
  };
}
