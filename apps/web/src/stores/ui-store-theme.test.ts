import { describe, expect, it, vi } from 'vitest';
import { THEME_STORAGE_KEY } from '../lib/theme-storage';

describe('the theme is remembered in this browser (issue 12)', () => {
  it('starts dark, and from the last theme used once there is one', async () => {
    vi.resetModules();
    const fresh = await import('./ui-store');
    expect(fresh.useUiStore.getState().theme).toBe('dark');
    fresh.useUiStore.getState().toggleTheme();
    expect(window.localStorage.getItem(THEME_STORAGE_KEY)).toBe('light');

    vi.resetModules();
    const reloaded = await import('./ui-store');
    expect(reloaded.useUiStore.getState().theme).toBe('light');
    reloaded.useUiStore.getState().setTheme('dark');
    expect(window.localStorage.getItem(THEME_STORAGE_KEY)).toBe('dark');
  });

  it('ignores a stored value that is not a theme', async () => {
    window.localStorage.setItem(THEME_STORAGE_KEY, 'purple');
    vi.resetModules();
    const fresh = await import('./ui-store');
    expect(fresh.useUiStore.getState().theme).toBe('dark');
  });
});
