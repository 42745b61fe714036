import type { AdminFinancial, AdminUserSummary } from '@haversack/contracts';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { saveBlob } from '../../../lib/save-blob';
import { failure, jsonResponse, mockFetch, success } from '../../../test/fixtures';
import { renderRoutes } from '../../../test/render';
import { ReportsPage } from './reports-page';

vi.mock('../../../lib/save-blob', () => ({ saveBlob: vi.fn() }));

afterEach(() => vi.mocked(saveBlob).mockClear());

const user = (n: number): AdminUserSummary => ({
  id: `u${n}`,
  email: n === 1 ? '=cmd@example.com' : `user${n}@example.com`,
  username: `user ${n}`,
  admin: false,
  tier: 'tier_2',
  subscription_status: 'active',
  email_verified: true,
  suspended_at: null,
  suspended_reason: null,
  created_at: '2026-01-01T00:00:00.000Z',
  last_seen_at: null,
});

async function savedText(): Promise<{ name: string; text: string }> {
  await waitFor(() => expect(saveBlob).toHaveBeenCalled());
  const [blob, name] = vi.mocked(saveBlob).mock.calls[0] ?? [];
  if (!(blob instanceof Blob) || typeof name !== 'string') throw new Error('nothing saved');
  return { name, text: await blob.text() };
}

// Review: /admin/reports was a second copy of Analytics, headed "Analytics", while the menu said Reports.
describe('ReportsPage', { timeout: 30_000 }, () => {
  it('is headed Reports and names itself so in the tab', async () => {
    mockFetch(({ url }) => failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${url}`));
    renderRoutes([{ path: '/admin/reports', element: <ReportsPage /> }], '/admin/reports');
    expect(await screen.findByRole('heading', { level: 1, name: 'Reports' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Analytics' })).not.toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe('Admin Reports · Haversack'));
  });

  it('downloads every user, page after page, as CSV with plans by name and formulas defused', async () => {
    const fetchMock = mockFetch(({ url }) => {
      const page = new URL(url, 'http://x').searchParams.get('page');
      return url.startsWith('/api/v1/admin/users?')
        ? jsonResponse(200, {
            status: 'success',
            data: page === '1' ? [user(1), user(2)] : [user(3)],
            meta: { total_count: 3, total_pages: 2, current_page: Number(page), per_page: 100 },
          })
        : failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${url}`);
    });
    renderRoutes([{ path: '/admin/reports', element: <ReportsPage /> }], '/admin/reports');
    await userEvent.click(await screen.findByRole('button', { name: 'Download Users CSV' }));
    const { name, text } = await savedText();
    expect(name).toMatch(/^haversack-users-\d{4}-\d{2}-\d{2}\.csv$/);
    const lines = text
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatch(/^"id","email","username","plan"/);
    expect(lines[1]).toContain(`"u1","'=cmd@example.com","user 1","Hero"`);
    expect(lines[3]).toContain('"u3"');
    expect(fetchMock.mock.calls.map(([url]) => String(url))).toEqual([
      '/api/v1/admin/users?page=1&per_page=100',
      '/api/v1/admin/users?page=2&per_page=100',
    ]);
  });

  it('downloads the cancellations with the plan each one ended', async () => {
    mockFetch(({ url }) =>
      url === '/api/v1/admin/financial'
        ? success({
            by_tier_status: [],
            monthly_revenue: [],
            cancellations: [
              {
                user_id: 'u1',
                email: 'gone@example.com',
                tier: 'tier_2',
                reason: 'Too dear, "really"',
                cancelled_at: '2026-11-03T08:00:00Z',
                cancel_at_period_end: false,
              },
            ],
          } satisfies AdminFinancial)
        : failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${url}`),
    );
    renderRoutes([{ path: '/admin/reports', element: <ReportsPage /> }], '/admin/reports');
    await userEvent.click(await screen.findByRole('button', { name: 'Download Cancellations CSV' }));
    const { text } = await savedText();
    expect(text.split('\r\n')[1]).toBe(
      '"2026-11-03T08:00:00Z","u1","gone@example.com","Hero","false","Too dear, ""really"""',
    );
  });
});
