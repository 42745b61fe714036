import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { adminSessionStore } from '../../features/admin/api/admin-session-store';
import { mockFetch, success } from '../../test/fixtures';
import { renderRoutes } from '../../test/render';
import { AdminLayout } from './admin-layout';

const session = { token: 'admin-session-1', expires_at: '2030-01-01T00:00:00.000Z' };

describe('AdminLayout', { timeout: 30_000 }, () => {
  beforeEach(() => {
    window.sessionStorage.clear();
    adminSessionStore.clear();
  });

  it('offers "Skip to main content" first, which moves the focus to the admin page', async () => {
    mockFetch(({ url, init }) =>
      url.endsWith('/admin/sessions') && init.method === 'POST'
        ? success(session, 201)
        : success({ valid: true, expires_at: session.expires_at }),
    );
    renderRoutes(
      [{ path: '/admin', element: <AdminLayout />, children: [{ index: true, element: <p>Admin page</p> }] }],
      '/admin',
    );
    await screen.findByText('Admin page');
    const user = userEvent.setup();
    await user.tab();
    const skip = screen.getByRole('link', { name: 'Skip to main content' });
    expect(skip).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(screen.getByRole('main')).toHaveFocus();
  });
});
