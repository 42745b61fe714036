import { beforeEach, describe, expect, it, vi } from 'vitest';
import { useAuthStore } from '../stores/auth-store';
import { useUiStore } from '../stores/ui-store';
import { authHeaderOf, buildTokens, buildUser, failure, mockFetch, success } from '../test/fixtures';
import { setAppNavigator } from './app-navigation';
import { API_V1, apiRequest, signedOutInAnotherTab } from './http-client';
import {
  afterSignInTarget,
  followSessionOfOtherTabs,
  initializeSession,
  recheckUnverifiedUser,
  refreshIfExpiring,
  signedInAsInAnotherTab,
  signOut,
  startSessionEarly,
} from './session';
import { noteSessionEnd } from './session-end-note';
import { onSessionExpired } from './session-events';
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

/** What another tab's write or clear of the shared storage looks like from here. */
function otherTabWrites(key: string, value: string | null) {
  if (value === null) window.localStorage.removeItem(key);
  else window.localStorage.setItem(key, value);
  window.dispatchEvent(new StorageEvent('storage', { key, newValue: value }));
}

function otherTabSignsOut() {
  for (const key of ['auth_token', 'refresh_token', 'token_expires_at']) window.localStorage.removeItem(key);
  otherTabWrites('user', null);
}

const lastToast = () => useUiStore.getState().toasts.at(-1)?.message;

// Test files share a worker: toasts another file left in the store are not this file's.
beforeEach(() => useUiStore.setState({ toasts: [] }));

describe('a user changed outside this tab', () => {
  it('is adopted from another tab’s storage: the address verified there is verified here', async () => {
    const unverified = buildUser({ email_verified: false });
    tokenStorage.setTokens(buildTokens());
    useAuthStore.setState({ isAuthenticated: true, isInitializing: false, user: unverified });
    const stop = followSessionOfOtherTabs();
    try {
      const verified = { ...unverified, email_verified: true };
      otherTabWrites('user', JSON.stringify(verified));
      await vi.waitFor(() => expect(useAuthStore.getState().user?.email_verified).toBe(true));
      expect(useUiStore.getState().toasts).toHaveLength(0);
    } finally {
      stop();
    }
  });

  it('follows another account signed in there: its own screens, nothing of the last one cached, and says so', async () => {
    const cara = buildUser({ id: 'cara', username: 'cara' });
    tokenStorage.setTokens(buildTokens({ token: 'cara-token' }));
    useAuthStore.setState({ isAuthenticated: true, isInitializing: false, user: cara });
    const { loadQueryClient } = await import('./query-client-loader');
    const queryClient = await loadQueryClient();
    queryClient.setQueryData(['parties', 'mine'], [{ id: 'caras-party' }]);
    const navigate = vi.fn();
    setAppNavigator(navigate);
    const expired = vi.fn();
    const stopListening = onSessionExpired(expired);
    const stop = followSessionOfOtherTabs();
    try {
      otherTabSignsOut();
      await vi.waitFor(() => expect(expired).toHaveBeenCalledTimes(1));
      // This tab has not drawn its sign-out yet (the session manager does), when dan signs in there.
      tokenStorage.setTokens(buildTokens({ token: 'dan-token' }));
      const dan = buildUser({ id: 'dan', username: 'dan' });
      otherTabWrites('user', JSON.stringify(dan));
      await vi.waitFor(() => expect(useAuthStore.getState().user?.id).toBe('dan'));
      expect(useAuthStore.getState().isAuthenticated).toBe(true);
      expect(queryClient.getQueryData(['parties', 'mine'])).toBeUndefined();
      expect(navigate).toHaveBeenCalledWith('/dashboard');
      expect(lastToast()).toBe(signedInAsInAnotherTab('dan'));
      // The warning that cara's session ended went with it.
      expect(useUiStore.getState().toasts.map((t) => t.message)).toEqual([signedInAsInAnotherTab('dan')]);
    } finally {
      stop();
      stopListening();
      setAppNavigator(null);
    }
  });

  it('signed out here, takes the session signed in there, and says whose it is', async () => {
    const dan = buildUser({ id: 'dan', username: 'dan' });
    const cara = buildUser({ id: 'cara', username: 'cara' });
    const navigate = vi.fn();
    setAppNavigator(navigate);
    const stop = followSessionOfOtherTabs();
    const signInThere = async (user: typeof dan) => {
      tokenStorage.setTokens(buildTokens());
      otherTabWrites('user', JSON.stringify(user));
      await vi.waitFor(() => expect(useAuthStore.getState()).toMatchObject({ isAuthenticated: true, user }));
      expect(lastToast()).toBe(signedInAsInAnotherTab(user.username));
    };
    try {
      // Dan signed out here, then back in there: the sign-in page sends him back where he was by itself.
      useAuthStore.setState({ isAuthenticated: true, isInitializing: false, user: dan });
      useAuthStore.setState({ isAuthenticated: false, user: null });
      await signInThere(dan);
      expect(navigate).not.toHaveBeenCalled();
      expect(afterSignInTarget('/parties/new')).toBe('/parties/new');
      // Cara signs in there: where dan was to return is not hers to see.
      useAuthStore.setState({ isAuthenticated: false, user: null });
      await signInThere(cara);
      expect(afterSignInTarget('/parties/new')).toBe('/dashboard');
    } finally {
      stop();
      setAppNavigator(null);
    }
  });
});

describe('a session ended in another tab', () => {
  it('ends here at once, in the words that tab noted, instead of failing every request silently', async () => {
    tokenStorage.setTokens(buildTokens());
    useAuthStore.setState({ isAuthenticated: true, isInitializing: false, user: buildUser() });
    const fetchMock = mockFetch(() => failure(401, 'UNAUTHORIZED', 'Please log in to continue'));
    const expired = vi.fn();
    const stopListening = onSessionExpired(expired);
    const stop = followSessionOfOtherTabs();
    try {
      noteSessionEnd(signedOutInAnotherTab);
      otherTabSignsOut();
      await vi.waitFor(() => expect(expired).toHaveBeenCalledTimes(1));
      expect(lastToast()).toBe(signedOutInAnotherTab);
      // Nothing to ask the server: there is no token left to refresh.
      expect(fetchMock).not.toHaveBeenCalled();
    } finally {
      stop();
      stopListening();
    }
  });

  it('is found by the periodic check too, and an inactivity sign-out there says so here', async () => {
    tokenStorage.setTokens(buildTokens());
    useAuthStore.setState({ isAuthenticated: true, isInitializing: false, user: buildUser() });
    mockFetch(() => failure(401, 'UNAUTHORIZED', 'Please log in to continue'));
    const inactivity = 'Your session has expired due to inactivity. Please log in again.';
    noteSessionEnd(inactivity);
    // The storage event missed (a frozen tab): the tokens are simply gone.
    for (const key of ['auth_token', 'refresh_token', 'token_expires_at', 'user']) {
      window.localStorage.removeItem(key);
    }
    const expired = vi.fn();
    const stopListening = onSessionExpired(expired);
    try {
      await refreshIfExpiring();
      expect(expired).toHaveBeenCalledTimes(1);
      expect(lastToast()).toBe(inactivity);
    } finally {
      stopListening();
    }
  });

  it('sends no refresh that the sign-out under way revokes (a laptop waking: the token check fires first)', async () => {
    // The token ran out while the laptop slept: the periodic check and the inactivity sign-out fire together.
    tokenStorage.setTokens(buildTokens({}, 30_000));
    useAuthStore.setState({ isAuthenticated: true, isInitializing: false, user: buildUser() });
    const fetchMock = mockFetch(({ url }) =>
      url.endsWith('/auth/logout')
        ? new Response(null, { status: 204 })
        : failure(401, 'REVOKED_TOKEN', 'Token has been revoked'),
    );
    const inactivity = 'Your session has expired due to inactivity. Please log in again.';
    const checking = refreshIfExpiring();
    const signingOut = signOut(inactivity);
    await Promise.all([checking, signingOut]);
    // Only the sign-out reached the server: not POST /auth/refresh with the refresh token it revokes.
    expect(fetchMock.mock.calls.map(([url]) => String(url))).toEqual(['/api/v1/auth/logout']);
    expect(useAuthStore.getState()).toMatchObject({ isAuthenticated: false, user: null });
  });

  it('is not told about its own sign-out: the reason is for the other tabs', async () => {
    tokenStorage.setTokens(buildTokens());
    useAuthStore.setState({ isAuthenticated: true, isInitializing: false, user: buildUser() });
    mockFetch(() => success({}));
    const inactivity = 'Your session has expired due to inactivity. Please log in again.';
    const signingOut = signOut(inactivity);
    // The periodic check, due at the same moment (a laptop waking up), leaves a sign-out under way alone.
    await refreshIfExpiring();
    await signingOut;
    expect(useUiStore.getState().toasts).toHaveLength(0);
    expect(window.localStorage.getItem('haversack_session_end')).toContain(inactivity);
  });
});

describe('a request of this tab refused as it signs out (keyboard review, defect 3)', () => {
  /**
   * This tab signs out while one of its requests is in flight: the server revokes the session (the logout
   * answers at once or after the request), and the request, still carrying the old token, is refused.
   */
  async function signOutDuring(requestAnswers: 'before the logout answers' | 'after the sign-out') {
    tokenStorage.setTokens(buildTokens());
    useAuthStore.setState({ isAuthenticated: true, isInitializing: false, user: buildUser() });
    let revoked!: () => void;
    const revocation = new Promise<void>((resolve) => {
      revoked = resolve;
    });
    let signedOut!: () => void;
    const signOutDone = new Promise<void>((resolve) => {
      signedOut = resolve;
    });
    const fetchMock = mockFetch(async ({ url }) => {
      if (url.endsWith('/auth/logout')) {
        revoked();
        if (requestAnswers === 'before the logout answers') await new Promise((r) => setTimeout(r, 30));
        return new Response(null, { status: 204 });
      }
      if (url.endsWith('/auth/refresh'))
        return failure(401, 'REVOKED_TOKEN', 'Your session has been terminated');
      await revocation;
      if (requestAnswers === 'after the sign-out') await signOutDone;
      return failure(401, 'REVOKED_TOKEN', 'Your session has been terminated');
    });
    const expired = vi.fn();
    const stopListening = onSessionExpired(expired);
    try {
      const request = apiRequest(`${API_V1}/parties`).catch((error: unknown) => error);
      await signOut();
      signedOut();
      await request;
      return { expired, fetchMock };
    } finally {
      stopListening();
    }
  }

  for (const when of ['before the logout answers', 'after the sign-out'] as const) {
    it(`does not say "You signed out in another tab" in the tab that signed out (refused ${when})`, async () => {
      const { expired } = await signOutDuring(when);
      expect(useUiStore.getState().toasts.map((t) => t.message)).toEqual([]);
      expect(expired).not.toHaveBeenCalled();
      // The other tabs still learn why, from the note.
      expect(window.localStorage.getItem('haversack_session_end')).toContain(signedOutInAnotherTab);
    });
  }

  it('still says it when another tab ends a later session this tab holds', async () => {
    await signOutDuring('after the sign-out');
    // Signed in again (a new token), then another tab signs out: this tab is told.
    tokenStorage.setTokens(buildTokens({ token: 'access-2', refresh_token: 'refresh-2' }));
    useAuthStore.setState({ isAuthenticated: true, isInitializing: false, user: buildUser() });
    mockFetch(() => {
      noteSessionEnd(signedOutInAnotherTab);
      tokenStorage.clear();
      return failure(401, 'REVOKED_TOKEN', 'Your session has been terminated');
    });
    await apiRequest(`${API_V1}/parties`).catch(() => undefined);
    expect(lastToast()).toBe(signedOutInAnotherTab);
  });
});

describe('an unverified address', () => {
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
