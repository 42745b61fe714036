import {
  type AuthSession,
  type LoginBody,
  type Registration,
  TOKEN_REFRESH_BUFFER_MS,
  type User,
} from '@haversack/contracts';
import { useAuthStore } from '../stores/auth-store';
import { useUiStore } from '../stores/ui-store';
import { navigateInApp } from './app-navigation';
import { loginRequest, logoutRequest, meRequest, registerRequest } from './auth-api';
import { cableNeedsFreshToken } from './cable-status';
import { isApiError, refreshSession, signedOutInAnotherTab } from './http-client';
import { loadedQueryClient } from './query-client-loader';
import { DEFAULT_AFTER_LOGIN, safeRedirectTarget } from './redirect';
import { noteSessionEnd } from './session-end-note';
import { dismissToast, toast } from './toast';
import { storageKeys, tokenExpiresWithin, tokenStorage } from './token-storage';

function errorMessage(error: unknown): string {
  if (isApiError(error)) return error.message;
  return error instanceof Error ? error.message : 'Something went wrong';
}

function setSignedIn(user: User): void {
  followedAnotherAccount = false;
  tokenStorage.setUser(user);
  useAuthStore.setState({
    isAuthenticated: true,
    isLoading: false,
    isInitializing: false,
    user,
    error: null,
  });
}

function setSignedOut(error: string | null = null): void {
  useAuthStore.setState({
    isAuthenticated: false,
    isLoading: false,
    isInitializing: false,
    user: null,
    error,
  });
}

let initializing: Promise<void> | null = null;
/** The start-up run begun before React mounted, until the session manager takes it over. */
let startedEarly: Promise<void> | null = null;

/**
 * Starts the session's start-up as the app's code loads, before React draws anything: the current-user
 * request then travels while the first render runs, instead of after it (issue 13 §1). The session
 * manager's own start-up call takes this run over instead of starting another.
 */
export function startSessionEarly(): void {
  startedEarly ??= initializeSession();
}

/**
 * spec/01 §4 session startup: no access token means logged out; a token that is expired or within 120 s of
 * expiry is refreshed first; then the current user is loaded. Any failure leaves the session logged out
 * with the error kept.
 */
export function initializeSession(): Promise<void> {
  if (startedEarly) {
    const run = startedEarly;
    startedEarly = null;
    return run;
  }
  // Start-up may be requested twice (React StrictMode runs effects twice in development): share one run.
  initializing ??= runInitialization().finally(() => {
    initializing = null;
  });
  return initializing;
}

async function runInitialization(): Promise<void> {
  useAuthStore.setState({ isInitializing: true });
  if (!tokenStorage.getAccessToken()) {
    setSignedOut();
    return;
  }
  try {
    if (tokenExpiresWithin(TOKEN_REFRESH_BUFFER_MS)) {
      const refreshed = await refreshSession();
      if (!refreshed) throw new Error('Your session has expired. Please log in again.');
    }
    setSignedIn(await meRequest());
  } catch (error) {
    if (isApiError(error) && error.status === 401) tokenStorage.clear();
    setSignedOut(errorMessage(error));
  }
}

/** spec/01 §4: login stores the tokens and sets the user. Errors go back to the form. */
export async function signIn(credentials: LoginBody): Promise<User> {
  useAuthStore.setState({ isLoading: true, error: null });
  try {
    const session = await loginRequest(credentials);
    tokenStorage.setTokens(session);
    setSignedIn(session.user);
    return session.user;
  } catch (error) {
    useAuthStore.setState({ isLoading: false, error: errorMessage(error) });
    throw error;
  }
}

/**
 * spec/01 §4: registration is followed by an automatic sign-in. The register answer already carries a
 * session for the new account, so it is used directly rather than signing in a second time.
 */
export async function signUp(registration: Registration): Promise<User> {
  useAuthStore.setState({ isLoading: true, error: null });
  try {
    const session = await registerRequest(registration);
    tokenStorage.setTokens(session);
    setSignedIn(session.user);
    return session.user;
  } catch (error) {
    useAuthStore.setState({ isLoading: false, error: errorMessage(error) });
    throw error;
  }
}

/**
 * spec/01 §4: logout calls the server, then always clears local tokens and state, even if the call fails.
 * `reason` is what the browser's other tabs say about it (an inactivity sign-out is not one "in another tab").
 */
export async function signOut(reason: string = signedOutInAnotherTab): Promise<void> {
  useAuthStore.setState({ isLoading: true });
  // Noted first: the sign-out revokes the session before this tab clears the tokens the others share.
  const token = tokenStorage.getAccessToken();
  if (token) noteSessionEnd(reason, token);
  try {
    if (token) await logoutRequest();
  } catch {
    // The local session ends regardless: a server that cannot be reached must not keep anyone signed in.
  } finally {
    tokenStorage.clear();
    loadedQueryClient()?.clear();
    setSignedOut();
  }
}

/**
 * Issue 16 §1: a session obtained another way (signing in with Discord) is stored exactly as a password
 * sign-in's. Whatever the previous account had cached goes.
 */
export function adoptSession(session: AuthSession): User {
  loadedQueryClient()?.clear();
  tokenStorage.setTokens(session);
  setSignedIn(session.user);
  return session.user;
}

/** Replace the signed-in user after a profile change or email verification. */
export function updateSessionUser(user: User): void {
  if (useAuthStore.getState().isAuthenticated) setSignedIn(user);
}

/** What a tab says when another tab of the browser signed in to another account, which it now follows. */
export const signedInAsInAnotherTab = (username: string) =>
  `Signed in as ${username} in another tab: this tab now shows that account.`;

/**
 * The session as another tab of this browser stores it (tabs share the tokens, so they share the account):
 * - the same user changed there (a profile saved, the address verified by the mailed link opened there):
 *   this tab adopts it, so its banners and names follow without a reload;
 * - the session ended there (a sign-out, an inactivity sign-out, the account deleted): this tab ends too at
 *   once, in the words that tab noted, instead of failing every request without a word;
 * - another account signed in there: this tab follows it, with nothing of the last account cached and back
 *   on the dashboard, and says so: what it showed belonged to someone else, and a change made from it would
 *   have been saved to the account now signed in.
 */
// The account this tab last showed, kept through a sign-out: a tab signed out that follows the same account
// back in returns where it was; one that follows another account starts on the dashboard.
let lastShownUserId: string | null = useAuthStore.getState().user?.id ?? null;
useAuthStore.subscribe((state) => {
  if (state.user) lastShownUserId = state.user.id;
});
let followedAnotherAccount = false;

/**
 * Where a guest-only page sends a tab that is signed in now: back to the page that asked for the sign-in
 * (spec/01 §2), unless the tab took up another account from another tab, whose that page was not.
 */
export function afterSignInTarget(requested: string | null): string {
  return followedAnotherAccount ? DEFAULT_AFTER_LOGIN : safeRedirectTarget(requested);
}

export function followSessionOfOtherTabs(): () => void {
  const fromOtherTab = (event: StorageEvent) => {
    // The user is written after the tokens and cleared after them: its change comes when they are in place.
    if (event.key !== storageKeys.user && event.key !== null) return;
    if (useAuthStore.getState().isInitializing) return;
    if (event.key === null || event.newValue === null) {
      // The refresh finds no refresh token, and ends this tab's session for the reason noted there.
      if (useAuthStore.getState().isAuthenticated && !tokenStorage.getRefreshToken()) void refreshSession();
      return;
    }
    void tokenStorage.getUser().then((stored) => {
      if (!stored || !tokenStorage.getAccessToken()) return;
      const { isAuthenticated, user } = useAuthStore.getState();
      if (isAuthenticated && user?.id === stored.id) {
        useAuthStore.setState({ user: stored });
        return;
      }
      loadedQueryClient()?.clear();
      // What this tab showed, and where its sign-in page was to send it back, belonged to someone else.
      followedAnotherAccount = lastShownUserId !== null && lastShownUserId !== stored.id;
      useAuthStore.setState({
        isAuthenticated: true,
        isLoading: false,
        isInitializing: false,
        user: stored,
        error: null,
      });
      if (followedAnotherAccount && isAuthenticated) void navigateInApp(DEFAULT_AFTER_LOGIN);
      // The warning that the last session ended is old news: this one says what holds now.
      for (const shown of useUiStore.getState().toasts) if (shown.kind === 'warning') dismissToast(shown.id);
      toast.info(signedInAsInAnotherTab(stored.username));
    });
  };
  window.addEventListener('storage', fromOtherTab);
  return () => window.removeEventListener('storage', fromOtherTab);
}

/**
 * Asks the server again about an address still unverified here: its link may have been followed in another
 * browser or on a phone, which no storage event reaches. A failure changes nothing.
 */
export async function recheckUnverifiedUser(): Promise<void> {
  const { user } = useAuthStore.getState();
  if (user && !user.email_verified) await recheckSessionUser();
}

/**
 * Asks the server who the signed-in user is now (an admin flag taken away since sign-in, an address
 * verified elsewhere) and adopts the answer, so the guards follow. A failure changes nothing: asked again
 * at the next occasion.
 */
export async function recheckSessionUser(): Promise<void> {
  if (!useAuthStore.getState().isAuthenticated) return;
  try {
    const fresh = await meRequest();
    if (fresh.id === useAuthStore.getState().user?.id) updateSessionUser(fresh);
  } catch {
    // Nothing to change: the signed-in user stays as known.
  }
}

/**
 * spec/01 §4 periodic check: refresh a token that expires within the buffer, or one the real-time server
 * refused while the refresh could not get through.
 */
export async function refreshIfExpiring(bufferMs = TOKEN_REFRESH_BUFFER_MS): Promise<void> {
  const { isAuthenticated, isLoading } = useAuthStore.getState();
  // Signing in or out here: the tokens are about to change, and a refresh now would race the sign-out.
  if (!isAuthenticated || isLoading) return;
  // No token while signed in: another tab ended the session; the refresh ends this one, for its reason.
  if (tokenExpiresWithin(bufferMs) || cableNeedsFreshToken() || !tokenStorage.getAccessToken()) {
    await refreshSession();
  }
}
