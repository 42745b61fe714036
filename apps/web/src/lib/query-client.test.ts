import { onlineManager, QueryObserver } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from './http-client';
import { createQueryClient, refetchQueriesFailedForConnection } from './query-client';

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
});
