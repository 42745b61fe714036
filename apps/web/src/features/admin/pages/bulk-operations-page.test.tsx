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

describe('BulkOperationsPage, names and the catalogue', () => {
  it('offers the plans by the names the app uses, and says the catalogue is never included', async () => {
    mockFetch(({ url }) =>
      url.endsWith('/bulk_operations')
        ? success([
            {
              id: 'op-1',
              kind: 'bulk_users',
              status: 'done',
              total: 2,
              processed: 2,
              changed: 2,
              params: { kind: 'bulk_users', action: 'change_tier', tier: 'tier_2', filter: {} },
              actor_email: 'boss@example.com',
              last_error: null,
              created_at: '2026-01-01T10:00:00.000Z',
              finished_at: '2026-01-01T10:01:00.000Z',
            },
          ])
        : success([]),
    );
    renderRoutes(routes, '/admin/bulk-operations');
    expect(await screen.findByText(/Change tier to Hero/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('combobox', { name: 'Change their tier to (without payment)' }));
    for (const name of ['Free', 'Adventurer', 'Hero', 'Legend'])
      expect(screen.getByRole('option', { name })).toBeInTheDocument();
    expect(screen.queryByRole('option', { name: 'Tier 1' })).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('radio', { name: 'Templates' }));
    expect(screen.getByTestId('bulk-templates-note')).toHaveTextContent(
      "Haversack's own catalogue (the SRD items, coins, the system shops and loot) is never included.",
    );
  });
});
