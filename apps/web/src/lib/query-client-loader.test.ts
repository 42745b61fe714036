import { afterEach, describe, expect, it, vi } from 'vitest';

/**
 * The loader as a page would first meet it: the web files share one module registry (no isolation), and
 * one that draws the app's routes has loaded the client already.
 */
async function freshLoader() {
  vi.resetModules();
  const loader = await import('./query-client-loader');
  const { queryClient } = await import('./query-client');
  return { ...loader, queryClient };
}

describe('the lazily loaded query client (issue 13 §1)', () => {
  it('loads the one app client once, tells its subscribers, and lets lazy parts wait for it', async () => {
    const { loadedQueryClient, loadQueryClient, queryClient, subscribeToQueryClient, withQueryClient } =
      await freshLoader();
    expect(loadedQueryClient()).toBeNull();
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
      const { withQueryClient } = await freshLoader();
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
