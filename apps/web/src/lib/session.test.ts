import { describe, expect, it, vi } from 'vitest';
import { useAuthStore } from '../stores/auth-store';
import { authHeaderOf, buildTokens, buildUser, failure, mockFetch, success } from '../test/fixtures';
import {
  followUserOfOtherTabs,
  initializeSession,
  recheckUnverifiedUser,
  signOut,
  startSessionEarly,
} from './session';
import { tokenStorage } from './token-storage';

describe('initializeSession (spec/01 §4 start-up)', () => {
  it('started before React mounts, is taken over by the session manager: the user is asked for once', async () => {
    tokenStorage.setTokens(buildTokens());
    const user = buildUser();
    let answer: (response: Response) => void = () => undefined;
    const fetchMock = mockFetch(() => new Promise<Response>((resolve) => (answer = resolve)));
    startSessionEarly();
    expect(useAuthStore.getState().isInitializing).toBe(true);
    // The session manager mounts while the request is still travelling, and again once it has ended.
    const takenOver = initializeSession();
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    answer(success({ user }));
    await takenOver;
    expect(useAuthStore.getState()).toMatchObject({ isAuthenticated: true, isInitializing: false, user });
    expect(fetchMock.mock.calls.map(([url]) => String(url))).toEqual(['/api/v1/auth/me']);
    // Taken over once: a later start-up (a remount) asks again, as before.
    fetchMock.mockImplementation(async () => success({ user }));
    await initializeSession();
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('without a token is signed out at once, without calling the server', async () => {
    const fetchMock = mockFetch(() => success({}));
    await initializeSession();
    expect(fetchMock).not.toHaveBeenCalled();
    expect(useAuthStore.getState()).toMatchObject({
      isAuthenticated: false,
      isInitializing: false,
      user: null,
    });
  });

  it('refreshes a token that expires within 120 s, then loads the user with the new token', async () => {
    tokenStorage.setTokens(buildTokens({ token: 'old', refresh_token: 'refresh-old' }, 90_000));
    const user = buildUser();
    const fetchMock = mockFetch(({ url }) => {
      if (url.endsWith('/auth/refresh'))
        return success(buildTokens({ token: 'new', refresh_token: 'refresh-new' }));
      if (url.endsWith('/auth/me')) return success({ user });
      return failure(404, 'RESOURCE_NOT_FOUND', 'no');
    });
    await initializeSession();
    expect(fetchMock.mock.calls.map(([url]) => String(url))).toEqual([
      '/api/v1/auth/refresh',
      '/api/v1/auth/me',
    ]);
    expect(authHeaderOf(fetchMock.mock.calls[1]?.[1])).toBe('Bearer new');
    expect(tokenStorage.getRefreshToken()).toBe('refresh-new');
    expect(useAuthStore.getState()).toMatchObject({ isAuthenticated: true, isInitializing: false, user });
  });

  it('refreshes an already expired token', async () => {
    tokenStorage.setTokens(buildTokens({ token: 'old' }, -60_000));
    const fetchMock = mockFetch(({ url }) =>
      url.endsWith('/auth/refresh') ? success(buildTokens({ token: 'new' })) : success({ user: buildUser() }),
    );
    await initializeSession();
    expect(String(fetchMock.mock.calls[0]?.[0])).toBe('/api/v1/auth/refresh');
    expect(useAuthStore.getState().isAuthenticated).toBe(true);
  });

  it('loads the user directly when the token has more than 120 s left', async () => {
    tokenStorage.setTokens(buildTokens({ token: 'good' }, 10 * 60_000));
    const fetchMock = mockFetch(() => success({ user: buildUser() }));
    await initializeSession();
    expect(fetchMock.mock.calls.map(([url]) => String(url))).toEqual(['/api/v1/auth/me']);
    expect(useAuthStore.getState().isAuthenticated).toBe(true);
  });

  it('ends signed out, with the error kept and storage cleared, when the refresh is refused', async () => {
    tokenStorage.setTokens(buildTokens({}, 30_000));
    mockFetch(() => failure(401, 'REVOKED_TOKEN', 'revoked'));
    await initializeSession();
    expect(useAuthStore.getState()).toMatchObject({ isAuthenticated: false, isInitializing: false });
    expect(useAuthStore.getState().error).toBeTruthy();
    expect(tokenStorage.getAccessToken()).toBeNull();
  });
});

describe('signOut', () => {
  it('clears the session even when the server call fails', async () => {
    tokenStorage.setTokens(buildTokens());
    useAuthStore.setState({ isAuthenticated: true, isInitializing: false, user: buildUser() });
    const fetchMock = mockFetch(() => {
      throw new TypeError('Failed to fetch');
    });
    await signOut();
    expect(String(fetchMock.mock.calls[0]?.[0])).toBe('/api/v1/auth/logout');
    expect(fetchMock.mock.calls[0]?.[1]?.method).toBe('DELETE');
    expect(tokenStorage.getAccessToken()).toBeNull();
    expect(useAuthStore.getState()).toMatchObject({ isAuthenticated: false, user: null });
  });
});

describe('a user changed outside this tab', () => {
  it('is adopted from another tab’s storage: the address verified there is verified here', async () => {
    const unverified = buildUser({ email_verified: false });
    tokenStorage.setTokens(buildTokens());
    useAuthStore.setState({ isAuthenticated: true, isInitializing: false, user: unverified });
    const stop = followUserOfOtherTabs();
    try {
      const verified = { ...unverified, email_verified: true };
      // What the other tab's write looks like from here.
      window.localStorage.setItem('user', JSON.stringify(verified));
      window.dispatchEvent(new StorageEvent('storage', { key: 'user', newValue: JSON.stringify(verified) }));
      await vi.waitFor(() => expect(useAuthStore.getState().user?.email_verified).toBe(true));

      // Someone else's user (another account signed in there) is not taken.
      const other = buildUser({ id: 'someone-else', email_verified: false });
      window.localStorage.setItem('user', JSON.stringify(other));
      window.dispatchEvent(new StorageEvent('storage', { key: 'user', newValue: JSON.stringify(other) }));
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(useAuthStore.getState().user?.id).toBe(unverified.id);
    } finally {
      stop();
    }
  });

  it('asks the server again about an unverified address, and only then', async () => {
    const unverified = buildUser({ email_verified: false });
    tokenStorage.setTokens(buildTokens());
    useAuthStore.setState({ isAuthenticated: true, isInitializing: false, user: unverified });
    const fetchMock = mockFetch(() => success({ user: { ...unverified, email_verified: true } }));
    await recheckUnverifiedUser();
    expect(fetchMock.mock.calls.map(([url]) => String(url))).toEqual(['/api/v1/auth/me']);
    expect(useAuthStore.getState().user?.email_verified).toBe(true);
    await recheckUnverifiedUser();
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
});
