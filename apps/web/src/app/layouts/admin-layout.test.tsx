import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useCallback } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { adminSessionStore } from '../../features/admin/api/admin-session-store';
import { tokenStorage } from '../../lib/token-storage';
import { useUnsavedChanges } from '../../lib/unsaved-changes';
import { useAuthStore } from '../../stores/auth-store';
import { buildTokens, buildUser, mockFetch, success } from '../../test/fixtures';
import { renderRoutes, withUnsavedChangesGuard } from '../../test/render';
import { restoreViewportAfterEach, setViewport } from '../../test/viewport';
import { AdminLayout } from './admin-layout';

const session = { token: 'admin-session-1', expires_at: '2030-01-01T00:00:00.000Z' };

/** The server's side of the admin session: opened on entering the area, then found valid on every check. */
const mockAdminSession = () =>
  mockFetch(({ url, init }) =>
    url.endsWith('/admin/sessions') && init.method === 'POST'
      ? success(session, 201)
      : success({ valid: true, expires_at: session.expires_at }),
  );

/** The admin area with one page in it. */
const adminPage = {
  path: '/admin',
  element: <AdminLayout />,
  children: [{ index: true, element: <p>Admin page</p> }],
};

describe('AdminLayout', { timeout: 30_000 }, () => {
  restoreViewportAfterEach();
  beforeEach(() => {
    window.sessionStorage.clear();
    adminSessionStore.clear();
    // Each visit is logged (below); the other tests need not print it.
    vi.spyOn(console, 'info').mockImplementation(() => undefined);
  });

  it('logs each admin page visit to the console, as spec/01 §2 asks', async () => {
    mockAdminSession();
    const { router } = renderRoutes(
      [
        {
          path: '/admin',
          element: <AdminLayout />,
          children: [
            { index: true, element: <p>Admin page</p> },
            { path: 'users', element: <p>Users page</p> },
          ],
        },
      ],
      '/admin',
    );
    await screen.findByText('Admin page');
    expect(console.info).toHaveBeenCalledWith('[admin] page visit: /admin');
    await router.navigate('/admin/users');
    await screen.findByText('Users page');
    expect(console.info).toHaveBeenLastCalledWith('[admin] page visit: /admin/users');
  });

  it('offers "Skip to main content" first, which moves the focus to the admin page', async () => {
    mockAdminSession();
    renderRoutes([adminPage], '/admin');
    await screen.findByText('Admin page');
    const user = userEvent.setup();
    await user.tab();
    const skip = screen.getByRole('link', { name: 'Skip to main content' });
    expect(skip).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(screen.getByRole('main')).toHaveFocus();
  });

  it('keeps the admin session while Exit Admin Mode waits on a draft’s “Leave this page?”', async () => {
    const fetchMock = mockAdminSession();
    function Draft() {
      useUnsavedChanges(useCallback(() => true, []));
      return <p>Admin page with a draft</p>;
    }
    renderRoutes(
      withUnsavedChangesGuard([
        { path: '/admin', element: <AdminLayout />, children: [{ index: true, element: <Draft /> }] },
        { path: '/dashboard', element: <p>Dashboard</p> },
      ]),
      '/admin',
    );
    await screen.findByText('Admin page with a draft');
    await userEvent.click(screen.getByRole('link', { name: 'Exit Admin Mode' }));
    const dialog = await screen.findByRole('dialog', { name: 'Leave this page?' });
    const ended = () =>
      fetchMock.mock.calls.filter(
        ([url, init]) => String(url).endsWith('/admin/sessions/current') && init?.method === 'DELETE',
      );
    expect(ended()).toHaveLength(0);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Leave anyway' }));
    expect(await screen.findByText('Dashboard')).toBeInTheDocument();
    await waitFor(() => expect(ended()).toHaveLength(1));
  });

  // The header's X is outside the menu's focus trap: without a button of its own, Escape was the only way out.
  it("closes the phone's admin menu from its own Close menu button, reached by Tab, focus back on the burger", async () => {
    setViewport(375, 740);
    useAuthStore.setState({ isAuthenticated: true, isInitializing: false, user: buildUser({ admin: true }) });
    mockAdminSession();
    renderRoutes([adminPage], '/admin');
    await screen.findByText('Admin page');
    const user = userEvent.setup();
    const burger = screen.getByRole('button', { name: 'Open admin navigation' });
    burger.focus();
    await user.keyboard('{Enter}');
    const navigation = screen.getByRole('navigation', { name: 'Admin' });
    await waitFor(() => expect(navigation).toContainElement(document.activeElement as HTMLElement));
    within(navigation).getAllByRole('link').at(-1)?.focus();
    await user.tab();
    expect(within(navigation).getByRole('button', { name: 'Close menu' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(burger).toHaveAttribute('aria-expanded', 'false');
    expect(burger).toHaveFocus();
  });

  it('signs out from the admin bar by keyboard on a phone: the admin session ends, then the sign-in', async () => {
    setViewport(375, 740);
    tokenStorage.setTokens(buildTokens());
    useAuthStore.setState({ isAuthenticated: true, isInitializing: false, user: buildUser({ admin: true }) });
    const fetchMock = mockAdminSession();
    renderRoutes([adminPage, { path: '/login', element: <p>Sign-in page</p> }], '/admin');
    await screen.findByText('Admin page');
    const signOut = within(screen.getByTestId('admin-bar')).getByRole('button', { name: 'Sign Out' });
    const user = userEvent.setup();
    for (let stop = 0; stop < 20 && document.activeElement !== signOut; stop += 1) await user.tab();
    expect(signOut).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(await screen.findByText('Sign-in page')).toBeInTheDocument();
    const asked = fetchMock.mock.calls.map(([url, init]) => `${init?.method} ${String(url)}`);
    expect(asked).toContain('DELETE /api/v1/admin/sessions/current');
    expect(asked).toContain('DELETE /api/v1/auth/logout');
    expect(asked.indexOf('DELETE /api/v1/admin/sessions/current')).toBeLessThan(
      asked.indexOf('DELETE /api/v1/auth/logout'),
    );
    expect(tokenStorage.getAccessToken()).toBeNull();
  });
});
