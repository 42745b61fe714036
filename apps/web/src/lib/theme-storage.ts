import type { ThemeName } from '../stores/ui-store';

/**
 * The colour scheme last used in this browser (issue 12: the theme no longer flips at sign-in and sign-out).
 * public/theme-boot.js reads the same key before the first paint, so keep the two in step.
 */
export const THEME_STORAGE_KEY = 'haversack-theme';

export function readStoredTheme(): ThemeName | null {
  try {
    const stored = window.localStorage.getItem(THEME_STORAGE_KEY);
    return stored === 'light' || stored === 'dark' ? stored : null;
  } catch {
    // Storage can be switched off (private modes, policies): the default applies.
    return null;
  }
}

export function storeTheme(theme: ThemeName): void {
  try {
    window.localStorage.setItem(THEME_STORAGE_KEY, theme);
  } catch {
    // Not remembered, but the switch still works for this visit.
  }
}
