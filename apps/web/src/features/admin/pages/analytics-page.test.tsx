import type { AdminAnalytics } from '@haversack/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
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

afterEach(() => vi.restoreAllMocks());

describe('AnalyticsPage', { timeout: 30_000 }, () => {
  it('keeps the charts out of the tab order: the table beside them holds their figures', async () => {
    mockFetch(({ url }) =>
      url.startsWith('/api/v1/admin/stats/analytics?')
        ? success({
            from: '2026-11-01',
            to: '2026-11-02',
            granularity: 'day',
            points: [point('2026-11-01'), point('2026-11-02')],
          })
        : failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${url}`),
    );
    const { container } = renderRoutes(
      [{ path: '/admin/analytics', element: <AnalyticsPage /> }],
      '/admin/analytics',
    );
    await screen.findByRole('region', { name: 'Figures by day' });
    await waitFor(() => expect(container.querySelectorAll('svg.recharts-surface')).toHaveLength(3));
    expect(container.querySelectorAll('.recharts-wrapper [tabindex]:not([tabindex="-1"])')).toHaveLength(0);
  });

  it('counts in whole numbers on every chart’s axis, however small the counts', async () => {
    const small = { ...point('2026-11-01'), signups: 1, active_users: 1, upgrades: 1, loot_activity: 1 };
    mockFetch(({ url }) =>
      url.startsWith('/api/v1/admin/stats/analytics?')
        ? success({
            from: '2026-11-01',
            to: '2026-11-02',
            granularity: 'day',
            points: [small, { ...small, period: '2026-11-02', signups: 0, upgrades: 0 }],
          })
        : failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${url}`),
    );
    const { container } = renderRoutes(
      [{ path: '/admin/analytics', element: <AnalyticsPage /> }],
      '/admin/analytics',
    );
    await waitFor(() => expect(container.querySelectorAll('svg.recharts-surface')).toHaveLength(3));
    const ticks = [
      ...container.querySelectorAll('.recharts-yAxis-tick-labels .recharts-cartesian-axis-tick-value'),
    ].map((tick) => tick.textContent ?? '');
    expect(ticks.length).toBeGreaterThan(0);
    expect(ticks.filter((tick) => !/^\d+$/.test(tick.replace(/,/g, '')))).toEqual([]);
  });

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

  it.each([
    ['an end before the start', '2026-11-10', '2026-11-01', 'to must not be before from'],
    [
      'a range longer than the server serves',
      '2025-01-01',
      '2026-06-01',
      'The range may span at most 366 days',
    ],
    [
      'a year outside the supported ones',
      '0999-01-01',
      '2026-11-01',
      'from must be between 1000-01-01 and 9998-12-31',
    ],
  ])(
    'says on the field what is wrong with %s, and asks the server nothing for it',
    async (_, from, to, message) => {
      const fetchMock = mockFetch(({ url }) =>
        url.startsWith('/api/v1/admin/stats/analytics?')
          ? success({ from: '2026-11-01', to: '2026-11-01', granularity: 'day', points: [] })
          : failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${url}`),
      );
      renderRoutes([{ path: '/admin/analytics', element: <AnalyticsPage /> }], '/admin/analytics');
      await screen.findByText('No Data', {}, { timeout: 10_000 });
      fireEvent.change(screen.getByLabelText('From'), { target: { value: from } });
      fireEvent.change(screen.getByLabelText('To'), { target: { value: to } });
      expect(await screen.findByText(message)).toBeInTheDocument();
      const asked = fetchMock.mock.calls.map(([input]) => String(input));
      expect(asked.some((url) => url.includes(`from=${from}`) && url.includes(`to=${to}`))).toBe(false);
    },
  );

  it('keeps From and To in one row, tops aligned, when an error shows under one of them', async () => {
    mockFetch(({ url }) =>
      url.startsWith('/api/v1/admin/stats/analytics?')
        ? success({ from: '2026-11-01', to: '2026-11-01', granularity: 'day', points: [] })
        : failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${url}`),
    );
    renderRoutes([{ path: '/admin/analytics', element: <AnalyticsPage /> }], '/admin/analytics');
    await screen.findByText('No Data', {}, { timeout: 10_000 });
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-11-10' } });
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2026-11-01' } });
    expect(await screen.findByText('to must not be before from')).toBeInTheDocument();
    const row = screen.getByLabelText('From').closest('.mantine-Group-root');
    expect(row).not.toBeNull();
    expect(row).toBe(screen.getByLabelText('To').closest('.mantine-Group-root'));
    // Aligned at the end, the field with an error under it rose above the other.
    expect((row as HTMLElement).style.getPropertyValue('--group-align')).toBe('flex-start');
    // The granularity sits level with the inputs under a label of its own.
    expect(row).toContainElement(screen.getByText('Granularity'));
  });
});
