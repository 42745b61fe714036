import type { AdminAnalytics } from '@haversack/contracts';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { failure, mockFetch, success } from '../../../test/fixtures';
import { renderRoutes } from '../../../test/render';
import { AnalyticsPage } from './analytics-page';

const point = (period: string) => ({
  period,
  signups: 3,
  active_users: 12,
  inventory_actions: 40,
  shop_activity: 5,
  loot_activity: 2,
  upgrades: 1,
  cancellations: 0,
});

describe('AnalyticsPage', { timeout: 30_000 }, () => {
  it('lets the keyboard reach the figures’ table, which a phone scrolls sideways', async () => {
    const analytics: AdminAnalytics = {
      from: '2026-11-01',
      to: '2026-11-02',
      granularity: 'day',
      points: [point('2026-11-01'), point('2026-11-02')],
    };
    mockFetch(({ url }) =>
      url.startsWith('/api/v1/admin/stats/analytics?')
        ? success(analytics)
        : failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${url}`),
    );
    renderRoutes([{ path: '/admin/analytics', element: <AnalyticsPage /> }], '/admin/analytics');
    const region = await screen.findByRole('region', { name: 'Figures by day' });
    expect(region).toHaveAttribute('tabindex', '0');
    // The element that scrolls (the scroll area's viewport) is the one that takes focus.
    expect(region).toHaveClass('mantine-ScrollArea-viewport');
    expect(within(region).getByRole('table')).toBeInTheDocument();
    region.focus();
    expect(region).toHaveFocus();
  });

  it('says why the series could not be fetched, not a guess about the range', async () => {
    mockFetch(() => failure(500, 'INTERNAL_SERVER_ERROR', 'Something went wrong on our side.'));
    renderRoutes([{ path: '/admin/analytics', element: <AnalyticsPage /> }], '/admin/analytics');
    expect(await screen.findByText('Failed to Load Analytics', {}, { timeout: 10_000 })).toBeInTheDocument();
    expect(
      screen.getByText('Unable to fetch the time series: Server error. Please try again later.'),
    ).toBeInTheDocument();
    expect(screen.queryByText(/at most a year/)).not.toBeInTheDocument();
  });
});
