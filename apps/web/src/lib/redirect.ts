/** Where to go after signing in: only a path on this site, never back into the auth pages. */
export const DEFAULT_AFTER_LOGIN = '/dashboard';

export function safeRedirectTarget(value: string | null | undefined): string {
  if (!value?.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) {
    return DEFAULT_AFTER_LOGIN;
  }
  try {
    const origin = window.location.origin;
    const url = new URL(value, origin);
    if (url.origin !== origin) return DEFAULT_AFTER_LOGIN;
    if (url.pathname === '/login' || url.pathname === '/register') return DEFAULT_AFTER_LOGIN;
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return DEFAULT_AFTER_LOGIN;
  }
}

/** spec/01 §2: the login URL that brings the user back to `pathWithQuery` afterwards. */
export function loginUrlFor(pathWithQuery: string): string {
  return `/login?redirect=${encodeURIComponent(pathWithQuery)}`;
}
