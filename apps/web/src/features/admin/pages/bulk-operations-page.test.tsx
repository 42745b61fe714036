import type { AdminOperation } from '@haversack/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { mockFetch, success } from '../../../test/fixtures';
import { renderRoutes } from '../../../test/render';
import { adminDateTime } from '../lib/format';
import { BulkOperationsPage } from './bulk-operations-page';

const routes = [{ path: '/admin/bulk-operations', element: <BulkOperationsPage /> }];

describe('BulkOperationsPage, suspending users', () => {
  it('counts the users a suspension would act on, with the reason and the filter', async () => {
    const fetchMock = mockFetch(({ url }) =>
      url.endsWith('/bulk_operations/preview') ? success({ count: 4 }) : success([]),
    );
    renderRoutes(routes, '/admin/bulk-operations');
    await userEvent.click(await screen.findByRole('radio', { name: 'Suspend' }));
    await userEvent.type(screen.getByLabelText('Email contains'), 'spam.example');
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

describe('BulkOperationsPage, cancelling', () => {
  it('cancels a running operation once the admin confirms, and offers no cancel once it is finished', async () => {
    const running: AdminOperation = {
      id: 'op-9',
      kind: 'bulk_users',
      status: 'running',
      total: 30,
      processed: 5,
      changed: 5,
      params: { kind: 'bulk_users', action: 'suspend', reason: 'spam wave', filter: {} },
      actor_email: 'boss@example.com',
      last_error: null,
      created_at: '2026-01-01T10:00:00.000Z',
      finished_at: null,
    };
    const cancelled: AdminOperation = {
      ...running,
      status: 'cancelled',
      last_error: 'Cancelled by boss@example.com.',
    };
    let state = running;
    const fetchMock = mockFetch(({ url, init }) => {
      if (url.endsWith('/admin/operations/op-9/cancel') && init.method === 'POST') {
        state = cancelled;
        return success(cancelled);
      }
      if (url.endsWith('/admin/operations/op-9')) return success(state);
      return url.endsWith('/bulk_operations') ? success([state]) : success([]);
    });
    renderRoutes(routes, '/admin/bulk-operations');
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel Operation' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel Operation' });
    expect(dialog).toHaveTextContent('It stops before its next batch; what it has done stays done.');
    expect(fetchMock.mock.calls.some(([url]) => String(url).endsWith('/cancel'))).toBe(false);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Stop It' }));

    expect(await screen.findByText('Cancelled by boss@example.com.')).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.queryByRole('button', { name: 'Cancel Operation' })).not.toBeInTheDocument(),
    );
    expect(
      fetchMock.mock.calls.filter(
        ([url, init]) => String(url).endsWith('/cancel') && init?.method === 'POST',
      ),
    ).toHaveLength(1);
  });
});

// One date format across the admin pages: the audit log's.
it('dates an operation as the other admin pages date things', async () => {
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
  expect(await screen.findByText(/Change tier to Hero/)).toHaveTextContent(
    `started by boss@example.com on ${adminDateTime('2026-01-01T10:00:00.000Z')}`,
  );
});
