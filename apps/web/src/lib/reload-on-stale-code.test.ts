import { describe, expect, it, vi } from 'vitest';
import { reloadOnStaleCode } from './reload-on-stale-code';

const staleCode = () => {
  const event = new Event('vite:preloadError', { cancelable: true });
  window.dispatchEvent(event);
  return event;
};

describe('reloadOnStaleCode', () => {
  it('loads the page it was going to afresh when an older build cannot load its code, not again at once', () => {
    window.sessionStorage.clear();
    const reload = vi.fn();
    const stop = reloadOnStaleCode(() => '/shops/instances/s1', reload);
    try {
      const first = staleCode();
      expect(reload).toHaveBeenCalledWith('/shops/instances/s1');
      // Taken care of: Vite does not throw it on to the page.
      expect(first.defaultPrevented).toBe(true);
      // The file really is missing: the page's own error says so, rather than a reload loop.
      const second = staleCode();
      expect(reload).toHaveBeenCalledTimes(1);
      expect(second.defaultPrevented).toBe(false);
    } finally {
      stop();
      window.sessionStorage.clear();
    }
  });
});
