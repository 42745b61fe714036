import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useAuthStore } from '../../../stores/auth-store';
import { useUiStore } from '../../../stores/ui-store';
import { buildUser, failure, mockFetch, success } from '../../../test/fixtures';
import { buildCharacter } from '../../../test/party-fixtures';
import { renderRoutes } from '../../../test/render';
import { realtimeActiveLabel, realtimePausedLabel } from '../../realtime/components/realtime-indicator';
import { buildCharacterWealth } from '../test/wealth-fixtures';
import { CharacterDetailPage } from './character-detail-page';

interface FakeSubscription {
  params: { channel: string; party_id: string };
  callbacks: {
    connected(arg: { reconnected: boolean }): void;
    disconnected(arg: { willAttemptReconnect: boolean | undefined }): void;
    received(data: unknown): void;
    rejected(): void;
  };
}

// A stand-in consumer records the subscriptions, so that the test can play the server going away.
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

function renderCharacter(
  overrides: Parameters<typeof buildCharacter>[0],
  wealth?: () => ReturnType<typeof buildCharacterWealth>,
) {
  const character = buildCharacter({ id: 'ch-thorin', name: 'Thorin', ...overrides });
  mockFetch(({ url }) => {
    const { pathname } = new URL(url, 'http://test');
    if (pathname === '/api/v1/characters/ch-thorin') return success(character);
    if (wealth && pathname === '/api/v1/characters/ch-thorin/wealth') return success(wealth());
    return failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${pathname}`);
  });
  return renderRoutes(
    [
      { path: '/characters/:id', element: <CharacterDetailPage /> },
      { path: '/parties', element: <p>My Parties</p> },
    ],
    '/characters/ch-thorin',
  );
}

// A party's channels outlive a page for a moment (they are shared by its screens): each test its own party.
const channels = (partyId = 'party-1') => fake.subscriptions.filter((s) => s.params.party_id === partyId);

// A removal is told in a toast: none left over from another file of the worker, none left for the next.
beforeEach(() => {
  useUiStore.setState({ toasts: [] });
  fake.subscriptions = [];
  useAuthStore.setState({ isAuthenticated: true, user: buildUser({ id: 'user-1' }) });
});

afterEach(() => useUiStore.setState({ toasts: [] }));

describe('CharacterDetailPage live', () => {
  it('says, as the party page does, when its live purse, load and history are paused', async () => {
    renderCharacter({ is_owner: true, party_id: 'party-1', party_name: 'The Company' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Thorin' })).toBeInTheDocument();
    await waitFor(() => expect(channels()).toHaveLength(2));
    act(() => {
      for (const s of channels()) s.callbacks.connected({ reconnected: false });
    });
    expect(await screen.findByText(realtimeActiveLabel)).toBeInTheDocument();

    // The server goes away: the socket will try again.
    act(() => {
      for (const s of channels()) s.callbacks.disconnected({ willAttemptReconnect: true });
    });
    expect(await screen.findByText(realtimePausedLabel)).toBeInTheDocument();
    expect(screen.queryByText(realtimeActiveLabel)).not.toBeInTheDocument();

    act(() => {
      for (const s of channels()) s.callbacks.connected({ reconnected: true });
    });
    expect(await screen.findByText(realtimeActiveLabel)).toBeInTheDocument();
    expect(screen.queryByText(realtimePausedLabel)).not.toBeInTheDocument();
  });

  it('says nothing of live updates where the page has none: a character in no party', async () => {
    renderCharacter({ is_owner: true, party_id: null });
    expect(await screen.findByRole('heading', { level: 1, name: 'Thorin' })).toBeInTheDocument();
    expect(fake.subscriptions).toEqual([]);
    expect(screen.queryByTestId('realtime-indicator')).not.toBeInTheDocument();
    expect(screen.queryByTestId('realtime-paused')).not.toBeInTheDocument();
  });

  it('follows a player’s character live for the GM, who may read it, and refetches its purse on a change', async () => {
    // The GM (user-1) looks at a character of their party played by someone else.
    let gold = 5;
    renderCharacter(
      {
        is_owner: false,
        user_id: 'user-2',
        player_name: 'pip',
        party_id: 'party-2',
        party_name: 'The Company',
      },
      () =>
        buildCharacterWealth({
          character_id: 'ch-thorin',
          user_id: 'user-2',
          is_owner: false,
          coins: { cp: 0, sp: 0, ep: 0, gp: gold, pp: 0 },
        }),
    );
    expect(await screen.findByRole('listitem', { name: '5 gold' })).toBeInTheDocument();
    await waitFor(() =>
      expect(channels('party-2').map((s) => s.params.channel)).toEqual([
        'PartyChannel',
        'PartyInventoryChannel',
      ]),
    );
    act(() => {
      for (const s of channels('party-2')) s.callbacks.connected({ reconnected: false });
    });
    expect(await screen.findByText(realtimeActiveLabel)).toBeInTheDocument();

    // The player adds 10 gp to the character's pouch: the server names the character on its party's feed.
    gold = 15;
    const inventory = channels('party-2').find((s) => s.params.channel === 'PartyInventoryChannel');
    act(() =>
      inventory?.callbacks.received({
        action: 'item_added',
        party_id: 'party-2',
        actor: { id: 'user-2', name: 'pip' },
        summary: 'pip added 10 × Gold piece to Backpack (The Company)',
        ids: { character_id: 'ch-thorin', destination_container_id: 'con-backpack' },
      }),
    );
    expect(await screen.findByRole('listitem', { name: '15 gold' })).toBeInTheDocument();
  });

  it('sends a member who is removed from the party, and so may no longer read the character, back to /parties', async () => {
    const view = renderCharacter({ is_owner: false, user_id: 'user-2', party_id: 'party-3' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Thorin' })).toBeInTheDocument();
    await waitFor(() => expect(channels('party-3')).toHaveLength(2));
    act(() => {
      for (const s of channels('party-3')) s.callbacks.connected({ reconnected: false });
    });
    // The server refuses a confirmed subscription when its member is removed.
    act(() => channels('party-3')[0]?.callbacks.rejected());
    await waitFor(() => expect(view.router.state.location.pathname).toBe('/parties'));
  });
});
