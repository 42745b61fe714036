import { act, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { useAuthStore } from '../../../stores/auth-store';
import { buildUser, failure, mockFetch, success } from '../../../test/fixtures';
import { buildCharacter } from '../../../test/party-fixtures';
import { renderRoutes } from '../../../test/render';
import { realtimeActiveLabel, realtimePausedLabel } from '../../realtime/components/realtime-indicator';
import { CharacterDetailPage } from './character-detail-page';

interface FakeSubscription {
  params: { channel: string; party_id: string };
  callbacks: {
    connected(arg: { reconnected: boolean }): void;
    disconnected(arg: { willAttemptReconnect: boolean | undefined }): void;
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

function renderCharacter(overrides: Parameters<typeof buildCharacter>[0]) {
  const character = buildCharacter({ id: 'ch-thorin', name: 'Thorin', ...overrides });
  mockFetch(({ url }) => {
    const { pathname } = new URL(url, 'http://test');
    if (pathname === '/api/v1/characters/ch-thorin') return success(character);
    return failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${pathname}`);
  });
  renderRoutes([{ path: '/characters/:id', element: <CharacterDetailPage /> }], '/characters/ch-thorin');
}

const channels = () => fake.subscriptions.filter((s) => s.params.party_id === 'party-1');

beforeEach(() => {
  fake.subscriptions = [];
  useAuthStore.setState({ isAuthenticated: true, user: buildUser({ id: 'user-1' }) });
});

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
});
