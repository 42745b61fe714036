import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { RouteObject } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { toast } from '../../../lib/toast';
import { tokenStorage } from '../../../lib/token-storage';
import { useAuthStore } from '../../../stores/auth-store';
import { buildProviders, buildTokens, buildUser, failure, mockFetch, success } from '../../../test/fixtures';
import { renderRoutes } from '../../../test/render';
import { RegisterPage } from './register-page';

const routes: RouteObject[] = [
  { path: '/register', element: <RegisterPage /> },
  { path: '/dashboard', element: <p>Dashboard screen</p> },
];

async function fillForm(values: { email: string; username: string; password: string; confirmation: string }) {
  const user = userEvent.setup();
  await user.type(screen.getByLabelText(/^Email/), values.email);
  await user.type(screen.getByLabelText(/^Username/), values.username);
  await user.type(screen.getByLabelText(/^Password/), values.password);
  await user.type(screen.getByLabelText(/^Confirm Password/), values.confirmation);
  await user.click(screen.getByRole('button', { name: 'Create Account' }));
}

describe('RegisterPage', () => {
  it('checks the contract rules before calling the server', async () => {
    const fetchMock = mockFetch(() => success({}));
    renderRoutes(routes, '/register');
    await fillForm({ email: 'not-an-email', username: 'ab', password: 'password', confirmation: 'other' });
    expect(await screen.findByText('Please enter a valid email address')).toBeInTheDocument();
    expect(screen.getByText('Username must be 3 to 30 characters')).toBeInTheDocument();
    expect(screen.getByText('Password must contain at least one uppercase letter')).toBeInTheDocument();
    expect(screen.getByText('Passwords do not match')).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([url]) => String(url).includes('/auth/'))).toBe(false);
  });

  it('puts server field errors (user.<field>) on the matching fields', async () => {
    mockFetch(() =>
      failure(422, 'VALIDATION_ERROR', 'Validation failed', [
        { field: 'user.email', message: 'Email has already been taken' },
      ]),
    );
    renderRoutes(routes, '/register');
    await fillForm({
      email: 'taken@example.com',
      username: 'ranger',
      password: 'Secret123',
      confirmation: 'Secret123',
    });
    expect(await screen.findByText('Email has already been taken')).toBeInTheDocument();
    expect(screen.getByLabelText(/^Email/)).toHaveAttribute('aria-invalid', 'true');
    expect(useAuthStore.getState().isAuthenticated).toBe(false);
  });

  it('takes the keyboard to the first field the server refused, from wherever the form was sent', async () => {
    mockFetch(() =>
      failure(422, 'VALIDATION_ERROR', 'Validation failed', [
        { field: 'user.username', message: 'Username has already been taken' },
        { field: 'user.email', message: 'Email has already been taken' },
      ]),
    );
    renderRoutes(routes, '/register');
    const user = userEvent.setup();
    await user.type(screen.getByLabelText(/^Email/), 'taken@example.com');
    await user.type(screen.getByLabelText(/^Username/), 'ranger');
    await user.type(screen.getByLabelText(/^Password/), 'Secret123');
    await user.type(screen.getByLabelText(/^Confirm Password/), 'Secret123{Enter}');
    const email = screen.getByLabelText(/^Email/);
    // The server's answer, the lazily loaded form rules and the refocus follow the submit: a machine busy
    // with the whole suite took past 4 s once.
    await waitFor(() => expect(email).toHaveFocus(), { timeout: 15_000 });
    expect(email).toHaveAccessibleDescription('Email has already been taken');
  }, 30_000);

  it('shows a refusal naming no field once, in the banner and not in a toast as well', async () => {
    const toastError = vi.spyOn(toast, 'error');
    mockFetch(() => failure(429, 'RATE_LIMITED', 'Too many requests, retry in 60 s'));
    renderRoutes(routes, '/register');
    await fillForm({
      email: 'new@example.com',
      username: 'ranger',
      password: 'Secret123',
      confirmation: 'Secret123',
    });
    expect(await screen.findByText('Too many requests. Please wait a moment.')).toBeInTheDocument();
    expect(toastError).not.toHaveBeenCalled();
  });

  it('registers, ends signed in and goes to the dashboard', async () => {
    const user = buildUser({ email: 'new@example.com', username: 'newbie', email_verified: false });
    const fetchMock = mockFetch(() => success({ ...buildTokens({ token: 'reg-token' }), user }, 201));
    renderRoutes(routes, '/register');
    await fillForm({
      email: 'new@example.com',
      username: 'newbie',
      password: 'Secret123',
      confirmation: 'Secret123',
    });
    expect(await screen.findByText('Dashboard screen')).toBeInTheDocument();
    const registration = fetchMock.mock.calls.find(([url]) => String(url).endsWith('/auth/register'));
    expect(JSON.parse(String(registration?.[1]?.body))).toEqual({
      user: {
        email: 'new@example.com',
        username: 'newbie',
        password: 'Secret123',
        password_confirmation: 'Secret123',
      },
    });
    expect(tokenStorage.getAccessToken()).toBe('reg-token');
    expect(useAuthStore.getState()).toMatchObject({ isAuthenticated: true, user });
  });

  it('from a party invite, says so, keeps the way back to sign in, and returns to the invite once registered', async () => {
    const invite = '/parties/join?code=ABC123';
    mockFetch(() => success({ ...buildTokens({ token: 'reg-token' }), user: buildUser() }, 201));
    renderRoutes(
      [...routes, { path: '/parties/join', element: <p>Join party screen</p> }],
      `/register?redirect=${encodeURIComponent(invite)}`,
    );
    expect(
      screen.getByText(
        'Once your account is made, you go straight back to join the party you were invited to.',
      ),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute(
      'href',
      `/login?redirect=${encodeURIComponent(invite)}`,
    );
    await fillForm({
      email: 'new@example.com',
      username: 'newbie',
      password: 'Secret123',
      confirmation: 'Secret123',
    });
    expect(await screen.findByText('Join party screen', {}, { timeout: 5_000 })).toBeInTheDocument();
  });

  it('says in advance that registration is closed, instead of the form', async () => {
    mockFetch(({ url }) =>
      url.endsWith('/site_settings')
        ? success({ maintenance_mode: false, registration_open: false })
        : failure(500, 'INTERNAL_ERROR', 'unexpected call'),
    );
    renderRoutes(routes, '/register');
    expect(await screen.findByTestId('registration-closed')).toHaveTextContent(
      'Registration is closed: new accounts cannot be created right now.',
    );
    expect(screen.queryByRole('button', { name: 'Create Account' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign in' })).toBeInTheDocument();
  });

  it('shows the form when registration is open', async () => {
    mockFetch(() => success({ maintenance_mode: false, registration_open: true }));
    renderRoutes(routes, '/register');
    expect(await screen.findByRole('button', { name: 'Create Account' })).toBeInTheDocument();
    expect(screen.queryByTestId('registration-closed')).not.toBeInTheDocument();
  });

  it('carries a party invite through a Discord sign-up, so it comes back to the invite', async () => {
    // The start call's answer sends the browser to Discord; here a hash jsdom can follow.
    const fetchMock = mockFetch(
      ({ url }) =>
        url.endsWith('/api/v1/auth/discord/start')
          ? success({ authorization_url: '#discord-consent' })
          : failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${url}`),
      { providers: buildProviders({ sign_in: true }) },
    );
    const user = userEvent.setup();
    renderRoutes(routes, '/register?redirect=%2Fparties%2Fjoin%3Fcode%3DAB12CD34');
    try {
      await user.click(await screen.findByRole('button', { name: 'Continue with Discord' }));
      await waitFor(() => expect(window.location.hash).toBe('#discord-consent'), { timeout: 5_000 });
      const call = fetchMock.mock.calls.find(([input]) => String(input).endsWith('/auth/discord/start'));
      expect(JSON.parse(String(call?.[1]?.body))).toEqual({
        mode: 'login',
        redirect: '/parties/join?code=AB12CD34',
      });
    } finally {
      window.history.replaceState(null, '', `${window.location.pathname}${window.location.search}`);
    }
  });
});
