import { accountClosureMessages } from '@haversack/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tokenStorage } from '../../../lib/token-storage';
import { useAuthStore } from '../../../stores/auth-store';
import { useUiStore } from '../../../stores/ui-store';
import { authHeaderOf, buildTokens, buildUser, failure, mockFetch } from '../../../test/fixtures';
import { renderRoutes } from '../../../test/render';
import { DeleteAccountSection, YourDataSection } from './account-closure-sections';

function renderSections() {
  const user = buildUser({ email: 'ranger@example.com', username: 'ranger' });
  tokenStorage.setTokens(buildTokens({ token: 'access-7' }));
  useAuthStore.setState({ isAuthenticated: true, isInitializing: false, user });
  return renderRoutes(
    [
      {
        path: '/profile',
        element: (
          <>
            <YourDataSection />
            <DeleteAccountSection />
          </>
        ),
      },
      { path: '/login', element: <p>Sign in page</p> },
    ],
    '/profile',
  );
}

const toastMessages = () => useUiStore.getState().toasts.map((t) => t.message);
const deleteCalls = (fetchMock: ReturnType<typeof mockFetch>) =>
  fetchMock.mock.calls.filter(
    ([url, init]) => String(url).endsWith('/api/v1/users/me') && init?.method === 'DELETE',
  );

afterEach(() => {
  vi.restoreAllMocks();
  tokenStorage.clear();
});

describe('Delete account (danger zone)', { timeout: 30_000 }, () => {
  it('says what happens, asks the password, shows a wrong one in the dialog, then deletes and signs out', async () => {
    let attempt = 0;
    const fetchMock = mockFetch(() => {
      attempt += 1;
      return attempt === 1
        ? failure(422, 'VALIDATION_ERROR', 'Validation failed', [
            { field: 'password', message: 'Password is incorrect' },
          ])
        : new Response(null, { status: 204 });
    });
    const user = userEvent.setup();
    const { router } = renderSections();
    expect(screen.getByRole('region', { name: 'Danger zone' })).toHaveTextContent(
      /next member.*alone is deleted.*characters.*Templates you shared stay.*cancelled.*cannot be undone/s,
    );

    await user.click(screen.getByRole('button', { name: 'Delete account…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete your account?' });
    const password = await within(dialog).findByLabelText(/Your password/);
    await waitFor(() => expect(password).toHaveFocus());
    await user.click(within(dialog).getByRole('button', { name: 'Delete my account' }));
    expect(await within(dialog).findByText('Enter your password to delete your account')).toBeInTheDocument();
    expect(deleteCalls(fetchMock)).toHaveLength(0);

    await user.type(password, 'Wrong1234');
    await user.click(within(dialog).getByRole('button', { name: 'Delete my account' }));
    expect(await within(dialog).findByText('Password is incorrect')).toBeInTheDocument();
    // Back on the field to type it again.
    await waitFor(() => expect(password).toHaveFocus());
    expect(useAuthStore.getState().isAuthenticated).toBe(true);

    await user.clear(password);
    await user.type(password, 'Secret123');
    await user.click(within(dialog).getByRole('button', { name: 'Delete my account' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    const calls = deleteCalls(fetchMock);
    expect(calls.map(([, init]) => JSON.parse(String(init?.body)))).toEqual([
      { password: 'Wrong1234' },
      { password: 'Secret123' },
    ]);
    expect(authHeaderOf(calls[1]?.[1])).toBe('Bearer access-7');
    // Signed out here without a logout call: the server already ended every session.
    expect(useAuthStore.getState()).toMatchObject({ isAuthenticated: false, user: null });
    expect(tokenStorage.getAccessToken()).toBeNull();
    expect(fetchMock.mock.calls.some(([url]) => String(url).includes('/auth/logout'))).toBe(false);
    await waitFor(() => expect(toastMessages()).toContain('Your account has been deleted.'));
    expect(await screen.findByText('Sign in page')).toBeInTheDocument();
  });

  it('asks an account without a password (Discord) to type its email', async () => {
    const fetchMock = mockFetch(() => new Response(null, { status: 204 }), {
      discordLink: { account: null, has_password: false },
    });
    const user = userEvent.setup();
    const { router } = renderSections();
    await user.click(screen.getByRole('button', { name: 'Delete account…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete your account?' });
    const email = await within(dialog).findByLabelText(/Type your email address to confirm/);
    expect(within(dialog).queryByLabelText(/Your password/)).toBeNull();
    await user.type(email, 'ranger@example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Delete my account' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(deleteCalls(fetchMock).map(([, init]) => JSON.parse(String(init?.body)))).toEqual([
      { confirm_email: 'ranger@example.com' },
    ]);
  });

  it('shows an admin’s refusal in the dialog, and returns focus to the button when closed', async () => {
    mockFetch(() =>
      failure(
        403,
        'FORBIDDEN',
        'Admins cannot delete their own account here: have your admin flag revoked first (npm run admin -- revoke EMAIL).',
      ),
    );
    const user = userEvent.setup();
    renderSections();
    const open = screen.getByRole('button', { name: 'Delete account…' });
    await user.click(open);
    const dialog = await screen.findByRole('dialog', { name: 'Delete your account?' });
    await user.type(await within(dialog).findByLabelText(/Your password/), 'Secret123');
    await user.click(within(dialog).getByRole('button', { name: 'Delete my account' }));
    expect(await within(dialog).findByTestId('delete-account-error')).toHaveTextContent(
      'Admins cannot delete their own account here',
    );
    expect(useAuthStore.getState().isAuthenticated).toBe(true);

    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(open).toHaveFocus());
  });

  it('shows why a party blocks the deletion, in the server’s words', async () => {
    const message = accountClosureMessages.noSuccessorRoom('The Lost Mine');
    mockFetch(() => failure(409, 'CONFLICT', message));
    const user = userEvent.setup();
    renderSections();
    await user.click(screen.getByRole('button', { name: 'Delete account…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete your account?' });
    await user.type(await within(dialog).findByLabelText(/Your password/), 'Secret123');
    await user.click(within(dialog).getByRole('button', { name: 'Delete my account' }));
    expect(await within(dialog).findByTestId('delete-account-error')).toHaveTextContent(message);
    expect(useAuthStore.getState().isAuthenticated).toBe(true);
  });
});

describe('Download my data', { timeout: 30_000 }, () => {
  it('downloads the export with the bearer token, busy meanwhile, under the server’s file name', async () => {
    let answer: (response: Response) => void = () => undefined;
    const fetchMock = mockFetch(
      () =>
        new Promise<Response>((resolve) => {
          answer = resolve;
        }),
    );
    const createUrl = vi.fn(() => 'blob:export');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: createUrl, revokeObjectURL: vi.fn() }));
    const clicked: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this.download);
    });
    const user = userEvent.setup();
    renderSections();
    // Deleting the account deletes a party the user is alone in: the file carries what its GM set up.
    expect(screen.getByRole('region', { name: 'Your data' })).toHaveTextContent(
      /parties \(and for those you run as Game Master: their settings, notes, stash, shops and loot\)/,
    );
    const button = screen.getByRole('button', { name: 'Download my data' });
    await user.click(button);
    await waitFor(() => expect(button).toBeDisabled());
    answer(
      new Response('{"status":"success","data":{}}', {
        status: 200,
        headers: {
          'Content-Type': 'application/json',
          'Content-Disposition': 'attachment; filename="haversack-export-ranger-2026-03-10.json"',
        },
      }),
    );
    await waitFor(() => expect(clicked).toEqual(['haversack-export-ranger-2026-03-10.json']));
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(String(url)).toBe('/api/v1/users/me/export');
    expect(authHeaderOf(init)).toBe('Bearer access-7');
    await waitFor(() => expect(button).toBeEnabled());
    expect(toastMessages()).toContain('Your data is downloading as haversack-export-ranger-2026-03-10.json.');
  });

  it('says so in the section when the download fails', async () => {
    mockFetch(() => new Response('', { status: 500 }));
    const user = userEvent.setup();
    renderSections();
    await user.click(screen.getByRole('button', { name: 'Download my data' }));
    expect(await screen.findByTestId('export-error')).toHaveTextContent(
      'Your data could not be downloaded. Please try again.',
    );
  });
});
