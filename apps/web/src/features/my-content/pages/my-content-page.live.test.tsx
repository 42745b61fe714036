import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useAuthStore } from '../../../stores/auth-store';
import { useUiStore } from '../../../stores/ui-store';
import { buildUser, jsonResponse, mockFetch } from '../../../test/fixtures';
import { buildParty, pageMeta } from '../../../test/party-fixtures';
import { renderRoutes } from '../../../test/render';
import { buildShopInstance } from '../../shops/test/shop-fixtures';
import { buildTier, buildUsage } from '../../subscription/subscription-fixtures';
import { MyContentPage } from './my-content-page';

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

const inventoryChannel = (partyId: string) =>
  fake.subscriptions.find(
    (s) => s.params.party_id === partyId && s.params.channel === 'PartyInventoryChannel',
  );

const tier = buildTier('tier_1');
const page = (count: number) => ({ current_page: 1, total_pages: 1, total_count: count, per_page: 50 });

beforeEach(() => {
  useUiStore.setState({ toasts: [] });
  fake.subscriptions = [];
  useAuthStore.setState({ isAuthenticated: true, user: buildUser({ id: 'user-gm' }) });
});

afterEach(() => useUiStore.setState({ toasts: [] }));

describe('MyContentPage live', () => {
  it('shows a shop deployed, renamed or removed elsewhere without a reload, with its plan count', async () => {
    const parties = [
      buildParty({ id: 'party-1', name: 'The Lantern Bearers' }),
      buildParty({ id: 'party-2', name: 'Mistwood' }),
    ];
    let shops = [buildShopInstance({ id: 'shop-1', name: 'The Rusty Anvil', can_manage: true })];
    mockFetch(({ url }) => {
      const path = new URL(url, 'http://test').pathname;
      if (path.endsWith('/subscription/usage'))
        return jsonResponse(200, {
          status: 'success',
          data: buildUsage(tier, { shop_instances: shops.length, shop_deployments_monthly: shops.length }),
        });
      if (path.endsWith('/shop_instances'))
        return jsonResponse(200, { status: 'success', data: { instances: shops }, meta: page(shops.length) });
      if (path.endsWith('/parties'))
        return jsonResponse(200, { status: 'success', data: parties, meta: pageMeta(parties.length, 100) });
      return jsonResponse(200, { status: 'success', data: [], meta: page(0) });
    });
    renderRoutes([{ path: '/my-content', element: <MyContentPage /> }], '/my-content');
    const deployed = screen.getByRole('region', { name: 'Deployed shops' });
    expect(
      await within(deployed).findByRole('link', { name: 'The Rusty Anvil (The Lantern Bearers)' }),
    ).toBeVisible();
    expect(await within(deployed).findByTestId('content-limit')).toHaveTextContent('1 of 5');

    // Every party of the GM is followed, on its inventory channel only (where shop events are told).
    await waitFor(() => {
      for (const partyId of ['party-1', 'party-2']) expect(inventoryChannel(partyId)).toBeDefined();
    });
    act(() => {
      for (const s of fake.subscriptions) s.callbacks.connected({ reconnected: false });
    });

    // Deployed to Mistwood from another tab: the list and the plan's count follow.
    shops = [
      ...shops,
      buildShopInstance({
        id: 'shop-2',
        name: 'Ropewalk',
        party_id: 'party-2',
        party: { id: 'party-2', name: 'Mistwood' },
        can_manage: true,
      }),
    ];
    act(() =>
      inventoryChannel('party-2')?.callbacks.received({
        action: 'shop_deployed',
        party_id: 'party-2',
        actor: { id: 'user-gm', name: 'gm' },
        summary: 'gm deployed Ropewalk',
        ids: { shop_instance_id: 'shop-2' },
      }),
    );
    expect(await within(deployed).findByRole('link', { name: 'Ropewalk (Mistwood)' })).toHaveAttribute(
      'href',
      '/shops/instances/shop-2',
    );
    await waitFor(() => expect(within(deployed).getByTestId('content-limit')).toHaveTextContent('2 of 5'));

    // Renamed by a co-GM.
    shops = shops.map((shop) => (shop.id === 'shop-1' ? { ...shop, name: 'The Bright Anvil' } : shop));
    act(() =>
      inventoryChannel('party-1')?.callbacks.received({
        action: 'shop_updated',
        party_id: 'party-1',
        actor: { id: 'user-2', name: 'cara' },
        summary: 'cara updated The Bright Anvil',
        ids: { shop_instance_id: 'shop-1' },
      }),
    );
    expect(
      await within(deployed).findByRole('link', { name: 'The Bright Anvil (The Lantern Bearers)' }),
    ).toBeVisible();

    // Removed: gone from the list, and from the plan's count.
    shops = shops.filter((shop) => shop.id !== 'shop-2');
    act(() =>
      inventoryChannel('party-2')?.callbacks.received({
        action: 'shop_closed',
        party_id: 'party-2',
        actor: { id: 'user-gm', name: 'gm' },
        summary: 'gm removed Ropewalk',
        ids: { shop_instance_id: 'shop-2', deleted: 'true' },
      }),
    );
    await waitFor(() =>
      expect(within(deployed).queryByRole('link', { name: 'Ropewalk (Mistwood)' })).not.toBeInTheDocument(),
    );
    await waitFor(() => expect(within(deployed).getByTestId('content-limit')).toHaveTextContent('1 of 5'));
  });
});
