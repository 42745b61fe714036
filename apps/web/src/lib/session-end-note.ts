/**
 * Why this browser's session ended, for its other tabs (they share the tokens, and learn of the end only
 * when their next refresh finds none, or is refused): the tab that ended it notes the reason, so that every
 * tab says the same ("You signed out in another tab.", "Your password was changed on another device…")
 * rather than the server's bare "terminated" or a guess. A note older than a minute is not news.
 */
const SESSION_END_KEY = 'haversack_session_end';
const NEWS_FOR_MS = 60_000;

export function noteSessionEnd(message: string, now = Date.now()): void {
  try {
    window.localStorage.setItem(SESSION_END_KEY, JSON.stringify({ message, at: now }));
  } catch {
    // Storage refused: the other tabs fall back to their own words.
  }
}

export function recentSessionEnd(now = Date.now()): string | null {
  try {
    const noted = JSON.parse(window.localStorage.getItem(SESSION_END_KEY) ?? 'null') as {
      message?: unknown;
      at?: unknown;
    } | null;
    if (
      noted &&
      typeof noted.message === 'string' &&
      typeof noted.at === 'number' &&
      now - noted.at < NEWS_FOR_MS
    )
      return noted.message;
  } catch {
    // A note that does not parse is no note.
  }
  return null;
}

/** A new session begins: the last one's ending is no longer news. */
export function forgetSessionEnd(): void {
  try {
    window.localStorage.removeItem(SESSION_END_KEY);
  } catch {
    // Nothing to forget.
  }
}
