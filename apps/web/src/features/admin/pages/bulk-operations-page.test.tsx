import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { mockFetch, success } from '../../../test/fixtures';
import { renderRoutes } from '../../../test/render';
import { BulkOperationsPage } from './bulk-operations-page';

const routes = [{ path: '/admin/bulk-operations', element: <BulkOperationsPage /> }];

describe('BulkOperationsPage, suspending users', () => {
  it('counts the users a suspension would act on, with the reason and the filter', async () => {
    const fetchMock = mockFetch(({ url }) =>
      url.endsWith('/bulk_operations/preview') ? success({ count: 4 }) : success([]),
    );
    renderRoutes(routes, '/admin/bulk-operations');
    await userEvent.click(await screen.findByRole('radio', { name: 'Suspend' }));
    await userEvent.type(screen.getByLabelText('E-mail contains'), 'spam.example');
    await userEvent.type(screen.getByRole('textbox', { name: /Reason for the suspension/ }), 'spam wave');
    await userEvent.click(screen.getByRole('button', { name: 'Count Matches (Dry Run)' }));

    expect(await screen.findByTestId('bulk-preview-count')).toHaveTextContent('4 users match.');
    const call = fetchMock.mock.calls.find(([url]) => String(url).endsWith('/bulk_operations/preview'));
    expect(JSON.parse(String(call?.[1]?.body))).toEqual({
      target: 'users',
      action: 'suspend',
      reason: 'spam wave',
      filter: { email_contains: 'spam.example' },
    });
  });
});
