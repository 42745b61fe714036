import type { AuditLogEntry } from '@haversack/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
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
    await screen.findByText('No Audit Entries', {}, { timeout: 10_000 });
    fireEvent.change(screen.getByLabelText('From'), { target: { value: from } });
    fireEvent.change(screen.getByLabelText('To'), { target: { value: to } });
    await userEvent.click(screen.getByRole('button', { name: 'Apply filters' }));
    const input = screen.getByLabelText(field === 'to' ? 'To' : 'From');
    expect(input).toBeInvalid();
    expect(input).toHaveAccessibleDescription(expect.stringContaining(message));
    expect(router.state.location.search).toBe('');
    expect(fetchMock.mock.calls.some(([url]) => String(url).includes('from='))).toBe(false);
  });

  it('names each target in words, links a user to their admin page, and keeps the raw id beside', async () => {
    const userId = '5a6b7c8d-9e0f-4a1b-8c2d-3e4f5a6b7c8d';
    const announcementId = '9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a';
    const logged = (id: string, fields: Partial<AuditLogEntry>): AuditLogEntry => ({
      id,
      actor_id: null,
      actor_email: 'mira@example.com',
      action: 'user_suspended',
      target_type: null,
      target_id: null,
      before: null,
      after: null,
      details: {},
      ip_address: null,
      user_agent: null,
      created_at: '2026-03-01T10:00:00.000Z',
      ...fields,
    });
    mockFetch(({ url }) =>
      url.startsWith('/api/v1/admin/audit_logs/actions')
        ? success({ actions: [] })
        : url.startsWith('/api/v1/admin/audit_logs')
          ? jsonResponse(200, {
              status: 'success',
              data: [
                logged('e1', {
                  target_type: 'user',
                  target_id: userId,
                  details: { email: 'bram@example.com' },
                }),
                logged('e2', {
                  action: 'announcement_created',
                  target_type: 'announcement',
                  target_id: announcementId,
                  after: { title: 'Downtime on Sunday' },
                }),
              ],
              meta: { total_count: 2, total_pages: 1, current_page: 1, per_page: 50 },
            })
          : failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${url}`),
    );
    renderRoutes([{ path: '/admin/audit', element: <AuditLogsPage /> }], '/admin/audit');
    const [userRow, announcementRow] = await screen.findAllByTestId(
      'audit-log-entry',
      {},
      { timeout: 10_000 },
    );
    if (!userRow || !announcementRow) throw new Error('two rows expected');
    const link = within(userRow).getByRole('link', { name: 'User bram@example.com' });
    expect(link).toHaveAttribute('href', `/admin/users/${userId}`);
    expect(within(userRow).getByTitle(userId)).toBeInTheDocument();
    expect(announcementRow).toHaveTextContent('Announcement');
    expect(announcementRow).toHaveTextContent('Downtime on Sunday');
    expect(within(announcementRow).queryByRole('link')).not.toBeInTheDocument();
    expect(within(announcementRow).getByTitle(announcementId)).toBeInTheDocument();
    expect(announcementRow).not.toHaveTextContent(/announcement 9d8c7b6a/);
    // Review (content): squeezed, the Actor column read "mira@ex / ample.co / m"; it keeps room for an address.
    const actor = within(userRow).getAllByRole('cell')[1];
    expect(actor).toHaveTextContent('mira@example.com');
    expect(actor?.style.minWidth).toBe('12rem');
  });
  it('past the last page says so, links to page 1 with the same filters and keeps the pager', async () => {
    mockFetch(({ url }) =>
      url.startsWith('/api/v1/admin/audit_logs/actions')
        ? success({ actions: [] })
        : jsonResponse(200, {
            status: 'success',
            data: [],
            meta: { total_count: 120, total_pages: 3, current_page: 9, per_page: 50 },
          }),
    );
    renderRoutes([{ path: '/admin/audit', element: <AuditLogsPage /> }], '/admin/audit?actor=mira&page=9');
    expect(
      await screen.findByRole('heading', { name: 'This page is past the end' }, { timeout: 10_000 }),
    ).toBeInTheDocument();
    expect(screen.queryByText('No Audit Entries')).not.toBeInTheDocument();
    expect(screen.getByText('There are 3 pages in this list.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to page 1' })).toHaveAttribute(
      'href',
      '/admin/audit?actor=mira',
    );
    expect(screen.getByRole('button', { name: 'Page 3' })).toBeInTheDocument();
  });

  it('keeps offering the actions it loaded when their refresh fails', async () => {
    let connected = true;
    mockFetch(({ url }) => {
      if (url.startsWith('/api/v1/admin/audit_logs/actions')) {
        if (!connected) throw new TypeError('Failed to fetch');
        return success({ actions: ['user.suspend'] });
      }
      return url.startsWith('/api/v1/admin/audit_logs')
        ? jsonResponse(200, {
            status: 'success',
            data: [],
            meta: { total_count: 0, total_pages: 0, current_page: 1, per_page: 50 },
          })
        : failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${url}`);
    });
    const { queryClient } = renderRoutes(
      [{ path: '/admin/audit', element: <AuditLogsPage /> }],
      '/admin/audit',
    );
    await screen.findByText('No Audit Entries', {}, { timeout: 10_000 });
    const action = screen.getByRole('combobox', { name: /Action/ });
    expect(action).toHaveAttribute('placeholder', 'Any action');
    connected = false;
    await queryClient.refetchQueries({ queryKey: ['admin', 'audit-logs', 'actions'] });
    await waitFor(
      () => expect(queryClient.getQueryState(['admin', 'audit-logs', 'actions'])?.status).toBe('error'),
      {
        timeout: 5_000,
      },
    );
    expect(screen.getByRole('combobox', { name: /Action/ })).toHaveAttribute('placeholder', 'Any action');
  });
});
