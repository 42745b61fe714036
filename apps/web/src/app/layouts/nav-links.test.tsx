import { AppShell } from '@mantine/core';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { jsonResponse, mockFetch, success } from '../../test/fixtures';
import { renderRoutes } from '../../test/render';
import { NavLinks } from './nav-links';
import { mainNavigation } from './navigation';

function serve(unreadNotices: number, invitations: number) {
  mockFetch(({ url }) => {
    const { pathname } = new URL(url, 'http://test');
    if (pathname === '/api/v1/invitations')
      return success(
        Array.from({ length: invitations }, (_, i) => ({
          id: `i${i}`,
          party_id: 'p1',
          party_name: 'Mistwood',
          role: 'player',
          message: '',
          status: 'pending',
          invited_user: { id: 'u1', username: 'pip' },
          invited_by: { id: 'u2', username: 'mira' },
          created_at: new Date().toISOString(),
        })),
      );
    if (pathname === '/api/v1/notifications')
      return jsonResponse(200, {
        status: 'success',
        data: [],
        meta: { current_page: 1, total_pages: 1, total_count: 0, per_page: 20, unread_count: unreadNotices },
      });
    return jsonResponse(404, { status: 'error', error: { code: 'RESOURCE_NOT_FOUND', message: 'no' } });
  });
  renderRoutes(
    [
      {
        path: '/',
        element: (
          <AppShell>
            <AppShell.Navbar>
              <NavLinks items={mainNavigation} pathname="/" />
            </AppShell.Navbar>
          </AppShell>
        ),
      },
    ],
    '/',
  );
}

describe('the Notifications entry of the navigation', () => {
  it('shows the unread invitations and notices as a badge, and says so in its name', async () => {
    serve(2, 1);
    // The label and the badge's hidden words sit in separate boxes: a space may come between them.
    expect(await screen.findByRole('link', { name: /^Notifications ?\(3 unread\)$/ })).toHaveAttribute(
      'href',
      '/notifications',
    );
    expect(screen.getByTestId('notifications-badge')).toHaveTextContent('3');
  });

  it('shows no badge when nothing is unread', async () => {
    serve(0, 0);
    expect(await screen.findByRole('link', { name: 'Notifications' })).toBeInTheDocument();
    expect(screen.queryByTestId('notifications-badge')).toBeNull();
  });
});
