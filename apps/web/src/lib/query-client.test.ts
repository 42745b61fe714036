import { focusManager, onlineManager, QueryObserver } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useAuthStore } from '../stores/auth-store';
import { useUiStore } from '../stores/ui-store';
import { buildUser } from '../test/fixtures';
import { ApiError } from './http-client';
import {
  createQueryClient,
  quietWhileSigningOut,
  refetchFailedWhenBackOnline,
  refetchQueriesFailedForConnection,
  SLOW_CHANGE_MS,
  slowChangeMessage,
} from './query-client';
import { hasChangeUnderWay } from './unsaved-changes';

afterEach(() => onlineManager.setOnline(true));

describe('the query client', () => {
  it('sends a change at once while the browser says it is offline, so it fails now instead of later', async () => {
    const client = createQueryClient();
    onlineManager.setOnline(false);
    const send = vi.fn(async () => {
      throw new TypeError('Failed to fetch');
    });
    const mutation = client.getMutationCache().build(client, { mutationFn: send });
    await expect(mutation.execute(undefined)).rejects.toThrow('Failed to fetch');
    expect(send).toHaveBeenCalledTimes(1);
    // Back online, nothing held over is sent again.
    onlineManager.setOnline(true);
    await Promise.resolve();
    expect(send).toHaveBeenCalledTimes(1);
    expect(
      client
        .getMutationCache()
        .getAll()
        .every((m) => !m.state.isPaused),
    ).toBe(true);
  });

  it('asks again, once the server is back, for the queries a lost connection failed, not for a refusal', async () => {
    const client = createQueryClient();
    const networkError = new ApiError({
      code: 'NETWORK_ERROR',
      status: 0,
      message: 'Network connection error',
    });
    const notFound = new ApiError({ code: 'RESOURCE_NOT_FOUND', status: 404, message: 'Not found' });
    const answers = {
      lost: vi.fn(async (): Promise<string> => {
        throw networkError;
      }),
      refused: vi.fn(async (): Promise<string> => {
        throw notFound;
      }),
      fine: vi.fn(async () => 'fine'),
    };
    // Each on screen: an observer follows it.
    const stops = Object.entries(answers).map(([name, queryFn]) =>
      new QueryObserver(client, { queryKey: [name], queryFn, retry: false }).subscribe(() => undefined),
    );
    await vi.waitFor(() => expect(client.isFetching()).toBe(0));
    for (const queryFn of Object.values(answers)) queryFn.mockClear();

    await refetchQueriesFailedForConnection(client);
    expect(answers.lost).toHaveBeenCalledTimes(1);
    expect(answers.refused).not.toHaveBeenCalled();
    expect(answers.fine).not.toHaveBeenCalled();
    for (const stop of stops) stop();
  });

  it('asks again, when the browser is back online, for a query on screen whose refresh the lost connection failed', async () => {
    const client = createQueryClient();
    const stopListening = refetchFailedWhenBackOnline(client);
    let connected = true;
    const ask = vi.fn(async () => {
      if (!connected)
        throw new ApiError({ code: 'NETWORK_ERROR', status: 0, message: 'Network connection error' });
      return 'members';
    });
    const stop = new QueryObserver(client, { queryKey: ['members'], queryFn: ask, retry: false }).subscribe(
      () => undefined,
    );
    try {
      await vi.waitFor(() => expect(client.getQueryState(['members'])?.status).toBe('success'));
      // A live update's refresh while the connection is down: the members loaded before are still fresh, so
      // TanStack's own refetch on reconnect would leave them be.
      connected = false;
      await client.refetchQueries({ queryKey: ['members'] });
      expect(client.getQueryState(['members'])?.status).toBe('error');
      ask.mockClear();
      connected = true;
      window.dispatchEvent(new Event('online'));
      await vi.waitFor(() => expect(client.getQueryState(['members'])?.status).toBe('success'));
      expect(ask).toHaveBeenCalledTimes(1);
    } finally {
      stop();
      stopListening();
    }
  });

  it('asks nothing while this tab signs out: a query under way is cancelled, an interval refetch waits', async () => {
    vi.useFakeTimers();
    const client = createQueryClient();
    const stop = quietWhileSigningOut(client);
    useAuthStore.setState({ isAuthenticated: true, isLoading: false, user: buildUser() });
    let aborted = 0;
    const ask = vi.fn(
      ({ signal }: { signal: AbortSignal }) =>
        new Promise<string>((resolve) => {
          signal.addEventListener('abort', () => {
            aborted += 1;
          });
          setTimeout(() => resolve('banner'), 1_000);
        }),
    );
    const observer = new QueryObserver(client, {
      queryKey: ['announcements', 'active'],
      queryFn: ask,
      refetchInterval: 5 * 60_000,
    });
    const unsubscribe = observer.subscribe(() => {});
    try {
      await vi.advanceTimersByTimeAsync(1_000);
      expect(ask).toHaveBeenCalledTimes(1);
      // The next one (five minutes after the answer) is under way when the sign-out starts (lib/session.ts).
      await vi.advanceTimersByTimeAsync(5 * 60_000 + 10);
      expect(ask).toHaveBeenCalledTimes(2);
      useAuthStore.setState({ isLoading: true });
      await vi.advanceTimersByTimeAsync(0);
      expect(aborted).toBe(1);
      // The server is slow to answer DELETE /auth/logout: no interval refetch with the dying token meanwhile.
      await vi.advanceTimersByTimeAsync(15 * 60_000);
      expect(ask).toHaveBeenCalledTimes(2);
      // Signed out, the page's own focus decides again.
      useAuthStore.setState({ isAuthenticated: false, isLoading: false, user: null });
      expect(focusManager.isFocused()).toBe(true);
    } finally {
      unsubscribe();
      stop();
      useAuthStore.setState({ isAuthenticated: false, isLoading: false, user: null });
      focusManager.setFocused(undefined);
      vi.useRealTimers();
    }
  });
});

describe('a change waiting for its answer', () => {
  const slowToasts = () =>
    useUiStore.getState().toasts.filter((shown) => shown.message === slowChangeMessage);

  beforeEach(() => useUiStore.setState({ toasts: [] }));
  afterEach(() => {
    vi.useRealTimers();
    useUiStore.setState({ toasts: [] });
  });

  /** A change whose answer comes when the test says. */
  function heldChange(client: ReturnType<typeof createQueryClient>) {
    let answer: (() => void) | undefined;
    const mutationFn = () => new Promise<void>((resolve) => (answer = resolve));
    const done = client.getMutationCache().build(client, { mutationFn }).execute(undefined);
    return { sent: () => answer !== undefined, answer: () => answer?.(), done };
  }

  it('says "Still working… (slow connection)" once after 4 s, however many wait, until the last is answered', async () => {
    vi.useFakeTimers();
    const client = createQueryClient();
    const first = heldChange(client);
    const second = heldChange(client);
    await vi.advanceTimersByTimeAsync(SLOW_CHANGE_MS - 1);
    expect(slowChangeMessage).toBe('Still working… (slow connection)');
    expect(slowToasts()).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(slowToasts()).toHaveLength(1);
    expect(slowToasts()[0]?.kind).toBe('info');

    first.answer();
    await first.done;
    expect(slowToasts()).toHaveLength(1);
    second.answer();
    await second.done;
    expect(slowToasts()).toHaveLength(0);
  });

  it('says nothing of a change answered within 4 s, nor of a failed one later', async () => {
    vi.useFakeTimers();
    const client = createQueryClient();
    const quick = heldChange(client);
    await vi.advanceTimersByTimeAsync(SLOW_CHANGE_MS - 100);
    quick.answer();
    await quick.done;
    await vi.advanceTimersByTimeAsync(SLOW_CHANGE_MS);
    expect(slowToasts()).toHaveLength(0);

    const refused = client
      .getMutationCache()
      .build(client, {
        mutationFn: () =>
          new Promise((_resolve, reject) =>
            setTimeout(() => reject(new Error('refused')), SLOW_CHANGE_MS * 2),
          ),
      })
      .execute(undefined);
    refused.catch(() => undefined);
    await vi.advanceTimersByTimeAsync(SLOW_CHANGE_MS);
    expect(slowToasts()).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(SLOW_CHANGE_MS);
    await expect(refused).rejects.toThrow('refused');
    expect(slowToasts()).toHaveLength(0);
  });

  it('counts as under way from the moment it is sent until its answer', async () => {
    const client = createQueryClient();
    expect(hasChangeUnderWay()).toBe(false);
    const change = heldChange(client);
    await vi.waitFor(() => expect(change.sent()).toBe(true));
    expect(hasChangeUnderWay()).toBe(true);
    change.answer();
    await change.done;
    expect(hasChangeUnderWay()).toBe(false);
  });
});
