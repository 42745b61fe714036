import { act, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { failure, mockFetch, success } from '../../../test/fixtures';
import { renderRoutes } from '../../../test/render';
import { adminEntryQueryOptions } from '../api/admin-session-api';
import { adminSessionStore } from '../api/admin-session-store';
import { AdminSessionGuard } from './admin-session-guard';

const routes = [
  {
    path: '/admin',
    element: (
      <AdminSessionGuard>
        <p>Admin content</p>
      </AdminSessionGuard>
    ),
  },
  { path: '/dashboard', element: <p>Dashboard</p> },
];

const session = { token: 'admin-session-1', expires_at: '2030-01-01T00:00:00.000Z' };

function headerOf(init: RequestInit, name: string): string | undefined {
  const headers = init.headers as Record<string, string> | undefined;
  return headers?.[name];
}

describe('AdminSessionGuard', () => {
  beforeEach(() => {
    window.sessionStorage.clear();
    adminSessionStore.clear();
  });

  it('starts an admin session on entry, then checks it with the admin session header', async () => {
    const fetchMock = mockFetch(({ url, init }) => {
      if (url.endsWith('/admin/sessions') && init.method === 'POST') return success(session, 201);
      return success({ valid: true, expires_at: session.expires_at });
    });
    renderRoutes(routes, '/admin');
    expect(await screen.findByText('Admin content')).toBeInTheDocument();
    const verify = fetchMock.mock.calls.find(([url]) => String(url).endsWith('/admin/sessions/verify'));
    expect(verify && headerOf(verify[1] ?? {}, 'X-Admin-Session')).toBe('admin-session-1');
    expect(adminSessionStore.getToken()).toBe('admin-session-1');
  });

  it('shows the loading message for the admin panel while the session starts', async () => {
    mockFetch(() => new Promise<Response>(() => {}));
    renderRoutes(routes, '/admin');
    expect(await screen.findByText('Loading admin panel...')).toBeInTheDocument();
  });

  it('resumes the tab’s admin session after a reload instead of starting another', async () => {
    adminSessionStore.setToken('kept-session');
    const fetchMock = mockFetch(() => success({ valid: true, expires_at: session.expires_at }));
    renderRoutes(routes, '/admin');
    expect(await screen.findByText('Admin content')).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(false);
    // Checked once on entry; the first periodic check waits its five minutes.
    const checks = fetchMock.mock.calls.filter(([url]) => String(url).endsWith('/admin/sessions/verify'));
    expect(checks).toHaveLength(1);
  });

  it('replaces the page with "Admin Session Expired" when the check is refused', async () => {
    mockFetch(({ url, init }) => {
      if (url.endsWith('/admin/sessions') && init.method === 'POST') return success(session, 201);
      return failure(401, 'ADMIN_SESSION_EXPIRED', 'Your admin session has expired.');
    });
    renderRoutes(routes, '/admin');
    expect(await screen.findByRole('heading', { name: 'Admin Session Expired' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Return to Dashboard' })).toHaveAttribute('href', '/dashboard');
    expect(screen.queryByText('Admin content')).not.toBeInTheDocument();
  });

  it('sends someone who is no longer an admin to the dashboard', async () => {
    mockFetch(() => failure(403, 'FORBIDDEN', 'not an admin'));
    renderRoutes(routes, '/admin');
    expect(await screen.findByText('Dashboard')).toBeInTheDocument();
  });

  it('keeps the page when the check cannot reach an answer (not an expiry)', async () => {
    const fetchMock = mockFetch(({ url, init }) => {
      if (url.endsWith('/admin/sessions') && init.method === 'POST') return success(session, 201);
      return failure(404, 'RESOURCE_NOT_FOUND', 'no such route');
    });
    renderRoutes(routes, '/admin');
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(2));
    expect(screen.getByText('Admin content')).toBeInTheDocument();
  });
  it('keeps the admin on the page when entering again fails for want of a connection, not when refused', async () => {
    const state = { answer: 'ok' as 'ok' | 'offline' | 'refused' };
    mockFetch(({ url, init }) => {
      if (state.answer === 'offline') throw new TypeError('Failed to fetch');
      if (state.answer === 'refused') return failure(403, 'FORBIDDEN', 'not an admin');
      if (url.endsWith('/admin/sessions') && init.method === 'POST') return success(session, 201);
      return success({ valid: true, expires_at: session.expires_at });
    });
    const { queryClient } = renderRoutes(routes, '/admin');
    expect(await screen.findByText('Admin content')).toBeInTheDocument();

    state.answer = 'offline';
    await queryClient.refetchQueries({ queryKey: adminEntryQueryOptions().queryKey });
    expect(queryClient.getQueryState(adminEntryQueryOptions().queryKey)?.status).toBe('error');
    // TanStack tells its observers on the next macrotask: once that has run, the guard has drawn what the
    // failed re-entry leads to (nothing else announces that the page stayed).
    await act(() => new Promise((resolve) => setTimeout(resolve, 0)));
    expect(screen.getByText('Admin content')).toBeInTheDocument();
    expect(screen.queryByText('Admin mode could not start')).not.toBeInTheDocument();

    state.answer = 'refused';
    await queryClient.refetchQueries({ queryKey: adminEntryQueryOptions().queryKey });
    expect(await screen.findByText('Dashboard')).toBeInTheDocument();
  });
});
