import { afterEach, describe, expect, it, vi } from 'vitest';
import { browserTurn } from './browser-turn';

describe('browserTurn', () => {
  afterEach(() => vi.unstubAllGlobals());

  it("is the browser's scheduler.yield where there is one", async () => {
    const turn = Promise.resolve();
    const yieldToBrowser = vi.fn(() => turn);
    vi.stubGlobal('scheduler', { yield: yieldToBrowser });
    expect(browserTurn()).toBe(turn);
    expect(yieldToBrowser).toHaveBeenCalledTimes(1);
  });

  it('is nothing to wait for elsewhere, so callers go on at once', () => {
    vi.stubGlobal('scheduler', undefined);
    expect(browserTurn()).toBeUndefined();
    vi.stubGlobal('scheduler', {});
    expect(browserTurn()).toBeUndefined();
  });
});
