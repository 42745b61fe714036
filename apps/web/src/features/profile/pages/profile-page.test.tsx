import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { useAuthStore } from '../../../stores/auth-store';
import { useUiStore } from '../../../stores/ui-store';
import { buildUser, failure, mockFetch, success } from '../../../test/fixtures';
import { renderRoutes, withUnsavedChangesGuard } from '../../../test/render';
import { ProfilePage } from './profile-page';

function renderProfile() {
  const user = buildUser();
  useAuthStore.setState({ isAuthenticated: true, isInitializing: false, user });
  return renderRoutes(withUnsavedChangesGuard([{ path: '/profile', element: <ProfilePage /> }]), '/profile');
}

const leaveDialog = () => screen.findByRole('dialog', { name: 'Leave this page?' });

describe('ProfilePage and the general toasts (spec/01 §8)', { timeout: 30_000 }, () => {
  it('asks before leaving changed details, and no longer once they are saved', async () => {
    mockFetch(() => success({ user: buildUser({ username: 'strider' }) }));
    const user = userEvent.setup();
    const { router } = renderProfile();
    const username = screen.getByRole('textbox', { name: 'Username' });
    await user.clear(username);
    await user.paste('strider');

    await user.click(screen.getByRole('link', { name: 'Elsewhere' }));
    const dialog = await leaveDialog();
    expect(dialog).toHaveTextContent('You have unsaved changes.');
    await user.click(within(dialog).getByRole('button', { name: 'Stay on page' }));

    await user.click(screen.getByTestId('profile-save'));
    await vi.waitFor(() =>
      expect(useUiStore.getState().toasts.at(-1)).toMatchObject({ message: 'Profile updated successfully!' }),
    );
    await user.click(screen.getByRole('link', { name: 'Elsewhere' }));
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/elsewhere'));
  });

  it('after a new email is saved, says a link went to it and the other devices were signed out, and lists them gone', async () => {
    useUiStore.setState({ toasts: [] });
    const thisDevice = {
      id: 'session-this',
      device: 'Firefox on Windows',
      user_agent: null,
      ip_address: null,
      created_at: new Date().toISOString(),
      last_used_at: new Date().toISOString(),
      current: true,
    };
    let sessions = [
      thisDevice,
      { ...thisDevice, id: 'session-phone', device: 'Chrome on Android', current: false },
    ];
    mockFetch(({ url, init }) => {
      if (url.endsWith('/users/me') && init.method === 'PATCH') {
        sessions = [thisDevice];
        return success({ user: buildUser({ email: 'moved@example.com', email_verified: false }) });
      }
      if (url.endsWith('/users/me/sessions')) return success(sessions);
      return success([]);
    });
    const user = userEvent.setup();
    renderProfile();
    const devices = screen.getByRole('region', { name: 'Signed-in devices' });
    await vi.waitFor(() => expect(within(devices).getAllByTestId('signed-in-device')).toHaveLength(2));

    const email = screen.getByRole('textbox', { name: 'Email' });
    await user.clear(email);
    await user.paste('moved@example.com');
    // Title Case as the Change Password form's labels beside it (spec/01: New Password, Confirm New Password).
    const currentPassword = await within(
      screen.getByRole('region', { name: 'Account details' }),
    ).findByLabelText(/^Current Password/);
    await user.type(currentPassword, 'Adventure1');
    await user.click(screen.getByTestId('profile-save'));

    await vi.waitFor(() =>
      expect(useUiStore.getState().toasts.at(-1)).toMatchObject({
        message:
          'Profile updated. We sent a link to moved@example.com to confirm your new address, and signed out your other devices.',
      }),
    );
    await vi.waitFor(() => expect(within(devices).getAllByTestId('signed-in-device')).toHaveLength(1));
  });

  it('toasts "Please fill in all required fields." for a blank username or password field', async () => {
    const fetchMock = mockFetch(() => success({}));
    const user = userEvent.setup();
    renderProfile();
    await user.clear(screen.getByRole('textbox', { name: 'Username' }));
    await user.click(screen.getByTestId('profile-save'));
    expect(useUiStore.getState().toasts.at(-1)).toMatchObject({
      kind: 'error',
      message: 'Please fill in all required fields.',
    });

    useUiStore.setState({ toasts: [] });
    await user.click(screen.getByTestId('password-change-submit'));
    expect(useUiStore.getState().toasts.at(-1)).toMatchObject({
      message: 'Please fill in all required fields.',
    });
    // Only the lists of the page's other sections (API tokens, shared links, the plan) were read.
    const writes = fetchMock.mock.calls.filter(([, init]) => (init?.method ?? 'GET') !== 'GET');
    expect(writes).toEqual([]);
  });

  it('refuses an invalid new email on its field only, with no required-fields toast', async () => {
    useUiStore.setState({ toasts: [] });
    const fetchMock = mockFetch(() => success([]));
    const user = userEvent.setup();
    renderProfile();
    const email = screen.getByRole('textbox', { name: 'Email' });
    await user.clear(email);
    await user.paste('not-an-email');
    await user.click(screen.getByTestId('profile-save'));
    await vi.waitFor(() => expect(email).toHaveAttribute('aria-invalid', 'true'));
    expect(useUiStore.getState().toasts.map((t) => t.message)).not.toContain(
      'Please fill in all required fields.',
    );
    const writes = fetchMock.mock.calls.filter(([, init]) => (init?.method ?? 'GET') !== 'GET');
    expect(writes).toEqual([]);
  });

  it('refuses a new password equal to the current one on the New Password field, sending nothing', async () => {
    useUiStore.setState({ toasts: [] });
    const fetchMock = mockFetch(() => success([]));
    const user = userEvent.setup();
    renderProfile();
    await user.type(screen.getByTestId('password-current'), 'Adventure1');
    await user.type(screen.getByTestId('password-new'), 'Adventure1');
    await user.type(screen.getByTestId('password-confirmation'), 'Adventure1');
    await user.click(screen.getByTestId('password-change-submit'));
    const newPassword = screen.getByTestId('password-new');
    await vi.waitFor(() => expect(newPassword).toHaveAttribute('aria-invalid', 'true'));
    expect(newPassword).toHaveAccessibleDescription(
      expect.stringContaining('The new password must differ from the current one.'),
    );
    const writes = fetchMock.mock.calls.filter(([, init]) => (init?.method ?? 'GET') !== 'GET');
    expect(writes).toEqual([]);
    expect(useUiStore.getState().toasts.map((t) => t.message)).not.toContain(
      'Password changed successfully!',
    );
  });

  it('shows the server refusing the current password as the new one on the New Password field', async () => {
    useUiStore.setState({ toasts: [] });
    mockFetch(({ url, init }) => {
      if (url.endsWith('/users/me/password') && init.method === 'PUT')
        return failure(422, 'VALIDATION_ERROR', 'Validation failed', [
          { field: 'password', message: 'The new password must differ from the current one.' },
        ]);
      return success([]);
    });
    const user = userEvent.setup();
    renderProfile();
    // Different strings here, so only the server's answer can mark the field.
    await user.type(screen.getByTestId('password-current'), 'Adventure1');
    await user.type(screen.getByTestId('password-new'), 'Adventure2');
    await user.type(screen.getByTestId('password-confirmation'), 'Adventure2');
    await user.click(screen.getByTestId('password-change-submit'));
    const newPassword = screen.getByTestId('password-new');
    await vi.waitFor(() => expect(newPassword).toHaveAttribute('aria-invalid', 'true'));
    expect(newPassword).toHaveAccessibleDescription(
      expect.stringContaining('The new password must differ from the current one.'),
    );
  });

  it('asks before leaving a half-typed password change', async () => {
    mockFetch(() => success([]));
    const user = userEvent.setup();
    renderProfile();
    await user.click(screen.getByTestId('password-current'));
    await user.paste('Secret123');
    await user.click(screen.getByRole('link', { name: 'Elsewhere' }));
    expect(await leaveDialog()).toHaveTextContent('You have unsaved changes.');
  });
});
