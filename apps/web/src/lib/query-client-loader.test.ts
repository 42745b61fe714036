import { afterEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from './query-client';
import {
  loadedQueryClient,
  loadQueryClient,
  subscribeToQueryClient,
  withQueryClient,
} from './query-client-loader';

describe('the lazily loaded query client (issue 13 §1)', () => {
  it('loads the one app client once, tells its subscribers, and lets lazy parts wait for it', async () => {
    const listener = vi.fn();
    const unsubscribe = subscribeToQueryClient(listener);
    const first = loadQueryClient();
    expect(loadQueryClient()).toBe(first);
    expect(await first).toBe(queryClient);
    expect(loadedQueryClient()).toBe(queryClient);
    expect(listener).toHaveBeenCalledTimes(1);
    unsubscribe();

    const page = await withQueryClient(async () => 'the page');
    expect(page).toBe('the page');
    expect(loadedQueryClient()).toBe(queryClient);
  });

  describe('where the browser can yield (scheduler.yield)', () => {
    afterEach(() => vi.unstubAllGlobals());

    it('starts loading a lazy part in a task of its own, once the browser gives it a turn', async () => {
      const turns: (() => void)[] = [];
      vi.stubGlobal('scheduler', { yield: () => new Promise<void>((resolve) => turns.push(resolve)) });
      const load = vi.fn(async () => 'the page');
      const page = withQueryClient(load);
      await Promise.resolve();
      expect(turns).toHaveLength(1);
      expect(load).not.toHaveBeenCalled();
      turns[0]?.();
      expect(await page).toBe('the page');
      expect(load).toHaveBeenCalledTimes(1);
    });
  });
});
