/** Where to go after signing in: only a path on this site, never back into the auth pages. */
export const DEFAULT_AFTER_LOGIN = '/dashboard';

/**
 * `value` as a path on this site (path, query and hash), or null: it must start with one '/' and still name
 * this origin once the browser has resolved it (which drops tabs and newlines: '/\t/evil.example' is
 * '//evil.example', another site).
 */
export function sameSitePath(value: string | null | undefined): string | null {
  // '//host' and '/\\host' resolve to another origin, refused below.
  if (!value?.startsWith('/')) return null;
  try {
    const origin = window.location.origin;
    const url = new URL(value, origin);
    if (url.origin !== origin) return null;
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return null;
  }
}

export function safeRedirectTarget(value: string | null | undefined): string {
  const path = sameSitePath(value);
  const pathname = path?.replace(/[?#].*/, '');
  return path && pathname !== '/login' && pathname !== '/register' ? path : DEFAULT_AFTER_LOGIN;
}

/** spec/01 §2: the login URL that brings the user back to `pathWithQuery` afterwards. */
export function loginUrlFor(pathWithQuery: string): string {
  return `/login?redirect=${encodeURIComponent(pathWithQuery)}`;
}

/**
 * Whether a sign-in was asked for by the party join page (a shared invite link, /parties/join?code=…): the
 * person is most likely new, so the auth pages say what they are joining and offer an account first.
 */
export function isPartyInviteRedirect(value: string | null | undefined): boolean {
  return sameSitePath(value)?.replace(/[?#].*/, '') === '/parties/join';
}
