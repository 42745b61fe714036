import { defaultPreferences, inventoryMessages, type Preferences } from '@haversack/contracts';
import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../../lib/query-client';
import { toast } from '../../../lib/toast';
import { useAuthStore } from '../../../stores/auth-store';
import { useUiStore } from '../../../stores/ui-store';
import { buildUser, mockFetch, success } from '../../../test/fixtures';
import { preferencesKeys } from '../api/preferences-api';
import { playExchangeChime } from '../lib/exchange-sound';
import { DENSITY_ATTRIBUTE, PreferencesEffects } from './preferences-effects';

// The real chime needs a sound card; what matters here is when it is asked for.
vi.mock('../lib/exchange-sound', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../lib/exchange-sound')>()),
  playExchangeChime: vi.fn(),
}));
const chime = vi.mocked(playExchangeChime);

function renderEffects(preferences: Partial<Preferences>) {
  useAuthStore.setState({ isAuthenticated: true, isInitializing: false, user: buildUser() });
  mockFetch(() => success({ preferences: { ...defaultPreferences, ...preferences } }));
  const queryClient = createQueryClient();
  const view = render(
    <MantineProvider env="test">
      <QueryClientProvider client={queryClient}>
        <PreferencesEffects />
      </QueryClientProvider>
    </MantineProvider>,
  );
  const loaded = () => waitFor(() => expect(queryClient.getQueryData(preferencesKeys.all)).toBeDefined());
  return { ...view, queryClient, loaded };
}

describe('PreferencesEffects', () => {
  it('tightens the spacing app-wide with compact view, and only then', async () => {
    const { queryClient, loaded } = renderEffects({ compactView: true });
    await loaded();
    await waitFor(() => expect(document.documentElement.getAttribute(DENSITY_ATTRIBUTE)).toBe('compact'));
    queryClient.setQueryData(preferencesKeys.all, { ...defaultPreferences, compactView: false });
    await waitFor(() => expect(document.documentElement.hasAttribute(DENSITY_ATTRIBUTE)).toBe(false));
  });

  it('drops compact view on sign-out', async () => {
    const { loaded } = renderEffects({ compactView: true });
    await loaded();
    await waitFor(() => expect(document.documentElement.hasAttribute(DENSITY_ATTRIBUTE)).toBe(true));
    useAuthStore.setState({ isAuthenticated: false, user: null });
    await waitFor(() => expect(document.documentElement.hasAttribute(DENSITY_ATTRIBUTE)).toBe(false));
  });

  it('chimes on a transfer toast when sound effects are on, and not on other toasts', async () => {
    chime.mockClear();
    const { loaded } = renderEffects({ soundEffects: true });
    await loaded();
    await waitFor(() => {
      toast.success(inventoryMessages.transferred);
      expect(chime).toHaveBeenCalled();
    });
    chime.mockClear();
    toast.success('Item updated');
    toast.error('Item transferred successfully');
    expect(chime).not.toHaveBeenCalled();
  });

  it('stays silent when sound effects are off (the default)', async () => {
    chime.mockClear();
    const { loaded } = renderEffects({});
    await loaded();
    toast.success(inventoryMessages.transferred);
    expect(chime).not.toHaveBeenCalled();
  });

  it('leaves the theme as the user left it when the saved preference differs (no flip at sign-in)', async () => {
    useUiStore.getState().setTheme('dark');
    const { loaded } = renderEffects({ theme: 'light' });
    await loaded();
    expect(useUiStore.getState().theme).toBe('dark');
    useAuthStore.setState({ isAuthenticated: false, user: null });
    expect(useUiStore.getState().theme).toBe('dark');
  });
});
