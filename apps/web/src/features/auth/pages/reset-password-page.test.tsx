import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { RouteObject } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { toast } from '../../../lib/toast';
import { tokenStorage } from '../../../lib/token-storage';
import { useAuthStore } from '../../../stores/auth-store';
import { buildUser, failure, mockFetch, recoveryFailure, success } from '../../../test/fixtures';
import { renderRoutes } from '../../../test/render';
import { ResetPasswordPage, resetFailureBanner } from './reset-password-page';

const routes: RouteObject[] = [
  { path: '/reset-password', element: <ResetPasswordPage /> },
  { path: '/reset-password/:token', element: <ResetPasswordPage /> },
  { path: '/login', element: <p>Login screen</p> },
  { path: '/forgot-password', element: <p>Forgot screen</p> },
];

async function submitPasswords(
  user: ReturnType<typeof userEvent.setup>,
  password: string,
  confirmation: string,
) {
  await user.type(await screen.findByLabelText(/^New Password/), password);
  await user.type(screen.getByLabelText(/^Confirm New Password/), confirmation);
  await user.click(screen.getByRole('button', { name: 'Reset Password' }));
}

describe('ResetPasswordPage', () => {
  it('without a token shows "Invalid Reset Link" and a way to ask for a new one', async () => {
    renderRoutes(routes, '/reset-password');
    expect(await screen.findByRole('heading', { name: 'Invalid Reset Link' })).toBeInTheDocument();
    expect(screen.getByText('The password reset link is invalid or has expired.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Request a new reset link' })).toHaveAttribute(
      'href',
      '/forgot-password',
    );
    expect(screen.queryByRole('button', { name: 'Reset Password' })).not.toBeInTheDocument();
  });

  it('puts "Passwords do not match" on the confirmation field and does not call the server', async () => {
    const fetchMock = mockFetch(() => success({ message: 'ok' }));
    const user = userEvent.setup();
    renderRoutes(routes, '/reset-password/token-123');
    await submitPasswords(user, 'NewSecret1', 'NewSecret2');
    const confirmation = screen.getByLabelText(/^Confirm New Password/);
    const error = await screen.findByText('Passwords do not match');
    expect(confirmation).toHaveAttribute('aria-invalid', 'true');
    expect(confirmation.getAttribute('aria-describedby')).toContain(error.id);
    expect(screen.getByLabelText(/^New Password/)).not.toHaveAttribute('aria-invalid', 'true');
    expect(fetchMock).not.toHaveBeenCalled();
    await waitFor(() => expect(confirmation).toHaveFocus());
  });

  it('applies the password rules of spec/01 §5', async () => {
    mockFetch(() => success({ message: 'ok' }));
    const user = userEvent.setup();
    renderRoutes(routes, '/reset-password/token-123');
    await submitPasswords(user, 'short', 'short');
    expect(await screen.findByText('Password must be at least 8 characters')).toBeInTheDocument();
  });

  it('shows the server reason in the banner and not in a toast as well', async () => {
    const toastError = vi.spyOn(toast, 'error');
    mockFetch(() => recoveryFailure(400, 'BAD_REQUEST', 'This password reset link has already been used.'));
    const user = userEvent.setup();
    renderRoutes(routes, '/reset-password/token-123');
    await submitPasswords(user, 'NewSecret1', 'NewSecret1');
    expect(await screen.findByTestId('reset-password-error')).toHaveTextContent(
      'This password reset link has already been used.',
    );
    expect(toastError).not.toHaveBeenCalled();
  });

  it('a link the server refuses shows "Invalid Reset Link", its reason and a way to ask for a new one, and no form', async () => {
    const used = 'This password reset link has already been used.';
    mockFetch(() => recoveryFailure(400, 'BAD_REQUEST', used, [{ field: 'token', message: used }]));
    const user = userEvent.setup();
    renderRoutes(routes, '/reset-password/token-123');
    await submitPasswords(user, 'NewSecret1', 'NewSecret1');
    expect(await screen.findByRole('heading', { name: 'Invalid Reset Link' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent(used);
    expect(screen.getByRole('link', { name: 'Request a new reset link' })).toHaveAttribute(
      'href',
      '/forgot-password',
    );
    expect(screen.queryByRole('button', { name: 'Reset Password' })).not.toBeInTheDocument();
    expect(screen.queryByLabelText(/^New Password/)).not.toBeInTheDocument();
  });

  it('falls back to the spec banner text when the server gives no reason', async () => {
    mockFetch(() => {
      throw new TypeError('Failed to fetch');
    });
    const user = userEvent.setup();
    renderRoutes(routes, '/reset-password/token-123');
    await submitPasswords(user, 'NewSecret1', 'NewSecret1');
    expect(await screen.findByTestId('reset-password-error')).toHaveTextContent(resetFailureBanner);
  });

  it('reads the reason from data.error only: an answer without it shows the spec fallback', async () => {
    // spec/01 §7: the reset screen reads its failure text from data.error; a gateway's envelope has none.
    mockFetch(() => failure(502, 'BAD_GATEWAY', 'Upstream is down'));
    const user = userEvent.setup();
    renderRoutes(routes, '/reset-password/token-123');
    await submitPasswords(user, 'NewSecret1', 'NewSecret1');
    expect(await screen.findByTestId('reset-password-error')).toHaveTextContent(resetFailureBanner);
    expect(screen.queryByText('Upstream is down')).not.toBeInTheDocument();
  });

  it('on success shows "Password Reset Successful" and goes to /login after 2 s', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const toastSuccess = vi.spyOn(toast, 'success');
    const fetchMock = mockFetch(() => success({ message: 'Your password has been reset successfully.' }));
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const { router } = renderRoutes(routes, '/reset-password/token-123');
    await submitPasswords(user, 'NewSecret1', 'NewSecret1');

    expect(await screen.findByRole('heading', { name: 'Password Reset Successful' })).toBeInTheDocument();
    expect(JSON.parse(String(fetchMock.mock.calls[0]?.[1]?.body))).toEqual({
      token: 'token-123',
      password: 'NewSecret1',
      password_confirmation: 'NewSecret1',
    });
    expect(toastSuccess).toHaveBeenCalledWith('Your password has been reset successfully.', 5000);

    await act(async () => {
      await vi.advanceTimersByTimeAsync(1_500);
    });
    expect(router.state.location.pathname).toBe('/reset-password/token-123');

    await act(async () => {
      await vi.advanceTimersByTimeAsync(600);
    });
    expect(router.state.location.pathname).toBe('/login');
    expect(screen.getByText('Login screen')).toBeInTheDocument();
  });

  it('opened in a browser still signed in, resets and then signs this browser out too', async () => {
    tokenStorage.setTokens({
      token: 'access-1',
      refresh_token: 'refresh-1',
      expires_at: new Date(Date.now() + 600_000).toISOString(),
    });
    useAuthStore.setState({ isAuthenticated: true, isInitializing: false, user: buildUser() });
    const fetchMock = mockFetch(({ url }) =>
      url.endsWith('/auth/logout') ? new Response(null, { status: 204 }) : success({ message: 'ok' }),
    );
    const user = userEvent.setup();
    renderRoutes(routes, '/reset-password/token-123');
    await submitPasswords(user, 'NewSecret1', 'NewSecret1');

    expect(await screen.findByRole('heading', { name: 'Password Reset Successful' })).toBeInTheDocument();
    expect(fetchMock.mock.calls.map(([url]) => String(url))).toEqual([
      expect.stringContaining('/auth/reset_password'),
      expect.stringContaining('/auth/logout'),
    ]);
    expect(useAuthStore.getState().isAuthenticated).toBe(false);
    expect(tokenStorage.getAccessToken()).toBeNull();
  });
});
