import { MantineProvider } from '@mantine/core';
import { adapters } from '@rails/actioncable';
import { QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { CharacterListPage } from '../features/characters/pages/character-list-page';
import { getConsumer } from '../lib/cable';
import { queryClient } from '../lib/query-client';
import { signIn } from '../lib/session';
import { emitSessionExpired } from '../lib/session-events';
import { tokenStorage } from '../lib/token-storage';
import { useAuthStore } from '../stores/auth-store';
import { FakeSocket } from '../test/fake-socket';
import { buildTokens, buildUser, jsonResponse, mockFetch, success } from '../test/fixtures';
import { buildCharacter, pageMeta } from '../test/party-fixtures';
import { inactivityMessage, SessionManager } from './session-manager';
import { theme } from './theme';
import { LAST_ACTIVITY_KEY } from './use-shared-idle';

/** Signed in under fake timers, the session manager started: answers the stubbed `alert`. */
async function signedInWithFakeClock() {
  vi.useFakeTimers();
  const alert = vi.fn();
  vi.stubGlobal('alert', alert);
  tokenStorage.setTokens(buildTokens({}, 60 * 60_000));
  mockFetch(({ url }) => {
    if (url.endsWith('/auth/me')) return success({ user: buildUser() });
    if (url.endsWith('/auth/refresh')) return success(buildTokens({ token: 'renewed' }, 60 * 60_000));
    return new Response(null, { status: 204 });
  });
  render(<SessionManager />);
  await act(async () => {
    await vi.advanceTimersByTimeAsync(0);
  });
  return alert;
}

describe('SessionManager', () => {
  it('checks the token every 60 s and refreshes one that expires within 120 s', async () => {
    vi.useFakeTimers();
    tokenStorage.setTokens(buildTokens({ token: 'a' }, 10 * 60_000));
    const fetchMock = mockFetch(({ url }) =>
      url.endsWith('/auth/refresh')
        ? success(buildTokens({ token: 'b' }, 10 * 60_000))
        : success({ user: buildUser() }),
    );
    render(<SessionManager />);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(0);
    });
    expect(useAuthStore.getState().isAuthenticated).toBe(true);
    const refreshCalls = () =>
      fetchMock.mock.calls.filter(([url]) => String(url).endsWith('/auth/refresh')).length;
    expect(refreshCalls()).toBe(0);

    // Seven minutes on, the token has 3 min left: still outside the buffer.
    await act(async () => {
      await vi.advanceTimersByTimeAsync(7 * 60_000);
    });
    expect(refreshCalls()).toBe(0);

    // Two more minutes: 1 min left, inside the 120 s buffer, so the next check refreshes.
    await act(async () => {
      await vi.advanceTimersByTimeAsync(2 * 60_000);
    });
    expect(refreshCalls()).toBe(1);
    expect(tokenStorage.getAccessToken()).toBe('b');
  });

  it('sees an address verified elsewhere when the tab comes back into view', async () => {
    tokenStorage.setTokens(buildTokens());
    let verified = false;
    const fetchMock = mockFetch(() => success({ user: buildUser({ email_verified: verified }) }));
    render(<SessionManager />);
    await vi.waitFor(() => expect(useAuthStore.getState().isAuthenticated).toBe(true));
    expect(useAuthStore.getState().user?.email_verified).toBe(false);
    // The mailed link is followed on a phone; this tab is looked at again.
    verified = true;
    act(() => {
      window.dispatchEvent(new Event('focus'));
    });
    await vi.waitFor(() => expect(useAuthStore.getState().user?.email_verified).toBe(true));
    expect(fetchMock.mock.calls.filter(([url]) => String(url).endsWith('/auth/me'))).toHaveLength(2);
  });

  it('logs out on the session-expired event', async () => {
    tokenStorage.setTokens(buildTokens());
    const fetchMock = mockFetch(({ url }) =>
      url.endsWith('/auth/me') ? success({ user: buildUser() }) : new Response(null, { status: 204 }),
    );
    render(<SessionManager />);
    await vi.waitFor(() => expect(useAuthStore.getState().isAuthenticated).toBe(true));
    act(() => emitSessionExpired());
    await vi.waitFor(() => expect(useAuthStore.getState().isAuthenticated).toBe(false));
    expect(fetchMock.mock.calls.some(([url]) => String(url).endsWith('/auth/logout'))).toBe(true);
  });

  it('logs out after 30 minutes without activity, with the spec alert', async () => {
    const alert = await signedInWithFakeClock();
    expect(useAuthStore.getState().isAuthenticated).toBe(true);

    await act(async () => {
      await vi.advanceTimersByTimeAsync(29 * 60_000);
      document.dispatchEvent(new Event('mousemove'));
      await vi.advanceTimersByTimeAsync(29 * 60_000);
    });
    expect(useAuthStore.getState().isAuthenticated).toBe(true);

    await act(async () => {
      await vi.advanceTimersByTimeAsync(60_000 + 1);
    });
    expect(useAuthStore.getState().isAuthenticated).toBe(false);
    expect(alert).toHaveBeenCalledWith(inactivityMessage);
    expect(inactivityMessage).toBe('Your session has expired due to inactivity. Please log in again.');
  });

  it('stays signed in while another tab of the browser is in use', async () => {
    const alert = await signedInWithFakeClock();
    // Nothing happens in this tab for 50 minutes; the other tab, in use, notes its activity as it goes.
    for (let minute = 5; minute <= 50; minute += 5) {
      await act(async () => {
        await vi.advanceTimersByTimeAsync(5 * 60_000);
        window.localStorage.setItem(LAST_ACTIVITY_KEY, String(Date.now()));
      });
    }
    expect(useAuthStore.getState().isAuthenticated).toBe(true);
    expect(alert).not.toHaveBeenCalled();

    // Then nobody, anywhere, for 30 minutes.
    await act(async () => {
      await vi.advanceTimersByTimeAsync(30 * 60_000 + 1);
    });
    expect(useAuthStore.getState().isAuthenticated).toBe(false);
    expect(alert).toHaveBeenCalledWith(inactivityMessage);
  });

  it('logs out at start-up a session whose last activity, noted before the reload, is 30 minutes old', async () => {
    // spec/01 §4: a reload is not activity; the clock the other tabs kept goes on.
    window.localStorage.setItem(LAST_ACTIVITY_KEY, String(Date.now() - 31 * 60_000));
    const alert = await signedInWithFakeClock();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(0);
    });
    expect(useAuthStore.getState().isAuthenticated).toBe(false);
    expect(alert).toHaveBeenCalledWith(inactivityMessage);
  });

  it('keeps at start-up a session active less than 30 minutes ago, counting from that activity', async () => {
    window.localStorage.setItem(LAST_ACTIVITY_KEY, String(Date.now() - 29 * 60_000));
    const alert = await signedInWithFakeClock();
    expect(useAuthStore.getState().isAuthenticated).toBe(true);
    expect(alert).not.toHaveBeenCalled();
    // The 30 minutes end one minute after the reload, not 30.
    await act(async () => {
      await vi.advanceTimersByTimeAsync(60_000 + 1);
    });
    expect(useAuthStore.getState().isAuthenticated).toBe(false);
    expect(alert).toHaveBeenCalledWith(inactivityMessage);
  });

  it('starts the clock anew for a session begun by signing in, whatever an earlier one noted', async () => {
    vi.useFakeTimers();
    const alert = vi.fn();
    vi.stubGlobal('alert', alert);
    window.localStorage.setItem(LAST_ACTIVITY_KEY, String(Date.now() - 3 * 60 * 60_000));
    mockFetch(({ url }) => {
      if (url.endsWith('/auth/login')) return success({ user: buildUser(), ...buildTokens({}, 60 * 60_000) });
      if (url.endsWith('/auth/me')) return success({ user: buildUser() });
      return new Response(null, { status: 204 });
    });
    render(<SessionManager />);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(0);
    });
    expect(useAuthStore.getState().isAuthenticated).toBe(false);
    await act(async () => {
      await signIn({ email: 'ranger@example.com', password: 'Secret123' });
      await vi.advanceTimersByTimeAsync(0);
    });
    expect(useAuthStore.getState().isAuthenticated).toBe(true);
    expect(alert).not.toHaveBeenCalled();
  });

  it('asks again for a list that failed while the server was down once the real-time socket is back', async () => {
    const realWebSocket = adapters.WebSocket;
    adapters.WebSocket = FakeSocket as unknown as typeof WebSocket;
    tokenStorage.setTokens(buildTokens());
    let serverUp = false;
    mockFetch(({ url }) => {
      // Signed in before the server went away; everything after is refused until it is back.
      if (url.endsWith('/auth/me')) return success({ user: buildUser() });
      if (!serverUp) throw new TypeError('Failed to fetch');
      return jsonResponse(200, {
        status: 'success',
        data: [buildCharacter({ name: 'Aria' })],
        meta: pageMeta(1, 12),
      });
    });
    try {
      render(
        <MantineProvider env="test" theme={theme}>
          <QueryClientProvider client={queryClient}>
            <MemoryRouter>
              <SessionManager />
              <CharacterListPage />
            </MemoryRouter>
          </QueryClientProvider>
        </MantineProvider>,
      );
      // A page with live updates has opened the socket; the server drops it as it stops.
      const consumer = await vi.waitFor(() => {
        const current = getConsumer();
        if (!current) throw new Error('no consumer yet');
        return current;
      });
      consumer.subscriptions.create({ channel: 'PartyChannel', party_id: 'party-1' }, {});
      FakeSocket.opened.at(-1)?.close();
      expect(await screen.findByText('Failed to load characters')).toBeInTheDocument();

      // The server is back: the client's connection monitor reopens the socket and the server welcomes it.
      serverUp = true;
      act(() => {
        consumer.ensureActiveConnection();
        FakeSocket.opened.at(-1)?.accept();
      });
      expect(await screen.findByText('Aria')).toBeInTheDocument();
      expect(screen.queryByText('Failed to load characters')).not.toBeInTheDocument();
    } finally {
      // Signed out while still mounted: the socket closes with the session.
      tokenStorage.clear();
      adapters.WebSocket = realWebSocket;
      FakeSocket.opened = [];
      queryClient.clear();
    }
  });
});
