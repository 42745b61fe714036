import { INACTIVITY_TIMEOUT_MS, TOKEN_CHECK_INTERVAL_MS } from '@haversack/contracts';
import { useEffect, useRef, useState } from 'react';
import {
  followSessionOfOtherTabs,
  initializeSession,
  recheckUnverifiedUser,
  refreshIfExpiring,
  signOut,
} from '../lib/session';
import { onSessionExpired } from '../lib/session-events';
import { tokenStorage } from '../lib/token-storage';
import { useAuthStore } from '../stores/auth-store';
import { useSharedIdle } from './use-shared-idle';

export const inactivityMessage = 'Your session has expired due to inactivity. Please log in again.';

/** spec/01 §4: activity is mouse down or move, key press, scroll or touch. */
const activityEvents: (keyof DocumentEventMap)[] = [
  'mousedown',
  'mousemove',
  'keydown',
  'keypress',
  'scroll',
  'touchstart',
  'touchmove',
];

/**
 * True from the first time this tab is signed in, and from then on (signed out again included): what only
 * a signed-in user needs (the real-time client, the preferences) loads then, and once loaded it follows
 * the session itself (issue 13 §1: /login does not carry it).
 */
export function useHasBeenSignedIn(): boolean {
  const isAuthenticated = useAuthStore((state) => state.isAuthenticated);
  const [signedInOnce, setSignedInOnce] = useState(isAuthenticated);
  if (isAuthenticated && !signedInOnce) setSignedInOnce(true);
  return signedInOnce || isAuthenticated;
}

/**
 * The session lifecycle of spec/01 §4: start-up, the periodic token check (now and every 60 s), logout on
 * the session-expired event, logout after 30 minutes of inactivity, and the real-time socket.
 */
export function SessionManager() {
  const isAuthenticated = useAuthStore((state) => state.isAuthenticated);
  const cableNeeded = useHasBeenSignedIn();
  // The session the app starts with, if any: its inactivity began before this page (use-shared-idle.ts).
  const resumed = useRef(tokenStorage.getAccessToken() !== null);

  useEffect(() => {
    void initializeSession();
  }, []);

  // spec/01 §4: the real-time socket follows the session (created at login, rebuilt on refresh, closed at
  // logout). Its client loads at the first sign-in and from then on follows the session by itself. The
  // socket is also how the app hears that the server is back after it was unreachable: the lists and pages
  // that failed meanwhile are then asked for again rather than waiting on their Try Again.
  useEffect(() => {
    if (!cableNeeded) return;
    let stop: (() => void) | undefined;
    let cancelled = false;
    Promise.all([import('../lib/cable'), import('../lib/query-client')])
      .then(([{ onCableReconnect, startCable }, { queryClient, refetchQueriesFailedForConnection }]) => {
        if (cancelled) return;
        const stopCable = startCable();
        const stopRefetching = onCableReconnect(() => void refetchQueriesFailedForConnection(queryClient));
        stop = () => {
          stopRefetching();
          stopCable();
        };
      })
      // A client that could not load leaves the pages without live updates; they still load and save.
      .catch(() => undefined);
    return () => {
      cancelled = true;
      stop?.();
    };
  }, [cableNeeded]);

  useEffect(() => {
    if (!isAuthenticated) return;
    void refreshIfExpiring();
    const timer = setInterval(() => void refreshIfExpiring(), TOKEN_CHECK_INTERVAL_MS);
    return () => clearInterval(timer);
  }, [isAuthenticated]);

  // The session as the browser's other tabs change it: signed out, or in as another account there.
  useEffect(() => followSessionOfOtherTabs(), []);

  // The user changed on another device (the verification link opened there).
  useEffect(() => {
    if (!isAuthenticated) return;
    const onReturn = () => {
      if (document.visibilityState === 'visible') void recheckUnverifiedUser();
    };
    document.addEventListener('visibilitychange', onReturn);
    window.addEventListener('focus', onReturn);
    return () => {
      document.removeEventListener('visibilitychange', onReturn);
      window.removeEventListener('focus', onReturn);
    };
  }, [isAuthenticated]);

  useEffect(
    () =>
      onSessionExpired(() => {
        const { isAuthenticated: signedIn, isLoading } = useAuthStore.getState();
        if (signedIn && !isLoading) void signOut();
      }),
    [],
  );

  return isAuthenticated ? <InactivityLogout resumed={resumed} /> : null;
}

function InactivityLogout({ resumed }: { resumed: { current: boolean } }) {
  const idle = useSharedIdle(INACTIVITY_TIMEOUT_MS, activityEvents, resumed);
  useEffect(() => {
    if (!idle) return;
    void signOut(inactivityMessage).then(() => window.alert(inactivityMessage));
  }, [idle]);
  return null;
}
