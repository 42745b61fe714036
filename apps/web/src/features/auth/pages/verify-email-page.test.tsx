import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { useAuthStore } from '../../../stores/auth-store';
import { failure, mockFetch, success } from '../../../test/fixtures';
import { renderRoutes } from '../../../test/render';
import { VerifyEmailPage } from './verify-email-page';

const routes = [{ path: '/verify-email', element: <VerifyEmailPage /> }];

describe('VerifyEmailPage', { timeout: 30_000 }, () => {
  it('offers a signed-out visitor with a dead link a new one, mailed to the address they give', async () => {
    useAuthStore.setState({ isAuthenticated: false, isInitializing: false, user: null });
    const fetchMock = mockFetch(({ url }) => {
      if (url.endsWith('/auth/verify_email'))
        return failure(422, 'VALIDATION_ERROR', 'The verification link is invalid or has expired.');
      return success({ message: 'If the address needs verifying, we have sent a new verification link.' });
    });
    const user = userEvent.setup();
    renderRoutes(routes, '/verify-email?token=expired');
    expect(await screen.findByRole('heading', { name: 'Verification failed' })).toBeInTheDocument();

    await user.type(screen.getByRole('textbox', { name: /^Email/ }), 'ranger@example.com');
    await user.click(screen.getByRole('button', { name: 'Resend verification email' }));

    expect(
      await screen.findByText('If the address needs verifying, we have sent a new verification link.'),
    ).toBeInTheDocument();
    const resend = fetchMock.mock.calls.find(([url]) => String(url).endsWith('/auth/resend_verification'));
    expect(JSON.parse(String(resend?.[1]?.body))).toEqual({ email: 'ranger@example.com' });
    expect(screen.getByRole('link', { name: 'Go to sign in' })).toHaveAttribute('href', '/login');
  });

  it('refuses an invalid address on its field without sending', async () => {
    useAuthStore.setState({ isAuthenticated: false, isInitializing: false, user: null });
    const fetchMock = mockFetch(() => failure(422, 'VALIDATION_ERROR', 'bad'));
    const user = userEvent.setup();
    renderRoutes(routes, '/verify-email');
    await user.type(await screen.findByRole('textbox', { name: /^Email/ }), 'nope');
    await user.click(screen.getByRole('button', { name: 'Resend verification email' }));
    const email = screen.getByRole('textbox', { name: /^Email/ });
    await waitFor(() => expect(email).toHaveAttribute('aria-invalid', 'true'));
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
