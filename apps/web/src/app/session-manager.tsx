import { INACTIVITY_TIMEOUT_MS, TOKEN_CHECK_INTERVAL_MS } from '@haversack/contracts';
import { useIdle } from '@mantine/hooks';
import { useEffect } from 'react';
import { startCable } from '../lib/cable';
import { initializeSession, refreshIfExpiring, signOut } from '../lib/session';
import { onSessionExpired } from '../lib/session-events';
import { useAuthStore } from '../stores/auth-store';

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
 * The session lifecycle of spec/01 §4: start-up, the periodic token check (now and every 60 s), logout on
 * the session-expired event, logout after 30 minutes of inactivity, and the real-time socket.
 */
export function SessionManager() {
  const isAuthenticated = useAuthStore((state) => state.isAuthenticated);

  useEffect(() => {
    void initializeSession();
  }, []);

  // spec/01 §4: the real-time socket follows the session (created at login, rebuilt on refresh, closed at logout).
  useEffect(() => startCable(), []);

  useEffect(() => {
    if (!isAuthenticated) return;
    void refreshIfExpiring();
    const timer = setInterval(() => void refreshIfExpiring(), TOKEN_CHECK_INTERVAL_MS);
    return () => clearInterval(timer);
  }, [isAuthenticated]);

  useEffect(
    () =>
      onSessionExpired(() => {
        const { isAuthenticated: signedIn, isLoading } = useAuthStore.getState();
        if (signedIn && !isLoading) void signOut();
      }),
    [],
  );

  return isAuthenticated ? <InactivityLogout /> : null;
}

function InactivityLogout() {
  const idle = useIdle(INACTIVITY_TIMEOUT_MS, { events: activityEvents, initialState: false });
  useEffect(() => {
    if (!idle) return;
    void signOut().then(() => window.alert(inactivityMessage));
  }, [idle]);
  return null;
}
