import type { PartyInvitation } from '@haversack/contracts';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse, mockFetch, success } from '../../../test/fixtures';
import { renderRoutes } from '../../../test/render';
import NotificationsNavBadge from '../components/notifications-nav-badge';

interface FakeSubscription {
  params: { channel: string };
  callbacks: { received?(data: unknown): void };
}

// A stand-in consumer records the subscriptions, so that the test can play the server's broadcasts.
const fake = vi.hoisted(() => ({ subscriptions: [] as FakeSubscription[] }));
vi.mock('../../../lib/cable', () => ({
  getConsumer: () => ({
    subscriptions: {
      create: (params: FakeSubscription['params'], callbacks: FakeSubscription['callbacks']) => {
        const subscription = { params, callbacks, unsubscribe: vi.fn() };
        fake.subscriptions.push(subscription);
        return subscription;
      },
    },
  }),
  onConsumerChange: () => () => undefined,
}));

describe('useNoticesLive', () => {
  it('refetches the unread count when the user marked notices read on another device', async () => {
    let unread = 3;
    mockFetch(({ url }) => {
      const { pathname } = new URL(url, 'http://test');
      if (pathname === '/api/v1/invitations') return success([]);
      if (pathname === '/api/v1/notifications')
        return jsonResponse(200, {
          status: 'success',
          data: [],
          meta: { current_page: 1, per_page: 20, total_count: 3, total_pages: 1, unread_count: unread },
        });
      return jsonResponse(404, { status: 'error', error: { code: 'RESOURCE_NOT_FOUND', message: 'no' } });
    });
    renderRoutes([{ path: '/', element: <NotificationsNavBadge /> }], '/');
    expect(await screen.findByTestId('notifications-badge')).toHaveTextContent('3');
    const channel = fake.subscriptions.find((s) => s.params.channel === 'NotificationsChannel');
    unread = 0;
    channel?.callbacks.received?.({ action: 'notifications_read' });
    await waitFor(() => expect(screen.queryByTestId('notifications-badge')).toBeNull());
  });

  // An invitation is no notice: the server tells the invitee's pages that their pending invitations changed.
  it('refetches the pending invitations when one arrives or is withdrawn', async () => {
    let invitations: PartyInvitation[] = [];
    const invitation: PartyInvitation = {
      id: 'i1',
      party_id: 'p1',
      party_name: 'Live Table',
      role: 'player',
      message: '',
      status: 'pending',
      invited_user: { id: 'u1', username: 'live_p1' },
      invited_by: { id: 'u2', username: 'live_gm' },
      created_at: new Date().toISOString(),
    };
    mockFetch(({ url }) => {
      const { pathname } = new URL(url, 'http://test');
      if (pathname === '/api/v1/invitations') return success(invitations);
      if (pathname === '/api/v1/notifications')
        return jsonResponse(200, {
          status: 'success',
          data: [],
          meta: { current_page: 1, per_page: 20, total_count: 0, total_pages: 0, unread_count: 0 },
        });
      return jsonResponse(404, { status: 'error', error: { code: 'RESOURCE_NOT_FOUND', message: 'no' } });
    });
    renderRoutes([{ path: '/', element: <NotificationsNavBadge /> }], '/');
    await waitFor(() => expect(fake.subscriptions.length).toBeGreaterThan(0));
    const channel = fake.subscriptions.findLast((s) => s.params.channel === 'NotificationsChannel');
    invitations = [invitation];
    channel?.callbacks.received?.({ action: 'invitations_changed' });
    expect(await screen.findByTestId('notifications-badge')).toHaveTextContent('1');
    invitations = [];
    channel?.callbacks.received?.({ action: 'invitations_changed' });
    await waitFor(() => expect(screen.queryByTestId('notifications-badge')).toBeNull());
  });
});
