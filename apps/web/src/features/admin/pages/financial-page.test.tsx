import type { AdminFinancial } from '@haversack/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { failure, jsonResponse, mockFetch, success } from '../../../test/fixtures';
import { renderRoutes } from '../../../test/render';
import { adminDateTime } from '../lib/format';
import { FinancialPage } from './financial-page';

afterEach(() => vi.restoreAllMocks());

describe('FinancialPage', { timeout: 30_000 }, () => {
  // Review M1: the chart was a focusable role=application whose arrow-key tooltip no screen reader heard.
  it('gives the month-by-month revenue as a table behind "Show as table", the chart out of the tab order', async () => {
    const financial: AdminFinancial = {
      by_tier_status: [],
      monthly_revenue: [
        { month: '2026-10', paid_subscriptions: 1, revenue_cents: 500, currency: 'usd' },
        { month: '2026-11', paid_subscriptions: 2, revenue_cents: 1000, currency: 'usd' },
      ],
      cancellations: [],
    };
    mockFetch(({ url }) =>
      url === '/api/v1/admin/financial'
        ? success(financial)
        : url.startsWith('/api/v1/admin/financial/billing_events')
          ? jsonResponse(200, {
              status: 'success',
              data: [],
              meta: { total_count: 0, total_pages: 0, current_page: 1, per_page: 20 },
            })
          : failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${url}`),
    );
    const { container } = renderRoutes(
      [{ path: '/admin/financial', element: <FinancialPage /> }],
      '/admin/financial',
    );
    const show = await screen.findByRole('button', { name: 'Show as table' }, { timeout: 10_000 });
    await waitFor(() => expect(container.querySelectorAll('svg.recharts-surface')).toHaveLength(1));
    expect(screen.queryByRole('application')).not.toBeInTheDocument();
    expect(container.querySelectorAll('.recharts-wrapper [tabindex]:not([tabindex="-1"])')).toHaveLength(0);
    await userEvent.click(show);
    const table = screen.getByRole('table', { name: 'Monthly revenue (12 months)' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => [th.textContent, th.getAttribute('scope')]),
    ).toEqual([
      ['Month', 'col'],
      ['Revenue', 'col'],
    ]);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(
      rows.map((row) => [
        within(row).getByRole('rowheader').textContent,
        within(row).getByRole('cell').textContent,
      ]),
    ).toEqual([
      ['2026-10', '$5.00'],
      ['2026-11', '$10.00'],
    ]);
  });

  // Review: the Tier column read "tier_free" for a Hero plan ended at once, and "No reason given" stood
  // in a larger type than the reasons above and below it.
  it("names the plan each cancellation ended, and sets a missing reason in the reasons' type", async () => {
    const row = { email: 'x@example.com', cancelled_at: '2026-11-03T08:00:00.000Z' };
    mockFetch(({ url }) =>
      url === '/api/v1/admin/financial'
        ? success({
            by_tier_status: [],
            monthly_revenue: [],
            cancellations: [
              { ...row, user_id: 'u1', tier: 'tier_2', reason: 'Too dear', cancel_at_period_end: true },
              { ...row, user_id: 'u2', tier: 'tier_2', reason: null, cancel_at_period_end: false },
              { ...row, user_id: 'u3', tier: null, reason: null, cancel_at_period_end: false },
            ],
          } satisfies AdminFinancial)
        : url.startsWith('/api/v1/admin/financial/billing_events')
          ? jsonResponse(200, {
              status: 'success',
              data: [],
              meta: { total_count: 0, total_pages: 0, current_page: 1, per_page: 20 },
            })
          : failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${url}`),
    );
    renderRoutes([{ path: '/admin/financial', element: <FinancialPage /> }], '/admin/financial');
    const table = await screen.findByRole('table', { name: 'Cancellations' }, { timeout: 10_000 });
    const rows = within(table).getAllByRole('row').slice(1);
    const cells = (i: number) => within(rows[i] as HTMLElement).getAllByRole('cell');
    expect(cells(0)[2]).toHaveTextContent(/^Hero \(at period end\)$/);
    expect(cells(1)[2]).toHaveTextContent(/^Hero$/);
    expect(cells(2)[2]).toHaveTextContent(/^Not recorded$/);
    expect(within(table).queryByText(/tier_/)).not.toBeInTheDocument();
    // The cell's own size, not Text's default (md), which is larger than a table's.
    const noReason = within(rows[1] as HTMLElement).getByText('No reason given');
    expect(noReason).toHaveAttribute('data-inherit', 'true');
  });

  // One date format across the admin pages: the audit log's.
  it('dates cancellations and billing events as the other admin pages date things', async () => {
    mockFetch(({ url }) =>
      url === '/api/v1/admin/financial'
        ? success({
            by_tier_status: [],
            monthly_revenue: [],
            cancellations: [
              {
                user_id: 'u1',
                email: 'gone@example.com',
                tier: 'tier_1',
                reason: null,
                cancelled_at: '2026-11-03T08:00:00.000Z',
                cancel_at_period_end: true,
              },
            ],
          } satisfies AdminFinancial)
        : url.startsWith('/api/v1/admin/financial/billing_events')
          ? jsonResponse(200, {
              status: 'success',
              data: [
                { id: 'e1', provider: 'local', type: 'checkout', received_at: '2026-11-04T09:00:00.000Z' },
              ],
              meta: { total_count: 1, total_pages: 1, current_page: 1, per_page: 20 },
            })
          : failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${url}`),
    );
    renderRoutes([{ path: '/admin/financial', element: <FinancialPage /> }], '/admin/financial');
    expect(
      await screen.findByText(adminDateTime('2026-11-03T08:00:00.000Z'), {}, { timeout: 10_000 }),
    ).toBeInTheDocument();
    expect(await screen.findByText(adminDateTime('2026-11-04T09:00:00.000Z'))).toBeInTheDocument();
  });
});
