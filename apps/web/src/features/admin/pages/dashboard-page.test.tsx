import type { AdminDashboard } from '@haversack/contracts';
import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { layOutCharts } from '../../../test/charts';
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
    layOutCharts();
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

  it('names the inventory chart the keyboard reaches, and counts its actions in whole numbers', async () => {
    layOutCharts();
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
    const chart = await screen.findByRole('application', { name: 'Inventory actions per day (30 days)' });
    expect(chart).toHaveAttribute('tabindex', '0');
    const ticks = [
      ...container.querySelectorAll('.recharts-yAxis-tick-labels .recharts-cartesian-axis-tick-value'),
    ].map((tick) => tick.textContent ?? '');
    expect(ticks.length).toBeGreaterThan(0);
    expect(ticks.filter((tick) => !/^\d+$/.test(tick))).toEqual([]);
  });
});
