import { defaultPreferences } from '@haversack/contracts';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { THEME_STORAGE_KEY } from '../../../lib/theme-storage';
import { toast } from '../../../lib/toast';
import { useUiStore } from '../../../stores/ui-store';
import { failure, mockFetch, success } from '../../../test/fixtures';
import { useGlobalStyles } from '../../../test/global-styles';
import { renderRoutes } from '../../../test/render';
import { restoreViewportAfterEach, setViewport } from '../../../test/viewport';
import { PreferencesPage } from './preferences-page';

const routes = [{ path: '/profile/preferences', element: <PreferencesPage /> }];

describe('PreferencesPage', () => {
  it('shows the saved preferences and saves a change with PUT /users/preferences', async () => {
    const fetchMock = mockFetch(({ init }) =>
      init.method === 'PUT'
        ? success({ preferences: { ...defaultPreferences, compactView: true } })
        : success({ preferences: defaultPreferences }),
    );
    renderRoutes(routes, '/profile/preferences');
    const compact = await screen.findByRole('switch', { name: /Compact view/ });
    expect(compact).not.toBeChecked();
    await userEvent.setup().click(compact);
    await vi.waitFor(() => expect(screen.getByRole('switch', { name: /Compact view/ })).toBeChecked());
    const put = fetchMock.mock.calls.find(([, init]) => init?.method === 'PUT');
    expect(String(put?.[0])).toBe('/users/preferences');
    expect(JSON.parse(String(put?.[1]?.body))).toEqual({ preferences: { compactView: true } });
  });

  it('shows the theme in use and switches it at once, remembering it in this browser', async () => {
    useUiStore.getState().setTheme('dark');
    const fetchMock = mockFetch(({ init }) =>
      init.method === 'PUT'
        ? success({ preferences: { ...defaultPreferences, theme: 'light' } })
        : success({ preferences: { ...defaultPreferences, theme: 'light' } }),
    );
    renderRoutes(routes, '/profile/preferences');
    const dark = await screen.findByRole('radio', { name: 'Dark' });
    expect(dark).toBeChecked();
    await userEvent.setup().click(screen.getByRole('radio', { name: 'Light' }));
    expect(useUiStore.getState().theme).toBe('light');
    expect(window.localStorage.getItem(THEME_STORAGE_KEY)).toBe('light');
    await vi.waitFor(() =>
      expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'PUT')).toBe(true),
    );
  });

  describe('on a phone', () => {
    restoreViewportAfterEach();
    it('makes each theme a target at least 24 px tall, its label as tall (screen sweep: 20 px)', async () => {
      useGlobalStyles('InlineInput', 'Radio');
      setViewport(375, 812);
      mockFetch(() => success({ preferences: defaultPreferences }));
      renderRoutes(routes, '/profile/preferences');
      for (const name of ['Light', 'Dark']) {
        // The label is what a finger taps besides the 20 px circle: it chooses the theme as the circle does.
        const radio = await screen.findByRole('radio', { name });
        const label = radio instanceof HTMLInputElement ? radio.labels?.[0] : undefined;
        if (!label) throw new Error(`no label for ${name}`);
        expect(getComputedStyle(label).minHeight, name).toBe('24px');
        // The 20 px circle sits beside the taller label's middle, not at its top.
        const row = label.closest('.mantine-Radio-body');
        if (!row) throw new Error(`no row for ${name}`);
        expect(getComputedStyle(row).alignItems, name).toBe('center');
      }
    });
  });

  it('offers only preferences that do something: no dice animation', async () => {
    mockFetch(() => success({ preferences: defaultPreferences }));
    renderRoutes(routes, '/profile/preferences');
    expect(await screen.findByRole('switch', { name: /Compact view/ })).toBeInTheDocument();
    expect(screen.getAllByRole('switch').map((s) => s.getAttribute('data-testid'))).toEqual([
      'preference-compactView',
      'preference-notificationsEnabled',
      'preference-soundEffects',
      'preference-announcementEmails',
    ]);
    expect(screen.queryByText(/dice/i)).not.toBeInTheDocument();
  });

  it('turns announcement emails off, saying what they are and what still comes', async () => {
    const fetchMock = mockFetch(({ init }) =>
      init.method === 'PUT'
        ? success({ preferences: { ...defaultPreferences, announcementEmails: false } })
        : success({ preferences: defaultPreferences }),
    );
    renderRoutes(routes, '/profile/preferences');
    const section = await screen.findByRole('region', { name: 'Email' });
    const announcements = within(section).getByRole('switch', { name: /Announcements by email/ });
    expect(announcements).toBeChecked();
    expect(
      within(section).getByText(
        'Receive news and announcements from the Haversack team. Mails about your account, such as password resets, and service notices always reach you.',
      ),
    ).toBeInTheDocument();
    await userEvent.setup().click(announcements);
    await vi.waitFor(() =>
      expect(screen.getByRole('switch', { name: /Announcements by email/ })).not.toBeChecked(),
    );
    const put = fetchMock.mock.calls.find(([, init]) => init?.method === 'PUT');
    expect(JSON.parse(String(put?.[1]?.body))).toEqual({ preferences: { announcementEmails: false } });
  });

  it('shows announcement emails off when they were turned off (by the link in a mail, say)', async () => {
    mockFetch(() => success({ preferences: { ...defaultPreferences, announcementEmails: false } }));
    renderRoutes(routes, '/profile/preferences');
    expect(await screen.findByRole('switch', { name: /Announcements by email/ })).not.toBeChecked();
  });

  it('rolls back and toasts "Failed to update preferences" when the save fails', async () => {
    const toastError = vi.spyOn(toast, 'error');
    mockFetch(({ init }) =>
      init.method === 'PUT'
        ? failure(500, 'INTERNAL_SERVER_ERROR', 'boom')
        : success({ preferences: defaultPreferences }),
    );
    renderRoutes(routes, '/profile/preferences');
    await userEvent.setup().click(await screen.findByRole('switch', { name: /Sound effects/ }));
    await vi.waitFor(() => expect(toastError).toHaveBeenCalledWith('Failed to update preferences'));
    expect(screen.getByRole('switch', { name: /Sound effects/ })).not.toBeChecked();
  });

  it('toasts "Failed to fetch preferences" when they cannot be loaded', async () => {
    const toastError = vi.spyOn(toast, 'error');
    mockFetch(() => failure(403, 'FORBIDDEN', 'no'));
    renderRoutes(routes, '/profile/preferences');
    expect(await screen.findByText('Your preferences could not be loaded.')).toBeInTheDocument();
    expect(toastError).toHaveBeenCalledWith('Failed to fetch preferences');
    expect(toastError).toHaveBeenCalledTimes(1);
  });
});
