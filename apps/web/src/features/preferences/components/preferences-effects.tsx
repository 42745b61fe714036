import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useAuthStore } from '../../../stores/auth-store';
import { useUiStore } from '../../../stores/ui-store';
import { preferencesQueryOptions } from '../api/preferences-api';

/** The attribute global.css keys the compact density on. */
export const DENSITY_ATTRIBUTE = 'data-haversack-density';

/**
 * Makes the signed-in user's preferences act: compact view tightens spacing app-wide, sound effects chime
 * on an exchange's success toast. Notifications are read where the notices are made (realtime), and the
 * theme is the browser's own, changed only by the user (lib/theme-storage.ts). Signed out, none apply.
 */
export function PreferencesEffects() {
  const isAuthenticated = useAuthStore((state) => state.isAuthenticated);
  const { data } = useQuery({ ...preferencesQueryOptions(), enabled: isAuthenticated });
  const compact = isAuthenticated && data?.compactView === true;
  const sound = isAuthenticated && data?.soundEffects === true;

  useEffect(() => {
    const root = document.documentElement;
    if (compact) root.setAttribute(DENSITY_ATTRIBUTE, 'compact');
    else root.removeAttribute(DENSITY_ATTRIBUTE);
    return () => root.removeAttribute(DENSITY_ATTRIBUTE);
  }, [compact]);

  useEffect(() => {
    if (!sound) return;
    // Loaded only for those who turned sound on: it knows every exchange message, which would otherwise
    // bring the shop, loot and inventory contracts into every first load (issue 13 §1).
    let unsubscribe: (() => void) | undefined;
    let cancelled = false;
    void import('../lib/exchange-sound').then(({ isExchangeMessage, playExchangeChime }) => {
      if (cancelled) return;
      unsubscribe = useUiStore.subscribe((state, previous) => {
        const added = state.toasts.filter((toast) => !previous.toasts.some((old) => old.id === toast.id));
        if (added.some((toast) => toast.kind === 'success' && isExchangeMessage(toast.message)))
          playExchangeChime();
      });
    });
    return () => {
      cancelled = true;
      unsubscribe?.();
    };
  }, [sound]);

  return null;
}
