import type { SignedInSession } from '@haversack/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tokenStorage } from '../../../lib/token-storage';
import { useAuthStore } from '../../../stores/auth-store';
import { useUiStore } from '../../../stores/ui-store';
import { buildTokens, buildUser, failure, mockFetch, success } from '../../../test/fixtures';
import { renderRoutes } from '../../../test/render';
import { SignedInDevicesSection } from './signed-in-devices-section';

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

function device(overrides: Partial<SignedInSession>): SignedInSession {
  return {
    id: 'session-this',
    device: 'Firefox on Windows',
    user_agent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0',
    ip_address: '192.168.1.20',
    created_at: minutesAgo(600),
    last_used_at: minutesAgo(1),
    current: true,
    ...overrides,
  };
}

const thisLaptop = device({});
const phone = device({
  id: 'session-phone',
  device: 'Chrome on Android',
  user_agent: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) Chrome/131.0.0.0 Mobile Safari/537.36',
  last_used_at: minutesAgo(125),
  current: false,
});
const tablet = device({ id: 'session-tablet', device: 'Safari on iOS', current: false, ip_address: null });

function renderSection() {
  tokenStorage.setTokens(buildTokens({ token: 'access-1' }));
  useAuthStore.setState({ isAuthenticated: true, isInitializing: false, user: buildUser() });
  return renderRoutes([{ path: '/profile', element: <SignedInDevicesSection /> }], '/profile');
}

const toastMessages = () => useUiStore.getState().toasts.map((t) => t.message);
const callsTo = (fetchMock: ReturnType<typeof mockFetch>, method: string, path: string) =>
  fetchMock.mock.calls.filter(
    ([url, init]) => String(url).endsWith(path) && (init?.method ?? 'GET') === method,
  );

afterEach(() => {
  vi.restoreAllMocks();
  tokenStorage.clear();
  useUiStore.setState({ toasts: [] });
});

describe('Signed-in devices', { timeout: 30_000 }, () => {
  it('keeps a date’s capital in "Last active": only "just now" is lowercased mid-sentence', async () => {
    const old = device({ id: 'session-old', current: false, last_used_at: '2026-02-03T10:00:00.000Z' });
    const fresh = device({ id: 'session-fresh', device: 'Safari on iOS', current: false });
    mockFetch(({ url }) =>
      url.endsWith('/users/me/sessions')
        ? success([thisLaptop, old, { ...fresh, last_used_at: new Date().toISOString() }])
        : failure(404, 'RESOURCE_NOT_FOUND', 'not found'),
    );
    renderSection();
    const section = screen.getByRole('region', { name: 'Signed-in devices' });
    const rows = await within(section).findAllByTestId('signed-in-device');
    expect(rows[1]).toHaveTextContent('Last active Feb 3, 2026');
    expect(rows[2]).toHaveTextContent('Last active just now');
  });

  it('lists this device first, the others with their last activity, and signs one out', async () => {
    let listed = [thisLaptop, phone, tablet];
    const fetchMock = mockFetch(({ url, init }) => {
      if (url.endsWith('/users/me/sessions/session-phone') && init.method === 'DELETE') {
        listed = listed.filter((s) => s.id !== 'session-phone');
        return new Response(null, { status: 204 });
      }
      if (url.endsWith('/users/me/sessions')) return success(listed);
      return failure(404, 'RESOURCE_NOT_FOUND', 'not found');
    });
    const user = userEvent.setup();
    renderSection();
    const section = screen.getByRole('region', { name: 'Signed-in devices' });
    const rows = await within(section).findAllByTestId('signed-in-device');
    expect(rows.map((row) => row.textContent)).toEqual([
      expect.stringMatching(/^Firefox on Windows\s*This device.*Active now/),
      expect.stringMatching(/^Chrome on Android.*Last active 2h ago.*Address 192\.168\.1\.20/),
      expect.stringMatching(/^Safari on iOS/),
    ]);
    expect(within(rows[0] as HTMLElement).queryByRole('button')).toBeNull();

    await user.click(within(section).getByRole('button', { name: /^Sign out Chrome on Android/ }));
    await waitFor(() => expect(within(section).getAllByTestId('signed-in-device')).toHaveLength(2));
    expect(callsTo(fetchMock, 'DELETE', '/users/me/sessions/session-phone')).toHaveLength(1);
    await waitFor(() => expect(toastMessages()).toContain('Chrome on Android has been signed out.'));
    expect(within(section).queryByText('Chrome on Android')).toBeNull();
    // The pressed button went with its row: the focus lands on the list's heading, not on <body>.
    await waitFor(() =>
      expect(within(section).getByRole('heading', { name: 'Signed-in devices' })).toHaveFocus(),
    );
  });

  it('signs out every other device after a confirmation, then says only this one is left', async () => {
    let listed = [thisLaptop, phone, tablet];
    const fetchMock = mockFetch(({ url, init }) => {
      if (url.endsWith('/users/me/sessions/sign_out_others') && init.method === 'POST') {
        listed = [thisLaptop];
        return success({ ended: 2, message: 'Signed out of 2 other devices. Your API tokens keep working.' });
      }
      if (url.endsWith('/users/me/sessions')) return success(listed);
      return failure(404, 'RESOURCE_NOT_FOUND', 'not found');
    });
    const user = userEvent.setup();
    renderSection();
    const section = screen.getByRole('region', { name: 'Signed-in devices' });
    await user.click(await within(section).findByRole('button', { name: 'Sign out all other devices' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sign out all other devices?' });
    expect(dialog).toHaveTextContent('2 other devices will be signed out at once');
    // Scripts signed in with an API token are not devices: the dialog says they keep working.
    expect(dialog).toHaveTextContent('Your API tokens keep working.');
    // Cancelling changes nothing.
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(callsTo(fetchMock, 'POST', '/users/me/sessions/sign_out_others')).toHaveLength(0);

    await user.click(within(section).getByRole('button', { name: 'Sign out all other devices' }));
    const again = await screen.findByRole('dialog', { name: 'Sign out all other devices?' });
    await user.click(within(again).getByRole('button', { name: 'Sign out' }));
    await waitFor(() =>
      expect(toastMessages()).toContain('Signed out of 2 other devices. Your API tokens keep working.'),
    );
    expect(await within(section).findByTestId('signed-in-devices-only-this')).toHaveTextContent(
      'No other device is signed in.',
    );
    expect(within(section).queryByRole('button', { name: 'Sign out all other devices' })).toBeNull();
    expect(callsTo(fetchMock, 'POST', '/users/me/sessions/sign_out_others')).toHaveLength(1);
  });

  it('says that signing out leaves API tokens working, and links to where they are revoked', async () => {
    mockFetch(({ url }) =>
      url.endsWith('/users/me/sessions')
        ? success([thisLaptop, phone])
        : failure(404, 'RESOURCE_NOT_FOUND', 'x'),
    );
    renderSection();
    const section = screen.getByRole('region', { name: 'Signed-in devices' });
    expect(within(section).getByTestId('signed-in-devices-api-tokens')).toHaveTextContent(
      'Signing out does not revoke your API tokens: they keep working until you revoke them under API tokens.',
    );
    expect(within(section).getByRole('link', { name: 'API tokens' })).toHaveAttribute('href', '#api-tokens');
  });

  it('says when the list cannot be read, and reads it again on Try again', async () => {
    let attempts = 0;
    mockFetch(({ url }) => {
      if (!url.endsWith('/users/me/sessions')) return failure(404, 'RESOURCE_NOT_FOUND', 'not found');
      attempts += 1;
      return attempts <= 2
        ? failure(503, 'SERVICE_UNAVAILABLE', 'Service unavailable')
        : success([thisLaptop]);
    });
    const user = userEvent.setup();
    renderSection();
    const section = screen.getByRole('region', { name: 'Signed-in devices' });
    expect(
      await within(section).findByText('Could not load your signed-in devices', {}, { timeout: 10_000 }),
    ).toBeInTheDocument();
    await user.click(within(section).getByRole('button', { name: /try again/i }));
    expect(await within(section).findByText('Firefox on Windows')).toBeInTheDocument();
  });
});
