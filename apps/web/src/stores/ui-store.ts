import { TOAST_DEFAULT_MS } from '@haversack/contracts';
import { create } from 'zustand';

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
 * spec/01 §2 UI state. Defaults: sidebar open, dark theme. Nothing is persisted (spec/01 §4: the whitelist
 * of persisted keys is empty), so this is a plain store without the persist middleware.
 */
export const useUiStore = create<UiState>()((set) => ({
  sidebarOpen: true,
  theme: 'dark',
  toasts: [],
  activeTab: null,
  mobileMenuOpen: false,
  setSidebarOpen: (sidebarOpen) => set({ sidebarOpen }),
  toggleSidebar: () => set((state) => ({ sidebarOpen: !state.sidebarOpen })),
  setTheme: (theme) => set({ theme }),
  toggleTheme: () => set((state) => ({ theme: state.theme === 'dark' ? 'light' : 'dark' })),
  addToast: (toast) =>
    set((state) => ({ toasts: [...state.toasts, { duration: TOAST_DEFAULT_MS, ...toast }] })),
  removeToast: (id) => set((state) => ({ toasts: state.toasts.filter((toast) => toast.id !== id) })),
  setActiveTab: (activeTab) => set({ activeTab }),
  setMobileMenuOpen: (mobileMenuOpen) => set({ mobileMenuOpen }),
  toggleMobileMenu: () => set((state) => ({ mobileMenuOpen: !state.mobileMenuOpen })),
}));
