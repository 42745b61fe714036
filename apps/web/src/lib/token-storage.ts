import type { AuthTokens, User } from '@haversack/contracts';
import { loadAuthSchemas } from './auth-schemas-loader';
import { forgetSessionEnd } from './session-end-note';
import { forgetAllUnanswered } from './unanswered-changes';

/** spec/01 §3: the session lives in local browser storage under these keys. */
export const storageKeys = {
  accessToken: 'auth_token',
  refreshToken: 'refresh_token',
  expiresAt: 'token_expires_at',
  user: 'user',
} as const;

function read(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

function write(key: string, value: string): void {
  try {
    window.localStorage.setItem(key, value);
  } catch {
    // Storage can be full or disabled (private mode): the session then lasts for this page only.
  }
}

function remove(key: string): void {
  try {
    window.localStorage.removeItem(key);
  } catch {
    // Nothing to clear when storage is unavailable.
  }
}

/**
 * Listeners told when the access token is written or cleared, in this tab or (through the storage event)
 * in another one. The real-time socket rebuilds itself with the fresh token (spec/01 §4).
 */
const tokenListeners = new Set<() => void>();

function notifyTokenChange(): void {
  for (const listener of tokenListeners) listener();
}

export function onAccessTokenChange(listener: () => void): () => void {
  tokenListeners.add(listener);
  const fromOtherTab = (event: StorageEvent) => {
    if (event.key === storageKeys.accessToken || event.key === null) listener();
  };
  window.addEventListener('storage', fromOtherTab);
  return () => {
    tokenListeners.delete(listener);
    window.removeEventListener('storage', fromOtherTab);
  };
}

export const tokenStorage = {
  getAccessToken: () => read(storageKeys.accessToken),
  getRefreshToken: () => read(storageKeys.refreshToken),
  /** Expiry as epoch milliseconds, or null when unknown or unreadable. */
  getExpiresAt(): number | null {
    const raw = read(storageKeys.expiresAt);
    if (!raw) return null;
    const time = Date.parse(raw);
    return Number.isNaN(time) ? null : time;
  },
  setTokens(tokens: AuthTokens): void {
    write(storageKeys.accessToken, tokens.token);
    write(storageKeys.refreshToken, tokens.refresh_token);
    write(storageKeys.expiresAt, tokens.expires_at);
    // A session goes on (or a new one begins): how the last one ended is no longer news.
    forgetSessionEnd();
    notifyTokenChange();
  },
  /** The stored user, validated (the schema, with zod, loads on demand: issue 13 §1). */
  async getUser(): Promise<User | null> {
    const raw = read(storageKeys.user);
    if (!raw) return null;
    const { userSchema } = await loadAuthSchemas();
    try {
      const parsed = userSchema.safeParse(JSON.parse(raw));
      return parsed.success ? parsed.data : null;
    } catch {
      return null;
    }
  },
  setUser(user: User): void {
    write(storageKeys.user, JSON.stringify(user));
  },
  clear(): void {
    for (const key of Object.values(storageKeys)) remove(key);
    // The next one to sign in here does not inherit the last one's unanswered changes.
    forgetAllUnanswered();
    notifyTokenChange();
  },
};

/** True when the access token is expired or expires within `bufferMs` (spec/01 §4, §9). */
export function tokenExpiresWithin(bufferMs: number, now = Date.now()): boolean {
  const expiresAt = tokenStorage.getExpiresAt();
  if (expiresAt === null) return true;
  return expiresAt - now <= bufferMs;
}
