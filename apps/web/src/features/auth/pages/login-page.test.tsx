import { Notifications } from '@mantine/notifications';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { type RouteObject, useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { toast } from '../../../lib/toast';
import { tokenStorage } from '../../../lib/token-storage';
import { useAuthStore } from '../../../stores/auth-store';
import { buildProviders, buildTokens, buildUser, failure, mockFetch, success } from '../../../test/fixtures';
import { useGlobalStyles } from '../../../test/global-styles';
import { renderRoutes } from '../../../test/render';
import { restoreViewportAfterEach, setViewport } from '../../../test/viewport';
import { LoginPage } from './login-page';

function Where() {
  const location = useLocation();
  return (
    <p data-testid="where">
      {location.pathname}
      {location.search}
    </p>
  );
}

const routes: RouteObject[] = [
  { path: '/login', element: <LoginPage /> },
  { path: '*', element: <Where /> },
];

function renderLogin(entry = '/login') {
  useAuthStore.setState({ isInitializing: false });
  return renderRoutes(routes, entry);
}

async function fillAndSubmit(email: string, password: string) {
  const user = userEvent.setup();
  await user.type(screen.getByLabelText(/^Email/), email);
  await user.type(screen.getByLabelText(/^Password/), password);
  await user.click(screen.getByRole('button', { name: 'Sign In' }));
}

describe('LoginPage', () => {
  it('lets the keyboard reach the password’s show/hide switch and use it', async () => {
    mockFetch(() => success(buildProviders()));
    renderLogin();
    const user = userEvent.setup();
    const password = screen.getByLabelText(/^Password/);
    await user.type(password, 'Secret123');
    await user.tab();
    const toggle = screen.getByRole('button', { name: 'Toggle password visibility' });
    expect(toggle).toHaveFocus();
    expect(password).toHaveAttribute('type', 'password');
    await user.keyboard(' ');
    expect(password).toHaveAttribute('type', 'text');
    expect(toggle).toHaveAttribute('aria-pressed', 'true');
  });

  it('sent by a party invite, says a party is being joined and offers an account that comes back to it', () => {
    const invite = '/parties/join?code=ABC123';
    renderLogin(`/login?redirect=${encodeURIComponent(invite)}`);
    const notice = screen.getByTestId('login-party-invite');
    expect(notice).toHaveTextContent('You are joining a party on Haversack.');
    expect(within(notice).getByRole('link', { name: 'Create an account' })).toHaveAttribute(
      'href',
      `/register?redirect=${encodeURIComponent(invite)}`,
    );
    expect(screen.queryByText('Welcome back to Haversack.')).not.toBeInTheDocument();
  });

  it('welcomes back anyone else sent to sign in, with no invite notice', () => {
    renderLogin(`/login?redirect=${encodeURIComponent('/characters')}`);
    expect(screen.getByText('Welcome back to Haversack.')).toBeInTheDocument();
    expect(screen.queryByTestId('login-party-invite')).not.toBeInTheDocument();
  });

  it('has the links e2e journeys use and names the tab', () => {
    renderLogin();
    expect(screen.getByRole('heading', { level: 1, name: 'Sign in' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign up' })).toHaveAttribute('href', '/register');
    expect(screen.getByRole('link', { name: 'See what it does' })).toHaveAttribute('href', '/home');
    expect(screen.getByRole('link', { name: 'Forgot password?' })).toHaveAttribute(
      'href',
      '/forgot-password',
    );
    expect(document.title).toBe('Sign in · Haversack');
  });

  it('validates the fields before calling the server', async () => {
    const fetchMock = mockFetch(() => success({}));
    renderLogin();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('Email is required')).toBeInTheDocument();
    expect(screen.getByText('Password is required')).toBeInTheDocument();
    expect(screen.getByLabelText(/^Email/)).toHaveAttribute('aria-invalid', 'true');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('takes the keyboard from Sign In to the first field in error, which names its error', async () => {
    mockFetch(() => success({}));
    renderLogin();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Sign In' }));
    const email = screen.getByLabelText(/^Email/);
    await waitFor(() => expect(email).toHaveFocus());
    expect(email).toHaveAccessibleDescription('Email is required');
  });

  it('shows the server error once, in the banner and not in a toast as well, and stays on the page', async () => {
    const toastError = vi.spyOn(toast, 'error');
    mockFetch(() => failure(401, 'INVALID_CREDENTIALS', 'Invalid email or password'));
    useAuthStore.setState({ isInitializing: false });
    renderRoutes(
      [
        {
          path: '/login',
          element: (
            <>
              <Notifications />
              <LoginPage />
            </>
          ),
        },
      ],
      '/login',
    );
    await fillAndSubmit('ranger@example.com', 'WrongPass1');
    expect(await screen.findByTestId('login-error')).toHaveTextContent('Invalid email or password.');
    expect(toastError).not.toHaveBeenCalled();
    expect(screen.getAllByText('Invalid email or password.')).toHaveLength(1);
    expect(useAuthStore.getState().isAuthenticated).toBe(false);
    expect(tokenStorage.getAccessToken()).toBeNull();
  });

  it('signs in, stores the session and goes to the ?redirect= path', async () => {
    const user = buildUser();
    const fetchMock = mockFetch(() => success({ ...buildTokens({ token: 'fresh-token' }), user }));
    renderLogin('/login?redirect=%2Fcharacters%3Fpage%3D2');
    await fillAndSubmit(' ranger@example.com ', 'Secret123');
    expect(await screen.findByTestId('where')).toHaveTextContent('/characters?page=2');
    expect(JSON.parse(String(fetchMock.mock.calls[0]?.[1]?.body))).toEqual({
      email: 'ranger@example.com',
      password: 'Secret123',
    });
    expect(tokenStorage.getAccessToken()).toBe('fresh-token');
    expect(await tokenStorage.getUser()).toEqual(user);
    expect(useAuthStore.getState()).toMatchObject({ isAuthenticated: true, user });
  });

  it('goes to /dashboard when ?redirect= points off the site', async () => {
    mockFetch(() => success({ ...buildTokens(), user: buildUser() }));
    renderLogin('/login?redirect=https%3A%2F%2Fevil.example%2F');
    await fillAndSubmit('ranger@example.com', 'Secret123');
    expect(await screen.findByTestId('where')).toHaveTextContent(/^\/dashboard$/);
  });

  it('offers "Continue with Discord" only when the server is configured for it (issue 16)', async () => {
    mockFetch(() => success({}), { providers: buildProviders({ sign_in: true }) });
    const { unmount } = renderLogin();
    expect(await screen.findByRole('button', { name: 'Continue with Discord' })).toBeInTheDocument();
    unmount();

    mockFetch(() => success({}));
    const { queryClient } = renderLogin();
    // Once the providers answer (without Discord) is in, there is still no button.
    await waitFor(() => expect(queryClient.getQueryState(['auth-providers'])?.status).toBe('success'));
    expect(screen.queryByRole('button', { name: 'Continue with Discord' })).not.toBeInTheDocument();
  });

  describe('on a phone', () => {
    restoreViewportAfterEach();
    it('makes Forgot password? at least 24 px tall, a target a finger can hit (outside sweep: 20 px)', () => {
      useGlobalStyles('Anchor');
      setViewport(375, 812);
      mockFetch(() => success(buildProviders()));
      renderLogin();
      expect(getComputedStyle(screen.getByRole('link', { name: 'Forgot password?' })).minHeight).toBe('24px');
    });
  });

  describe('Continue with Discord', () => {
    /** The start call's answer sends the browser to Discord; here a hash jsdom can follow. */
    function serveDiscordStart() {
      const fetchMock = mockFetch(
        ({ url }) =>
          url.endsWith('/api/v1/auth/discord/start')
            ? success({ authorization_url: '#discord-consent' })
            : failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${url}`),
        { providers: buildProviders({ sign_in: true }) },
      );
      const startBody = async () => {
        await waitFor(() => expect(window.location.hash).toBe('#discord-consent'), { timeout: 5_000 });
        const call = fetchMock.mock.calls.find(([input]) => String(input).endsWith('/auth/discord/start'));
        return JSON.parse(String(call?.[1]?.body));
      };
      return { startBody };
    }
    afterEach(() => {
      window.history.replaceState(null, '', `${window.location.pathname}${window.location.search}`);
    });

    it('carries a party invite through the Discord sign-in, so it comes back to the invite', async () => {
      const { startBody } = serveDiscordStart();
      const user = userEvent.setup();
      renderLogin('/login?redirect=%2Fparties%2Fjoin%3Fcode%3DAB12CD34');
      await user.click(await screen.findByRole('button', { name: 'Continue with Discord' }));
      expect(await startBody()).toEqual({ mode: 'login', redirect: '/parties/join?code=AB12CD34' });
    });

    it('passes no page to come back to when ?redirect= points off the site, or is missing', async () => {
      const { startBody } = serveDiscordStart();
      const user = userEvent.setup();
      const { unmount } = renderLogin('/login?redirect=https%3A%2F%2Fevil.example%2F');
      await user.click(await screen.findByRole('button', { name: 'Continue with Discord' }));
      expect(await startBody()).toEqual({ mode: 'login' });
      unmount();
      window.history.replaceState(null, '', `${window.location.pathname}${window.location.search}`);

      const again = serveDiscordStart();
      renderLogin();
      await user.click(await screen.findByRole('button', { name: 'Continue with Discord' }));
      expect(await again.startBody()).toEqual({ mode: 'login' });
    });
  });
});
