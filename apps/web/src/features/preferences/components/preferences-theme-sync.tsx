import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useAuthStore } from '../../../stores/auth-store';
import { useUiStore } from '../../../stores/ui-store';
import { preferencesQueryOptions } from '../api/preferences-api';

/**
 * The colour scheme follows the signed-in user's saved theme; signed out, the UI default (dark) applies.
 * (spec/01 §3 notes the two defaults differ: preferences say light, the UI state says dark.)
 */
export function PreferencesThemeSync() {
  const isAuthenticated = useAuthStore((state) => state.isAuthenticated);
  const setTheme = useUiStore((state) => state.setTheme);
  const { data } = useQuery({ ...preferencesQueryOptions(), enabled: isAuthenticated });
  const wasAuthenticated = useRef(isAuthenticated);

  useEffect(() => {
    if (isAuthenticated && data) setTheme(data.theme);
  }, [isAuthenticated, data, setTheme]);

  useEffect(() => {
    if (wasAuthenticated.current && !isAuthenticated) setTheme('dark');
    wasAuthenticated.current = isAuthenticated;
  }, [isAuthenticated, setTheme]);

  return null;
}
