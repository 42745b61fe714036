import { useSyncExternalStore } from 'react';

/**
 * The admin session token of this tab (sessionStorage: each tab enters admin mode on its own, and the
 * token dies with the tab), and whether the server has said it expired.
 */
const storageKey = 'haversack_admin_session';

let expired = false;
const listeners = new Set<() => void>();

function notify(): void {
  for (const listener of listeners) listener();
}

export const adminSessionStore = {
  getToken(): string | null {
    try {
      return window.sessionStorage.getItem(storageKey);
    } catch {
      return null;
    }
  },
  setToken(token: string): void {
    try {
      window.sessionStorage.setItem(storageKey, token);
    } catch {
      // Storage disabled: admin mode then lasts for this page only.
    }
    expired = false;
    notify();
  },
  clear(): void {
    try {
      window.sessionStorage.removeItem(storageKey);
    } catch {
      // Nothing stored.
    }
  },
  /** An admin call was refused with ADMIN_SESSION_EXPIRED: the "Admin Session Expired" card shows. */
  markExpired(): void {
    expired = true;
    adminSessionStore.clear();
    notify();
  },
  isExpired: () => expired,
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

export function useAdminSessionExpired(): boolean {
  return useSyncExternalStore(adminSessionStore.subscribe, adminSessionStore.isExpired);
}
