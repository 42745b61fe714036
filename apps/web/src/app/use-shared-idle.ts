import { useEffect, useState } from 'react';

/** Where each tab of this browser notes its user's last activity (milliseconds since the epoch). */
export const LAST_ACTIVITY_KEY = 'haversack_last_activity';
/** A tab notes activity at most this often: a moving mouse must not write to storage on every event. */
const NOTE_EVERY_MS = 10_000;

function lastActivity(fallback: number): number {
  try {
    const noted = Number(window.localStorage.getItem(LAST_ACTIVITY_KEY));
    return Number.isFinite(noted) && noted > fallback ? noted : fallback;
  } catch {
    return fallback;
  }
}

/**
 * True once `timeoutMs` pass without activity in any tab of this browser: the session is one for all of
 * them (its tokens are shared), so a tab left in the background must not sign out the one in use, as a
 * per-tab timer (Mantine's useIdle) did. Activity is noted in localStorage, which every tab reads.
 */
export function useSharedIdle(
  timeoutMs: number,
  events: (keyof DocumentEventMap)[],
  resumed: { current: boolean },
): boolean {
  const [idle, setIdle] = useState(false);
  useEffect(() => {
    // spec/01 §4: a session the app started with (a reload) goes on from the activity noted before it, so
    // a reload is no activity; a session begun by signing in starts the clock (the note may be older).
    const resumedAt = resumed.current ? lastActivity(0) : 0;
    resumed.current = false;
    const startedAt = resumedAt || Date.now();
    let noted = 0;
    const note = () => {
      const now = Date.now();
      if (now - noted < NOTE_EVERY_MS) return;
      noted = now;
      try {
        window.localStorage.setItem(LAST_ACTIVITY_KEY, String(now));
      } catch {
        // Storage refused (private mode, full): this tab's own activity still counts through `noted`.
      }
    };
    let timer: ReturnType<typeof setTimeout>;
    const check = () => {
      const due = Math.max(lastActivity(startedAt), noted) + timeoutMs - Date.now();
      if (due <= 0) setIdle(true);
      else timer = setTimeout(check, due);
    };
    if (!resumedAt) note();
    check();
    for (const event of events) document.addEventListener(event, note, { passive: true });
    return () => {
      clearTimeout(timer);
      for (const event of events) document.removeEventListener(event, note);
    };
  }, [timeoutMs, events, resumed]);
  return idle;
}
