import { fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { useUiStore } from '../../../stores/ui-store';
import { failure, jsonResponse, mockFetch, success } from '../../../test/fixtures';
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

  it.each([
    ['an end before the start', '2026-11-10', '2026-11-01', 'to', 'to must not be before from'],
    [
      'a year outside the supported ones',
      '2026-11-01',
      '9999-01-01',
      'to',
      'to must be between 1000-01-01 and 9998-12-31',
    ],
  ])('says on the field what is wrong with %s, and applies nothing', async (_, from, to, field, message) => {
    const fetchMock = mockFetch(({ url }) =>
      url.startsWith('/api/v1/admin/audit_logs/actions')
        ? success({ actions: [] })
        : url.startsWith('/api/v1/admin/audit_logs')
          ? jsonResponse(200, {
              status: 'success',
              data: [],
              meta: { total_count: 0, total_pages: 0, current_page: 1, per_page: 50 },
            })
          : failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${url}`),
    );
    const { router } = renderRoutes([{ path: '/admin/audit', element: <AuditLogsPage /> }], '/admin/audit');
    await screen.findByText('No audit entries', {}, { timeout: 10_000 });
    fireEvent.change(screen.getByLabelText('From'), { target: { value: from } });
    fireEvent.change(screen.getByLabelText('To'), { target: { value: to } });
    await userEvent.click(screen.getByRole('button', { name: 'Apply filters' }));
    const input = screen.getByLabelText(field === 'to' ? 'To' : 'From');
    expect(input).toBeInvalid();
    expect(input).toHaveAccessibleDescription(expect.stringContaining(message));
    expect(router.state.location.search).toBe('');
    expect(fetchMock.mock.calls.some(([url]) => String(url).includes('from='))).toBe(false);
  });
});
