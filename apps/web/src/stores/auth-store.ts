import type { User } from '@haversack/contracts';
import { create } from 'zustand';

/** spec/01 §3 Authentication state. The actions that change it live in lib/session.ts. */
export interface AuthState {
  isAuthenticated: boolean;
  isLoading: boolean;
  isInitializing: boolean;
  user: User | null;
  error: string | null;
}

export const initialAuthState: AuthState = {
  isAuthenticated: false,
  isLoading: false,
  isInitializing: true,
  user: null,
  error: null,
};

export const useAuthStore = create<AuthState>()(() => initialAuthState);

/** The signed-in user; only call where a guard has already ensured there is one. */
export function useCurrentUser(): User | null {
  return useAuthStore((state) => state.user);
}

/** spec/01 §3 User: username falls back to display_name, else empty. */
export function displayNameOf(user: User | null): string {
  if (!user) return '';
  return user.username || user.display_name || '';
}
