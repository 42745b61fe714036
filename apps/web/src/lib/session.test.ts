import { describe, expect, it, vi } from 'vitest';
import { useAuthStore } from '../stores/auth-store';
import { authHeaderOf, buildTokens, buildUser, failure, mockFetch, success } from '../test/fixtures';
import { initializeSession, signOut, startSessionEarly } from './session';
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
