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

interface UiState {
  sidebarOpen: boolean;
  theme: ThemeName;
  toasts: Toast[];
  activeTab: string | null;
  mobileMenuOpen: boolean;
  setSidebarOpen: (open: boolean) => void;
  toggleSidebar: () => void;
  setTheme: (theme: ThemeName) => void;
  toggleTheme: () => void;
  addToast: (toast: Omit<Toast, 'duration'> & { duration?: number }) => void;
  removeToast: (id: string) => void;
  setActiveTab: (tab: string | null) => void;
  setMobileMenuOpen: (open: boolean) => void;
  toggleMobileMenu: () => void;
}

/**
 * spec/01 §2 UI state. Defaults: sidebar open, dark theme. The store itself is not persisted (spec/01 §4:
 * the whitelist of persisted keys is empty); only the theme is remembered, under a key of its own, so that
 * it stays as the user left it across visits, sign-in and sign-out (issue 12, docs/decisions.md).
 */
export const useUiStore = create<UiState>()((set) => ({
  sidebarOpen: true,
  theme: readStoredTheme() ?? 'dark',
  toasts: [],
  activeTab: null,
  mobileMenuOpen: false,
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
  setActiveTab: (activeTab) => set({ activeTab }),
  setMobileMenuOpen: (mobileMenuOpen) => set({ mobileMenuOpen }),
  toggleMobileMenu: () => set((state) => ({ mobileMenuOpen: !state.mobileMenuOpen })),
}));
