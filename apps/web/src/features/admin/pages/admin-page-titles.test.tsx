import { waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { failure, mockFetch } from '../../../test/fixtures';
import { renderRoutes } from '../../../test/render';
import { AdminSettingsPage } from './admin-settings-page';
import { AdminUserDetailPage } from './admin-user-detail-page';
import { AdminUsersPage } from './admin-users-page';
import { AuditLogsPage } from './audit-logs-page';

// Every admin page names itself in the tab (WCAG 2.4.2), also while its data is still loading or failed:
// a page reached from another admin page must not keep that page's title.
describe('admin page titles', () => {
  it.each([
    ['/admin/users', <AdminUsersPage key="users" />, 'Admin Users · Haversack'],
    ['/admin/audit', <AuditLogsPage key="audit" />, 'Admin Audit Logs · Haversack'],
    ['/admin/settings', <AdminSettingsPage key="settings" />, 'Admin Settings · Haversack'],
    ['/admin/users/user-1', <AdminUserDetailPage key="detail" />, 'Admin User · Haversack'],
  ])('%s', async (path, element, title) => {
    document.title = 'Admin Financial · Haversack';
    mockFetch(() => failure(503, 'SERVICE_UNAVAILABLE', 'Down for a moment.'));
    renderRoutes([{ path: path.replace('user-1', ':id'), element }], path);
    await waitFor(() => expect(document.title).toBe(title));
  });
});
