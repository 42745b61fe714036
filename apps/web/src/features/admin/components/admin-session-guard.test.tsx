import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { failure, mockFetch, success } from '../../../test/fixtures';
import { renderRoutes } from '../../../test/render';
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
];

describe('AdminSessionGuard', () => {
  it('shows the admin page while the session check passes', async () => {
    mockFetch(() => success({ valid: true }));
    renderRoutes(routes, '/admin');
    expect(await screen.findByText('Admin content')).toBeInTheDocument();
  });

  it('replaces the page with "Admin Session Expired" when the server refuses the session', async () => {
    mockFetch(() => failure(403, 'FORBIDDEN', 'not an admin session'));
    renderRoutes(routes, '/admin');
    expect(await screen.findByRole('heading', { name: 'Admin Session Expired' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Return to Dashboard' })).toHaveAttribute('href', '/dashboard');
    expect(screen.queryByText('Admin content')).not.toBeInTheDocument();
  });

  it('keeps the page when the check cannot reach an answer (not an expiry)', async () => {
    const fetchMock = mockFetch(() => failure(404, 'RESOURCE_NOT_FOUND', 'no such route'));
    renderRoutes(routes, '/admin');
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalled());
    expect(screen.getByText('Admin content')).toBeInTheDocument();
  });
});
