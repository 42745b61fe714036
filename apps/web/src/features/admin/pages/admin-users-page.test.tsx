import type { AdminUserSummary } from '@haversack/contracts';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { jsonResponse, mockFetch } from '../../../test/fixtures';
import { renderRoutes } from '../../../test/render';
import { AdminUsersPage } from './admin-users-page';

function buildUser(n: number): AdminUserSummary {
  return {
    id: `user-${n}`,
    email: `bulk${n}@example.com`,
    username: `bulk_user_${n}`,
    admin: false,
    tier: 'tier_free',
    subscription_status: 'active',
    email_verified: true,
    suspended_at: null,
    suspended_reason: null,
    created_at: '2026-11-01T10:00:00.000Z',
    last_seen_at: null,
  };
}

/** 34 users matching "bulk", 25 a page: two pages, and nothing past them. */
function serve() {
  return mockFetch(({ url }) => {
    const page = Number(new URL(url, 'http://test').searchParams.get('page') ?? '1');
    const users = page === 1 ? [1, 2, 3].map(buildUser) : page === 2 ? [4].map(buildUser) : [];
    return jsonResponse(200, {
      status: 'success',
      data: users,
      meta: { current_page: page, total_pages: 2, total_count: 34, per_page: 25 },
    });
  });
}

describe('AdminUsersPage', { timeout: 30_000 }, () => {
  it('past the last page says so, links to page 1 of the same search and keeps the pager', async () => {
    // Review (content): /admin/users?page=99 said "No users found" with no way back.
    const fetchMock = serve();
    const user = userEvent.setup();
    renderRoutes([{ path: '/admin/users', element: <AdminUsersPage /> }], '/admin/users?search=bulk&page=99');
    expect(
      await screen.findByRole('heading', { name: 'This page is past the end' }, { timeout: 10_000 }),
    ).toBeInTheDocument();
    expect(screen.getByText('There are 2 pages in this list.')).toBeInTheDocument();
    expect(screen.queryByText('No Users Found')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to page 1' })).toHaveAttribute(
      'href',
      '/admin/users?search=bulk',
    );

    expect(screen.getByRole('button', { name: 'Previous page' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Page 2' }));
    expect(await screen.findByText('bulk4@example.com')).toBeInTheDocument();
    await waitFor(() =>
      expect(fetchMock.mock.calls.some(([url]) => /[?&]page=2\b/.test(String(url)))).toBe(true),
    );
  });

  it('says No Users Found when a search matches nobody', async () => {
    mockFetch(() =>
      jsonResponse(200, {
        status: 'success',
        data: [],
        meta: { current_page: 1, total_pages: 0, total_count: 0, per_page: 25 },
      }),
    );
    renderRoutes([{ path: '/admin/users', element: <AdminUsersPage /> }], '/admin/users?search=nobody');
    expect(
      await screen.findByRole('heading', { name: 'No Users Found' }, { timeout: 10_000 }),
    ).toBeInTheDocument();
    expect(
      screen.getByText('No account matches this search. Try fewer words or filters.'),
    ).toBeInTheDocument();
  });
});
