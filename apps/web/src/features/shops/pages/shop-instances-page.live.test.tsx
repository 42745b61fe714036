import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useAuthStore } from '../../../stores/auth-store';
import { useUiStore } from '../../../stores/ui-store';
import { buildUser, jsonResponse, mockFetch, success } from '../../../test/fixtures';
import { buildParty, pageMeta } from '../../../test/party-fixtures';
import { renderRoutes } from '../../../test/render';
import { realtimeActiveLabel, realtimePausedLabel } from '../../realtime/components/realtime-indicator';
import { buildShopInstance } from '../test/shop-fixtures';
import { ShopInstancesPage } from './shop-instances-page';

interface FakeSubscription {
  params: { channel: string; party_id: string };
  callbacks: {
    connected(arg: { reconnected: boolean }): void;
    disconnected(arg: { willAttemptReconnect: boolean | undefined }): void;
    received(data: unknown): void;
    rejected(): void;
  };
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

const channels = (partyId: string) => fake.subscriptions.filter((s) => s.params.party_id === partyId);

// Notices of others' changes are toasts: none left over from another file, none left for the next.
beforeEach(() => {
  useUiStore.setState({ toasts: [] });
  fake.subscriptions = [];
  useAuthStore.setState({ isAuthenticated: true, user: buildUser({ id: 'user-1' }) });
});

afterEach(() => useUiStore.setState({ toasts: [] }));

describe('ShopInstancesPage live', () => {
  it('follows every party of the user, and shows a shop its GM deploys without a reload', async () => {
    const parties = [
      buildParty({ id: 'party-1', name: 'Live Table' }),
      buildParty({ id: 'party-2', name: 'Mistwood' }),
    ];
    let shops: ReturnType<typeof buildShopInstance>[] = [];
    mockFetch(({ url }) => {
      if (url.startsWith('/api/v1/shop_instances?'))
        return jsonResponse(200, {
          status: 'success',
          data: { instances: shops },
          meta: { ...pageMeta(shops.length, 12), total: shops.length },
        });
      if (url.startsWith('/api/v1/parties?'))
        return jsonResponse(200, { status: 'success', data: parties, meta: pageMeta(parties.length, 100) });
      return success([]);
    });
    renderRoutes([{ path: '/shops/instances', element: <ShopInstancesPage /> }], '/shops/instances');
    expect(await screen.findByTestId('empty-state')).toBeInTheDocument();
    // Each party's inventory channel only: presence is counted on PartyChannel, and a list of all the
    // user's parties must not show them online in every one.
    await waitFor(() => {
      for (const partyId of ['party-1', 'party-2'])
        expect(channels(partyId).map((s) => s.params.channel)).toEqual(['PartyInventoryChannel']);
    });
    act(() => {
      for (const s of fake.subscriptions) s.callbacks.connected({ reconnected: false });
    });
    expect(await screen.findByText(realtimeActiveLabel)).toBeInTheDocument();

    // The GM of Mistwood deploys a shop there: the list refetches and shows it.
    shops = [buildShopInstance({ id: 'shop-1', name: 'The Wayfarer’s General Store', party_id: 'party-2' })];
    const inventory = channels('party-2').find((s) => s.params.channel === 'PartyInventoryChannel');
    act(() =>
      inventory?.callbacks.received({
        action: 'shop_deployed',
        party_id: 'party-2',
        actor: { id: 'user-gm', name: 'live_gm' },
        summary: 'live_gm deployed The Wayfarer’s General Store',
        ids: { shop_instance_id: 'shop-1' },
      }),
    );
    expect(await screen.findByRole('heading', { name: 'The Wayfarer’s General Store' })).toBeInTheDocument();
    expect(screen.getByTestId('summary-active')).toHaveTextContent('1');
  });

  it('says when live updates are paused, and catches up when they are back', async () => {
    const parties = [buildParty({ id: 'party-3', name: 'Live Table' })];
    let shops: ReturnType<typeof buildShopInstance>[] = [];
    mockFetch(({ url }) => {
      if (url.startsWith('/api/v1/shop_instances?'))
        return jsonResponse(200, {
          status: 'success',
          data: { instances: shops },
          meta: { ...pageMeta(shops.length, 12), total: shops.length },
        });
      if (url.startsWith('/api/v1/parties?'))
        return jsonResponse(200, { status: 'success', data: parties, meta: pageMeta(parties.length, 100) });
      return success([]);
    });
    renderRoutes([{ path: '/shops/instances', element: <ShopInstancesPage /> }], '/shops/instances');
    expect(await screen.findByTestId('empty-state')).toBeInTheDocument();
    await waitFor(() => expect(channels('party-3')).toHaveLength(1));
    const [inventory] = channels('party-3');
    act(() => inventory?.callbacks.connected({ reconnected: false }));
    expect(await screen.findByText(realtimeActiveLabel)).toBeInTheDocument();

    act(() => inventory?.callbacks.disconnected({ willAttemptReconnect: true }));
    expect(await screen.findByText(realtimePausedLabel)).toBeInTheDocument();
    // A shop deployed while the socket was away: heard of by nobody, caught up on return.
    shops = [buildShopInstance({ id: 'shop-2', name: 'The Rusty Anvil', party_id: 'party-3' })];
    act(() => inventory?.callbacks.connected({ reconnected: true }));
    expect(await screen.findByRole('heading', { name: 'The Rusty Anvil' })).toBeInTheDocument();
    expect(screen.getByText(realtimeActiveLabel)).toBeInTheDocument();
  });
});
