import type { AdminDashboard } from '@haversack/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { failure, mockFetch, success } from '../../../test/fixtures';
import { renderRoutes } from '../../../test/render';
import { DashboardPage } from './dashboard-page';

const tier = (id: string, count: number, granted: number, demo: number) => ({
  tier: id,
  name: id,
  count,
  granted,
  demo,
});

afterEach(() => vi.restoreAllMocks());

describe('DashboardPage', { timeout: 30_000 }, () => {
  it('counts as paid only the plans someone pays for: not those staff granted or taken on demo billing', async () => {
    const dashboard: AdminDashboard = {
      users: { total: 30, new_7d: 2, new_30d: 5, active_7d: 9, active_30d: 12 },
      parties: 4,
      characters: 20,
      item_templates: 300,
      item_stacks: 900,
      inventory_actions_per_day: [{ date: '2026-11-27', count: 7 }],
      subscriptions_by_tier: [
        tier('tier_free', 10, 0, 0),
        tier('tier_1', 6, 1, 2),
        tier('tier_2', 4, 1, 1),
        tier('tier_3', 2, 0, 0),
      ],
    };
    mockFetch(({ url }) =>
      url === '/api/v1/admin/stats/dashboard'
        ? success(dashboard)
        : failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${url}`),
    );
    renderRoutes([{ path: '/admin', element: <DashboardPage /> }], '/admin');
    const label = await screen.findByText('Paid subscriptions');
    // 12 on paid plans, 2 granted, 3 on demo billing: 7 pay.
    expect(label.nextElementSibling).toHaveTextContent(/^7$/);
    expect(label.nextElementSibling?.nextElementSibling).toHaveTextContent(
      /^2 granted by staff, 3 on demo billing: no payment$/,
    );
  });

  it('keeps the donut out of the tab order: the list beside it holds its figures', async () => {
    mockFetch(({ url }) =>
      url === '/api/v1/admin/stats/dashboard'
        ? success({
            users: { total: 3, new_7d: 1, new_30d: 1, active_7d: 1, active_30d: 1 },
            parties: 0,
            characters: 0,
            item_templates: 0,
            item_stacks: 0,
            inventory_actions_per_day: [{ date: '2026-11-27', count: 0 }],
            subscriptions_by_tier: [tier('tier_free', 2, 0, 0), tier('tier_1', 1, 0, 0)],
          } satisfies AdminDashboard)
        : failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${url}`),
    );
    const { container } = renderRoutes([{ path: '/admin', element: <DashboardPage /> }], '/admin');
    await waitFor(() => expect(container.querySelectorAll('svg.recharts-surface')).toHaveLength(1));
    expect(container.querySelectorAll('.recharts-wrapper [tabindex]:not([tabindex="-1"])')).toHaveLength(0);
  });

  // The stroke that parts one tier's slice from the next drew a lone radius across a ring of one tier.
  it('draws a ring with no seam when one tier holds every user, and parts the slices when several do', async () => {
    const dashboardWith = (tiers: AdminDashboard['subscriptions_by_tier']): AdminDashboard => ({
      users: { total: 5, new_7d: 1, new_30d: 1, active_7d: 1, active_30d: 1 },
      parties: 0,
      characters: 0,
      item_templates: 0,
      item_stacks: 0,
      inventory_actions_per_day: [{ date: '2026-11-27', count: 0 }],
      subscriptions_by_tier: tiers,
    });
    const strokesOfTheDonut = async (dashboard: AdminDashboard) => {
      mockFetch(({ url }) =>
        url === '/api/v1/admin/stats/dashboard'
          ? success(dashboard)
          : failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${url}`),
      );
      const { container, unmount } = renderRoutes([{ path: '/admin', element: <DashboardPage /> }], '/admin');
      await waitFor(
        () => expect(container.querySelectorAll('.recharts-pie-sector path').length).toBeGreaterThan(0),
        {
          timeout: 5_000,
        },
      );
      const widths = [...container.querySelectorAll('.recharts-pie-sector path')].map((path) =>
        path.getAttribute('stroke-width'),
      );
      unmount();
      return widths;
    };
    expect(
      await strokesOfTheDonut(
        dashboardWith([tier('tier_free', 5, 0, 0), tier('tier_1', 0, 0, 0), tier('tier_2', 0, 0, 0)]),
      ),
    ).toEqual(['0']);
    expect(
      await strokesOfTheDonut(dashboardWith([tier('tier_free', 4, 0, 0), tier('tier_1', 1, 0, 0)])),
    ).toEqual(['1', '1']);
  });

  it("counts the inventory chart's actions in whole numbers", async () => {
    mockFetch(({ url }) =>
      url === '/api/v1/admin/stats/dashboard'
        ? success({
            users: { total: 3, new_7d: 1, new_30d: 1, active_7d: 1, active_30d: 1 },
            parties: 0,
            characters: 0,
            item_templates: 0,
            item_stacks: 0,
            inventory_actions_per_day: [
              { date: '2026-11-26', count: 0 },
              { date: '2026-11-27', count: 1 },
            ],
            subscriptions_by_tier: [tier('tier_free', 0, 0, 0)],
          } satisfies AdminDashboard)
        : failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${url}`),
    );
    const { container } = renderRoutes([{ path: '/admin', element: <DashboardPage /> }], '/admin');
    await waitFor(() => expect(container.querySelectorAll('svg.recharts-surface')).toHaveLength(1));
    const ticks = [
      ...container.querySelectorAll('.recharts-yAxis-tick-labels .recharts-cartesian-axis-tick-value'),
    ].map((tick) => tick.textContent ?? '');
    expect(ticks.length).toBeGreaterThan(0);
    expect(ticks.filter((tick) => !/^\d+$/.test(tick))).toEqual([]);
  });

  // Review M1: the chart was a focusable role=application whose arrow-key tooltip no screen reader heard.
  it('gives the day-by-day inventory actions as a table behind "Show as table", the chart out of the tab order', async () => {
    mockFetch(({ url }) =>
      url === '/api/v1/admin/stats/dashboard'
        ? success({
            users: { total: 3, new_7d: 1, new_30d: 1, active_7d: 1, active_30d: 1 },
            parties: 0,
            characters: 0,
            item_templates: 0,
            item_stacks: 0,
            inventory_actions_per_day: [
              { date: '2026-11-26', count: 0 },
              { date: '2026-11-27', count: 1204 },
            ],
            subscriptions_by_tier: [tier('tier_free', 0, 0, 0)],
          } satisfies AdminDashboard)
        : failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${url}`),
    );
    const { container } = renderRoutes([{ path: '/admin', element: <DashboardPage /> }], '/admin');
    const show = await screen.findByRole('button', { name: 'Show as table' });
    await waitFor(() => expect(container.querySelectorAll('svg.recharts-surface')).toHaveLength(1));
    expect(screen.queryByRole('application')).not.toBeInTheDocument();
    expect(container.querySelectorAll('.recharts-wrapper [tabindex]:not([tabindex="-1"])')).toHaveLength(0);
    expect(show).toHaveAttribute('aria-expanded', 'false');
    await userEvent.click(show);
    expect(show).toHaveAttribute('aria-expanded', 'true');
    const table = screen.getByRole('table', { name: 'Inventory actions per day (30 days)' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => [th.textContent, th.getAttribute('scope')]),
    ).toEqual([
      ['Day', 'col'],
      ['Inventory actions', 'col'],
    ]);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getByRole('rowheader').textContent)).toEqual([
      '2026-11-26',
      '2026-11-27',
    ]);
    expect(within(rows[1] as HTMLElement).getByRole('cell')).toHaveTextContent(/^1,204$/);
  });
});
