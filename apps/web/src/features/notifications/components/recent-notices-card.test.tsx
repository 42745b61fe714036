import type { Notification } from '@haversack/contracts';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { jsonResponse, mockFetch } from '../../../test/fixtures';
import { useGlobalStyles } from '../../../test/global-styles';
import { renderRoutes } from '../../../test/render';
import { restoreViewportAfterEach, setViewport } from '../../../test/viewport';
import { RecentNoticesCard } from './recent-notices-card';

function notice(id: string, message: string, read: boolean): Notification {
  return {
    id,
    kind: 'items_received',
    message,
    party_id: 'p1',
    party_name: 'Mistwood',
    link: null,
    created_at: new Date(Date.now() - 5 * 60_000).toISOString(),
    read_at: read ? new Date().toISOString() : null,
    repeat_count: 1,
  };
}

function serve(answer: () => Response) {
  mockFetch(({ url }) => {
    const { pathname } = new URL(url, 'http://test');
    if (pathname === '/api/v1/notifications') return answer();
    return jsonResponse(404, { status: 'error', error: { code: 'RESOURCE_NOT_FOUND', message: 'no' } });
  });
}

function listOf(notices: Notification[], unread: number) {
  return jsonResponse(200, {
    status: 'success',
    data: notices,
    meta: {
      current_page: 1,
      total_pages: 1,
      total_count: notices.length,
      per_page: 20,
      unread_count: unread,
    },
  });
}

const card = () => renderRoutes([{ path: '/dashboard', element: <RecentNoticesCard /> }], '/dashboard');

describe('RecentNoticesCard', () => {
  it('shows the three newest notices with the unread count and the way to the rest', async () => {
    serve(() =>
      listOf(
        [
          notice('n1', 'Mira gave 3 × Healing potion to Pip', false),
          notice('n2', 'Mira approved your purchase of 1 × Rope at Corner Shop', false),
          notice('n3', 'Mira now sponsors you in Mistwood.', true),
          notice('n4', 'Mira removed you from Tomb of Annihilation.', true),
        ],
        2,
      ),
    );
    card();
    const region = await screen.findByRole('region', { name: /Recent Notifications/ });
    expect(await within(region).findByText('Mira gave 3 × Healing potion to Pip')).toBeInTheDocument();
    expect(within(region).getAllByRole('listitem')).toHaveLength(3);
    expect(within(region).queryByText(/Tomb of Annihilation/)).not.toBeInTheDocument();
    expect(within(region).getByText('2 unread')).toBeInTheDocument();
    expect(within(region).getByRole('link', { name: 'See all' })).toHaveAttribute('href', '/notifications');
  });

  it('says when there is nothing, without an unread count', async () => {
    serve(() => listOf([], 0));
    card();
    expect(await screen.findByText(/Nothing new/)).toBeInTheDocument();
    expect(screen.queryByText(/unread/)).not.toBeInTheDocument();
  });

  it('offers to try again when the notices could not be loaded', async () => {
    let fail = true;
    serve(() =>
      fail
        ? jsonResponse(500, { status: 'error', error: { code: 'INTERNAL_ERROR', message: 'boom' } })
        : listOf([notice('n1', 'Mira gave 3 × Healing potion to Pip', false)], 1),
    );
    card();
    expect(await screen.findByText('Your notifications could not be loaded.')).toBeInTheDocument();
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: 'Try Again' }));
    expect(await screen.findByText('Mira gave 3 × Healing potion to Pip')).toBeInTheDocument();
  });

  describe('on a phone', () => {
    restoreViewportAfterEach();
    it('makes See all at least 24 px tall, as the other cards’ View all', async () => {
      // Outside sweep: 47 x 20 px at 375 px on the dashboard.
      useGlobalStyles('Anchor');
      setViewport(375, 812);
      serve(() => listOf([notice('n1', 'Mira gave 3 × Healing potion to Pip', false)], 1));
      card();
      expect(getComputedStyle(await screen.findByRole('link', { name: 'See all' })).minHeight).toBe('24px');
    });
  });
});
