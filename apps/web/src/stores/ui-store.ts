import { TOAST_DEFAULT_MS } from '@haversack/contracts';
import { create } from 'zustand';
import { readStoredTheme, storeTheme } from '../lib/theme-storage';

export type ThemeName = 'light' | 'dark';
export type ToastKind = 'success' | 'error' | 'info' | 'warning';

/** spec/01 §3 Toast: id, message, duration (default 5000 ms). */
export interface Toast {
  id: string;
  message: string;
  duration: number;
  kind: ToastKind;
}

export interface NavSection {
  /** The address the page was at when it said so: the claim lapses once the address changes. */
  pathname: string;
  /** The navigation entry's href, e.g. /parties. */
  href: string;
}

interface UiState {
  sidebarOpen: boolean;
  theme: ThemeName;
  toasts: Toast[];
  mobileMenuOpen: boolean;
  /**
   * The navigation entry a page says it belongs to when its address alone does not tell (a party's stash
   * lives at /containers/:id, as a character's pack does), for that address only.
   */
  navSection: NavSection | null;
  setNavSection: (section: NavSection | null) => void;
  setSidebarOpen: (open: boolean) => void;
  toggleSidebar: () => void;
  setTheme: (theme: ThemeName) => void;
  toggleTheme: () => void;
  addToast: (toast: Omit<Toast, 'duration'> & { duration?: number }) => void;
  removeToast: (id: string) => void;
  setMobileMenuOpen: (open: boolean) => void;
  toggleMobileMenu: () => void;
}

/**
 * spec/01 §2 UI state. Defaults: sidebar open, dark theme. The store itself is not persisted (spec/01 §4:
 * the whitelist of persisted keys is empty); only the theme is remembered, under a key of its own, so that
 * it stays as the user left it across visits, sign-in and sign-out (issue 12, docs/decisions.md). The active
 * tab is not kept here: each set of tabs keeps its own (the party page opens the one its ?tab= link names,
 * each workspace panel has its own), so one app-wide value would serve none of them (issue 14).
 */
export const useUiStore = create<UiState>()((set) => ({
  sidebarOpen: true,
  theme: readStoredTheme() ?? 'dark',
  toasts: [],
  mobileMenuOpen: false,
  navSection: null,
  setNavSection: (navSection) => set({ navSection }),
  setSidebarOpen: (sidebarOpen) => set({ sidebarOpen }),
  toggleSidebar: () => set((state) => ({ sidebarOpen: !state.sidebarOpen })),
  setTheme: (theme) => {
    storeTheme(theme);
    set({ theme });
  },
  toggleTheme: () =>
    set((state) => {
      const theme = state.theme === 'dark' ? 'light' : 'dark';
      storeTheme(theme);
      return { theme };
    }),
  addToast: (toast) =>
    set((state) => ({ toasts: [...state.toasts, { duration: TOAST_DEFAULT_MS, ...toast }] })),
  removeToast: (id) => set((state) => ({ toasts: state.toasts.filter((toast) => toast.id !== id) })),
  setMobileMenuOpen: (mobileMenuOpen) => set({ mobileMenuOpen }),
  toggleMobileMenu: () => set((state) => ({ mobileMenuOpen: !state.mobileMenuOpen })),
}));
