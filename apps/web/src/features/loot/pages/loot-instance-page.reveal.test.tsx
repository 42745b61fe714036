import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { failure, jsonResponse, mockFetch, success } from '../../../test/fixtures';
import { buildParty, pageMeta } from '../../../test/party-fixtures';
import { renderRoutes } from '../../../test/render';
import { buildLootInstance } from '../test/loot-fixtures';
import { LootInstancePage } from './loot-instance-page';

interface FakeSubscription {
  params: { channel: string; party_id: string };
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

describe('LootInstancePage opened while the loot is hidden', () => {
  it('comes alive when the GM reveals it, though it could not know the loot’s party', async () => {
    let revealed = false;
    const loot = buildLootInstance({ is_revealed: true, can_manage: false, can_take: false });
    mockFetch(({ url }) => {
      const { pathname } = new URL(url, 'http://test');
      if (pathname === '/api/v1/loot_instances/loot-1')
        return revealed ? success(loot) : failure(404, 'RESOURCE_NOT_FOUND', 'Loot not found.');
      if (pathname === '/api/v1/parties') {
        const parties = [buildParty({ id: 'party-1' }), buildParty({ id: 'party-2', name: 'Other' })];
        return jsonResponse(200, { status: 'success', data: parties, meta: pageMeta(2, 100) });
      }
      return failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${pathname}`);
    });
    renderRoutes([{ path: '/loot/instances/:id', element: <LootInstancePage /> }], '/loot/instances/loot-1');
    expect(await screen.findByRole('heading', { level: 1, name: 'Loot Not Found' })).toBeInTheDocument();

    const inventory = await waitFor(() => {
      const found = fake.subscriptions.find(
        (s) => s.params.party_id === loot.party_id && s.params.channel === 'PartyInventoryChannel',
      );
      if (!found) throw new Error('no inventory channel watched yet');
      return found;
    });
    // Presence is counted on PartyChannel: the watch never subscribes it.
    expect(fake.subscriptions.some((s) => s.params.channel === 'PartyChannel')).toBe(false);

    revealed = true;
    inventory.callbacks.received?.({
      action: 'loot_revealed',
      actor: { id: 'user-gm', name: 'GameMaster' },
      summary: `GameMaster revealed ${loot.name}`,
      ids: { loot_instance_id: 'loot-1' },
    });
    expect(await screen.findByRole('heading', { level: 1, name: loot.name })).toBeInTheDocument();
  });
});
