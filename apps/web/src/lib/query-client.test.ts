import { onlineManager } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from './query-client';

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
});
