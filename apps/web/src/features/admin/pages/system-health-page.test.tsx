import type { SystemHealth } from '@haversack/contracts';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { failure, mockFetch, success } from '../../../test/fixtures';
import { useGlobalStyles } from '../../../test/global-styles';
import { renderRoutes } from '../../../test/render';
import { restoreViewportAfterEach, setViewport } from '../../../test/viewport';
import { SYSTEM_HEALTH_REFRESH_MS } from '../api/system-health-api';
import { SystemHealthPage } from './system-health-page';

const routes = [
  { path: '/admin/system-health', element: <SystemHealthPage /> },
  { path: '/admin/jobs', element: <p>Jobs page</p> },
];

function buildHealth(overrides: Partial<SystemHealth> = {}): SystemHealth {
  return {
    checked_at: '2026-11-23T19:00:00.000Z',
    database: { status: 'ok', engine: 'postgresql', latency_ms: 1.4 },
    redis: { status: 'down', configured: true, latency_ms: null },
    mail: { status: 'warn', transport: 'file' },
    billing: { status: 'ok', provider: 'stripe' },
    realtime: { status: 'ok', connections: 12, streams: 5 },
    jobs: { status: 'warn', queued: 3, scheduled: 7, failed: 2 },
    disk: { status: 'warn', free_bytes: 800 * 1024 * 1024 },
    app: { version: '0.1.0', node_version: 'v20.19.0', uptime_s: 7_500, memory_rss_bytes: 150 * 1024 * 1024 },
    ...overrides,
  };
}

function card(title: string): HTMLElement {
  const heading = screen.getByRole('heading', { name: title });
  const found = heading.closest<HTMLElement>('[data-testid="health-card"]');
  if (!found) throw new Error(`no card for ${title}`);
  return found;
}

const healthCalls = (fetchMock: ReturnType<typeof mockFetch>) =>
  fetchMock.mock.calls.filter(([url]) => String(url).endsWith('/admin/system_health'));

describe('SystemHealthPage', { timeout: 30_000 }, () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('shows a loading state while the figures load', async () => {
    mockFetch(() => new Promise<Response>(() => undefined));
    renderRoutes(routes, '/admin/system-health');
    expect(await screen.findByLabelText('Loading system health')).toHaveAttribute('aria-busy', 'true');
  });

  it('shows each part with its status badge and figures', async () => {
    mockFetch(() => success(buildHealth()));
    renderRoutes(routes, '/admin/system-health');
    await screen.findByRole('heading', { name: 'Database' });

    expect(within(card('Database')).getByText('OK')).toBeInTheDocument();
    expect(within(card('Database')).getByText('PostgreSQL')).toBeInTheDocument();
    expect(within(card('Redis')).getByText('Down')).toBeInTheDocument();
    expect(within(card('Redis')).getByText('Ping: no answer')).toBeInTheDocument();
    expect(within(card('Mail')).getByText('Warning')).toBeInTheDocument();
    expect(within(card('Real-time')).getByText('Open connections: 12')).toBeInTheDocument();
    expect(within(card('Real-time')).getByText('Streams followed: 5')).toBeInTheDocument();
    expect(within(card('Job queue')).getByText('Failed: 2')).toBeInTheDocument();
    expect(within(card('Job queue')).getByRole('link', { name: 'Background Jobs' })).toHaveAttribute(
      'href',
      '/admin/jobs',
    );
    expect(within(card('Disk')).getByText('Warning')).toBeInTheDocument();
    expect(within(card('Disk')).getByText('Free on the data directory’s disk: 800 MB')).toBeInTheDocument();
    expect(
      within(card('Disk')).getByText('Under 1 GB: make room before writes start to fail'),
    ).toBeInTheDocument();
    expect(within(card('Application')).getByText('Node.js v20.19.0')).toBeInTheDocument();
    expect(within(card('Application')).getByText('Up for 2 h 5 min')).toBeInTheDocument();
    expect(within(card('Application')).getByText('Memory (RSS): 150 MB')).toBeInTheDocument();
  });

  describe('on a phone', () => {
    restoreViewportAfterEach();
    it('makes the job queue’s Background Jobs link at least 24 px tall (screen sweep: 20 px)', async () => {
      useGlobalStyles('Anchor');
      setViewport(375, 812);
      mockFetch(() => success(buildHealth()));
      renderRoutes(routes, '/admin/system-health');
      await screen.findByRole('heading', { name: 'Job queue' });
      const link = within(card('Job queue')).getByRole('link', { name: 'Background Jobs' });
      expect(getComputedStyle(link).minHeight).toBe('24px');
    });
  });

  it('says it could not load, and Try Again asks again', async () => {
    let calls = 0;
    mockFetch(() => {
      calls += 1;
      return calls <= 2 ? failure(500, 'INTERNAL_SERVER_ERROR', 'boom') : success(buildHealth());
    });
    const user = userEvent.setup();
    renderRoutes(routes, '/admin/system-health');
    const panel = await screen.findByRole('alert', {}, { timeout: 10_000 });
    expect(within(panel).getByText('Failed to Load System Health')).toBeInTheDocument();
    await user.click(within(panel).getByRole('button', { name: /try again/i }));
    expect(await screen.findByRole('heading', { name: 'Database' })).toBeInTheDocument();
  });

  it('asks again every 30 seconds', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const fetchMock = mockFetch(() => success(buildHealth()));
    renderRoutes(routes, '/admin/system-health');
    await screen.findByRole('heading', { name: 'Database' });
    expect(healthCalls(fetchMock)).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(SYSTEM_HEALTH_REFRESH_MS + 100);
    await vi.waitFor(() => expect(healthCalls(fetchMock)).toHaveLength(2));
  });
});
