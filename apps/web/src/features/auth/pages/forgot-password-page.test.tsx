import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { toast } from '../../../lib/toast';
import { failure, mockFetch, recoveryFailure, success } from '../../../test/fixtures';
import { renderRoutes } from '../../../test/render';
import { ForgotPasswordPage, forgotFailureBanner } from './forgot-password-page';

const routes = [{ path: '/forgot-password', element: <ForgotPasswordPage /> }];

async function submitEmail(email: string) {
  const user = userEvent.setup();
  await user.type(screen.getByLabelText(/^Email/), email);
  await user.click(screen.getByRole('button', { name: 'Send Reset Instructions' }));
}

describe('ForgotPasswordPage', () => {
  it('requires a valid email address', async () => {
    const fetchMock = mockFetch(() => success({ message: 'sent' }));
    renderRoutes(routes, '/forgot-password');
    await submitEmail('nope');
    expect(await screen.findByText('Please enter a valid email address')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
    await waitFor(() => expect(screen.getByLabelText(/^Email/)).toHaveFocus());
  });

  it('shows "Reset Instructions Sent" with the spec text and toasts success', async () => {
    const toastSuccess = vi.spyOn(toast, 'success');
    const fetchMock = mockFetch(() => success({ message: 'sent' }));
    renderRoutes(routes, '/forgot-password');
    await submitEmail('ranger@example.com');
    expect(await screen.findByRole('heading', { name: 'Reset Instructions Sent' })).toBeInTheDocument();
    expect(
      screen.getByText(
        "If an account exists with that email, we've sent instructions on how to reset your password.",
      ),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Return to login' })).toHaveAttribute('href', '/login');
    expect(toastSuccess).toHaveBeenCalledWith('Password reset instructions sent to your email.', 5000);
    expect(JSON.parse(String(fetchMock.mock.calls[0]?.[1]?.body))).toEqual({ email: 'ranger@example.com' });
  });

  it('shows the server reason, or the spec fallback, in a banner and nowhere else', async () => {
    const toastError = vi.spyOn(toast, 'error');
    mockFetch(() => recoveryFailure(429, 'RATE_LIMITED', 'Too many requests, retry in 60 s'));
    renderRoutes(routes, '/forgot-password');
    await submitEmail('ranger@example.com');
    expect(await screen.findByTestId('forgot-password-error')).toHaveTextContent(
      'Too many requests, retry in 60 s',
    );
    expect(toastError).not.toHaveBeenCalled();
    expect(forgotFailureBanner).toBe('Failed to process request. Please try again.');
  });

  it('reads the reason from data.error only: an answer without it shows the spec fallback', async () => {
    // spec/01 §7: "The forgot and reset screens read the failure text from a field named error in the
    // response data." A gateway's envelope has no data.error: its message is not the screen's to show.
    mockFetch(() => failure(502, 'BAD_GATEWAY', 'Upstream is down'));
    renderRoutes(routes, '/forgot-password');
    await submitEmail('ranger@example.com');
    expect(await screen.findByTestId('forgot-password-error')).toHaveTextContent(forgotFailureBanner);
    expect(screen.queryByText('Upstream is down')).not.toBeInTheDocument();
  });
});
