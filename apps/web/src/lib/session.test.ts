import { describe, expect, it } from 'vitest';
import { useAuthStore } from '../stores/auth-store';
import { authHeaderOf, buildTokens, buildUser, failure, mockFetch, success } from '../test/fixtures';
import { initializeSession, signOut } from './session';
import { tokenStorage } from './token-storage';

describe('initializeSession (spec/01 §4 start-up)', () => {
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
