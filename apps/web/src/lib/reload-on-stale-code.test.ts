import { afterEach, describe, expect, it, vi } from 'vitest';
import { reloadOnStaleCode } from './reload-on-stale-code';

const chunkFails = () => {
  const event = new Event('vite:preloadError', { cancelable: true });
  window.dispatchEvent(event);
  return event;
};

/** Lets the server check's promise settle. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('reloadOnStaleCode', () => {
  afterEach(() => window.sessionStorage.clear());

  it('loads the page it was going to afresh when the server answers (stale code), not again at once', async () => {
    window.sessionStorage.clear();
    const reload = vi.fn();
    const serverAnswers = vi.fn(async () => true);
    const stop = reloadOnStaleCode(() => '/shops/instances/s1', reload, {
      online: () => true,
      serverAnswers,
    });
    try {
      const first = chunkFails();
      // Not taken from the page: its error panel shows until the reload comes.
      expect(first.defaultPrevented).toBe(false);
      await settle();
      expect(serverAnswers).toHaveBeenCalledTimes(1);
      expect(reload).toHaveBeenCalledWith('/shops/instances/s1');
      // The file really is missing: the page's own error says so, rather than a reload loop.
      chunkFails();
      await settle();
      expect(reload).toHaveBeenCalledTimes(1);
    } finally {
      stop();
    }
  });

  it('does not reload while the browser is offline, leaving the page error panel to retry from', async () => {
    window.sessionStorage.clear();
    const reload = vi.fn();
    const serverAnswers = vi.fn(async () => true);
    const stop = reloadOnStaleCode(() => '/my-content', reload, { online: () => false, serverAnswers });
    try {
      const event = chunkFails();
      await settle();
      expect(event.defaultPrevented).toBe(false);
      expect(serverAnswers).not.toHaveBeenCalled();
      expect(reload).not.toHaveBeenCalled();
    } finally {
      stop();
    }
  });

  it('does not reload when online but the server does not answer (server down)', async () => {
    window.sessionStorage.clear();
    const reload = vi.fn();
    const stop = reloadOnStaleCode(() => '/my-content', reload, {
      online: () => true,
      serverAnswers: async () => false,
    });
    try {
      const event = chunkFails();
      await settle();
      expect(event.defaultPrevented).toBe(false);
      expect(reload).not.toHaveBeenCalled();
      // Nothing remembered: once the server is back, a stale-code failure still reloads.
      expect(window.sessionStorage.getItem('haversack_stale_code_reload')).toBeNull();
    } finally {
      stop();
    }
  });
});
