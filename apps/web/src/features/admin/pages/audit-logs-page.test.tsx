import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { useUiStore } from '../../../stores/ui-store';
import { failure, mockFetch, success } from '../../../test/fixtures';
import { renderRoutes } from '../../../test/render';
import { AuditLogsPage } from './audit-logs-page';

afterEach(() => useUiStore.setState({ toasts: [] }));

describe('AuditLogsPage', { timeout: 30_000 }, () => {
  it('shows the server’s refusal of a filter, not a failure to load with Try Again', async () => {
    mockFetch(({ url }) =>
      url.startsWith('/api/v1/admin/audit_logs/actions')
        ? success({ actions: [] })
        : url.startsWith('/api/v1/admin/audit_logs')
          ? failure(422, 'VALIDATION_ERROR', 'Please check your input and try again', [
              { field: 'target_type', message: 'Too long (at most 50 characters)' },
            ])
          : failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${url}`),
    );
    renderRoutes([{ path: '/admin/audit', element: <AuditLogsPage /> }], '/admin/audit?target_type=x');
    const panel = await screen.findByRole('alert', {}, { timeout: 10_000 });
    expect(panel).toHaveTextContent('Too long (at most 50 characters)');
    expect(panel).not.toHaveTextContent('could not be loaded');
    expect(screen.queryByRole('button', { name: 'Try Again' })).not.toBeInTheDocument();
  });
});
