import type { Consumer } from '@rails/actioncable';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useAuthStore } from '../stores/auth-store';
import { buildTokens, buildUser } from '../test/fixtures';
import { CABLE_HANDOVER_MS, getConsumer, onConsumerChange, startCable } from './cable';
import { tokenStorage } from './token-storage';

function consumerNow(): Consumer {
  const consumer = getConsumer();
  if (!consumer) throw new Error('expected a consumer');
  return consumer;
}

const signIn = () =>
  useAuthStore.setState({ isAuthenticated: true, isInitializing: false, user: buildUser() });

let stop: (() => void) | undefined;
afterEach(() => {
  tokenStorage.clear();
  useAuthStore.setState({ isAuthenticated: false, user: null });
  stop?.();
});

describe('the real-time consumer (spec/01 §4)', () => {
  it('exists only when signed in with a token, and carries that token', () => {
    stop = startCable();
    expect(getConsumer()).toBeNull();
    tokenStorage.setTokens(buildTokens({ token: 'access-1' }));
    // A token alone (start-up still checking it) is not a session yet.
    expect(getConsumer()).toBeNull();
    signIn();
    expect(getConsumer()?.url).toMatch(/^ws:\/\/.*\/cable\?token=access-1$/);
  });

  it('is rebuilt with the fresh token after a refresh, the old one closing after the hand-over', () => {
    vi.useFakeTimers();
    stop = startCable();
    tokenStorage.setTokens(buildTokens({ token: 'access-1' }));
    signIn();
    const first = consumerNow();
    const closeFirst = vi.spyOn(first, 'disconnect');
    const seen: (Consumer | null)[] = [];
    const unwatch = onConsumerChange((consumer) => seen.push(consumer));

    tokenStorage.setTokens(buildTokens({ token: 'access-2' }));
    const second = getConsumer();
    expect(second).not.toBe(first);
    expect(second?.url).toMatch(/token=access-2$/);
    expect(seen).toEqual([second]);
    expect(closeFirst).not.toHaveBeenCalled();
    vi.advanceTimersByTime(CABLE_HANDOVER_MS);
    expect(closeFirst).toHaveBeenCalled();
    unwatch();
  });

  it('is dropped and closed at once on logout', () => {
    stop = startCable();
    tokenStorage.setTokens(buildTokens());
    signIn();
    const consumer = consumerNow();
    const close = vi.spyOn(consumer, 'disconnect');
    tokenStorage.clear();
    expect(getConsumer()).toBeNull();
    expect(close).toHaveBeenCalled();
  });

  it('follows a token written by another tab', () => {
    stop = startCable();
    tokenStorage.setTokens(buildTokens({ token: 'access-1' }));
    signIn();
    window.localStorage.setItem('auth_token', 'from-other-tab');
    window.dispatchEvent(new StorageEvent('storage', { key: 'auth_token' }));
    expect(getConsumer()?.url).toMatch(/token=from-other-tab$/);
  });
});
