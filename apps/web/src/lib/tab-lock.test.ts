import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { withTabLock } from './tab-lock';

const key = 'haversack-lock:test';

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

describe('withTabLock without the Web Locks API (a page served over plain http)', () => {
  beforeEach(() => {
    vi.stubGlobal('navigator', { ...navigator, locks: undefined });
    localStorage.clear();
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    localStorage.clear();
  });

  it('runs one holder at a time, in turn, and frees the lease after each', async () => {
    const events: string[] = [];
    const firstMayFinish = deferred();
    const first = withTabLock(
      'test',
      async () => {
        events.push('first in');
        await firstMayFinish.promise;
        events.push('first out');
        return 1;
      },
      10_000,
    );
    const second = withTabLock(
      'test',
      async () => {
        events.push('second in');
        return 2;
      },
      10_000,
    );
    await vi.waitFor(() => expect(events).toEqual(['first in']));
    // The second waits as long as the first holds the lease.
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(events).toEqual(['first in']);
    expect(JSON.parse(localStorage.getItem(key) ?? 'null')).toMatchObject({ until: expect.any(Number) });
    firstMayFinish.resolve();
    await expect(Promise.all([first, second])).resolves.toEqual([1, 2]);
    expect(events).toEqual(['first in', 'first out', 'second in']);
    expect(localStorage.getItem(key)).toBeNull();
  });

  it("waits for another tab's live lease and takes over one that ran out", async () => {
    localStorage.setItem(key, JSON.stringify({ owner: 'other-tab', until: Date.now() + 500 }));
    const started = Date.now();
    let ranAt = 0;
    await withTabLock(
      'test',
      async () => {
        ranAt = Date.now();
      },
      10_000,
    );
    expect(ranAt - started).toBeGreaterThanOrEqual(450);
    expect(localStorage.getItem(key)).toBeNull();

    // A tab that closed while holding the lease never frees it: its lease running out does.
    localStorage.setItem(key, JSON.stringify({ owner: 'closed-tab', until: Date.now() - 1 }));
    await expect(withTabLock('test', async () => 'ran', 10_000)).resolves.toBe('ran');
  });

  it('frees the lease when the work fails', async () => {
    await expect(
      withTabLock(
        'test',
        async () => {
          throw new Error('refused');
        },
        10_000,
      ),
    ).rejects.toThrow('refused');
    expect(localStorage.getItem(key)).toBeNull();
  });

  it('does not free a lease another tab took over after ours ran out', async () => {
    await withTabLock(
      'test',
      async () => {
        localStorage.setItem(key, JSON.stringify({ owner: 'other-tab', until: Date.now() + 10_000 }));
      },
      10_000,
    );
    expect(JSON.parse(localStorage.getItem(key) ?? 'null')).toMatchObject({ owner: 'other-tab' });
  });
});

describe('withTabLock with the Web Locks API', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('asks the browser for the lock by name and writes no lease', async () => {
    const request = vi.fn((_name: string, work: () => Promise<unknown>) => work());
    vi.stubGlobal('navigator', { ...navigator, locks: { request } });
    await expect(withTabLock('test', async () => 'ran', 10_000)).resolves.toBe('ran');
    expect(request).toHaveBeenCalledWith('test', expect.any(Function));
    expect(localStorage.getItem(key)).toBeNull();
  });
});
