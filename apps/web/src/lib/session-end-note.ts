/**
 * Why this browser's session ended, for its other tabs (they share the tokens, and learn of the end only
 * when their next refresh finds none, or is refused): the tab that ended it notes the reason, so that every
 * tab says the same ("You signed out in another tab.", "Your password was changed on another device…")
 * rather than the server's bare "terminated" or a guess. A note older than a minute is not news.
 */
const SESSION_END_KEY = 'haversack_session_end';

/**
 * The access token this tab last signed out with: a request of its own refused for it (sent before the
 * sign-out, answered after the revoke) is no news of another tab's sign-out. A later session has tokens of
 * its own, so nothing needs to forget it.
 */
export let signedOutHere: string | undefined;

/** For tests, whose fixtures use the same token again. */
export function forgetSignOutHere(): void {
  signedOutHere = undefined;
}

/** `token`: the access token of the session this tab itself ends (signs out of). */
export function noteSessionEnd(message: string, token?: string): void {
  signedOutHere = token;
  try {
    localStorage.setItem(SESSION_END_KEY, JSON.stringify({ message, at: Date.now() }));
  } catch {
    // Storage refused: the other tabs fall back to their own words.
  }
}

export function recentSessionEnd(): string | null {
  try {
    const noted = JSON.parse(localStorage.getItem(SESSION_END_KEY) ?? 'null') as {
      message?: unknown;
      at?: unknown;
    } | null;
    if (
      noted &&
      typeof noted.message === 'string' &&
      typeof noted.at === 'number' &&
      Date.now() - noted.at < 60_000
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
    localStorage.removeItem(SESSION_END_KEY);
  } catch {
    // Nothing to forget.
  }
}
