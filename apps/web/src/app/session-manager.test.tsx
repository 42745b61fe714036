import { act, render } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { emitSessionExpired } from '../lib/session-events';
import { tokenStorage } from '../lib/token-storage';
import { useAuthStore } from '../stores/auth-store';
import { buildTokens, buildUser, mockFetch, success } from '../test/fixtures';
import { inactivityMessage, SessionManager } from './session-manager';

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
});
