import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { failure, mockFetch } from '../../../test/fixtures';
import { renderRoutes } from '../../../test/render';
import { AdminSettingsPage } from './admin-settings-page';
import { AdminUsersPage } from './admin-users-page';
import { AuditLogsPage } from './audit-logs-page';
import { BackgroundJobsPage } from './background-jobs-page';
import { BulkOperationsPage } from './bulk-operations-page';
import { CommunicationsPage } from './communications-page';
import { DashboardPage } from './dashboard-page';
import { FinancialPage } from './financial-page';
import { ModerationPage } from './moderation-page';
import { SystemHealthPage } from './system-health-page';

// Mantine's autosizing Textarea (Communications) listens for font loads; happy-dom has no document.fonts.
if (!('fonts' in document)) {
  Object.defineProperty(document, 'fonts', { value: new EventTarget() });
}

// A panel that said only "Unable to fetch the reports." left staff guessing between a server fault and a
// lost connection; Analytics, Users, Audit Logs and Settings already say why.
describe('admin pages whose figures could not be fetched', { timeout: 30_000 }, () => {
  it.each([
    ['/admin', <DashboardPage key="dashboard" />, 1],
    ['/admin/moderation', <ModerationPage key="moderation" />, 1],
    ['/admin/financial', <FinancialPage key="financial" />, 2],
    ['/admin/system-health', <SystemHealthPage key="health" />, 1],
    ['/admin/jobs', <BackgroundJobsPage key="jobs" />, 1],
    ['/admin/communications', <CommunicationsPage key="communications" />, 2],
    ['/admin/bulk-operations', <BulkOperationsPage key="bulk" />, 1],
  ])('%s says why in each of its error panels', async (path, element, panels) => {
    mockFetch(() => failure(500, 'INTERNAL_SERVER_ERROR', 'Something went wrong on our side.'));
    renderRoutes([{ path, element }], path);
    await waitFor(() => expect(screen.getAllByTestId('error-panel')).toHaveLength(panels), {
      timeout: 10_000,
    });
    for (const panel of screen.getAllByTestId('error-panel')) {
      expect(panel).toHaveTextContent(/Unable to fetch [^.]+: Server error\. Please try again later\./);
    }
  });
});

// Three pages titled their panel "X could not be loaded" beside the other admin pages' "Failed to Load X",
// the form of the spec's "Failed to Load Parties".
describe('admin pages whose list could not be fetched', { timeout: 30_000 }, () => {
  it.each([
    ['/admin/users', 'Failed to Load Users', <AdminUsersPage key="users" />],
    ['/admin/audit', 'Failed to Load Audit Logs', <AuditLogsPage key="audit" />],
    ['/admin/settings', 'Failed to Load Settings', <AdminSettingsPage key="settings" />],
  ])('%s titles its error panel %s', async (path, title, element) => {
    mockFetch(() => failure(500, 'INTERNAL_SERVER_ERROR', 'Something went wrong on our side.'));
    renderRoutes([{ path, element }], path);
    expect(await screen.findByTestId('error-panel', {}, { timeout: 10_000 })).toHaveTextContent(title);
  });
});
