import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockFetch } from '../../../test/fixtures';
import { renderRoutes } from '../../../test/render';
import { AnalyticsPage } from './analytics-page';
import { BackgroundJobsPage } from './background-jobs-page';
import { DashboardPage } from './dashboard-page';
import { FinancialPage } from './financial-page';
import { ModerationPage } from './moderation-page';
import { SystemHealthPage } from './system-health-page';

// spec/01 §2: an admin page that is loading shows a loading message. Skeletons alone said nothing to a
// screen reader (a label on a plain div is not read) and nothing in words to anyone, where Users, Audit
// Logs and Settings say "Loading ...".
describe('admin pages while their figures load', { timeout: 30_000 }, () => {
  it.each([
    ['/admin', <DashboardPage key="dashboard" />, 'Loading the dashboard...'],
    ['/admin/analytics', <AnalyticsPage key="analytics" />, 'Loading analytics...'],
    ['/admin/moderation', <ModerationPage key="moderation" />, 'Loading reports...'],
    ['/admin/financial', <FinancialPage key="financial" />, 'Loading financial data...'],
    ['/admin/system-health', <SystemHealthPage key="health" />, 'Loading system health...'],
    ['/admin/jobs', <BackgroundJobsPage key="jobs" />, 'Loading jobs...'],
  ])('%s says it is loading, as a status', async (path, element, message) => {
    mockFetch(() => new Promise<Response>(() => undefined));
    renderRoutes([{ path, element }], path);
    const statuses = await screen.findAllByRole('status', {}, { timeout: 5_000 });
    expect(statuses.map((status) => status.textContent)).toContain(message);
  });
});
