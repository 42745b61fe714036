import { IDBFactory } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LEASE_DATABASE, LEASE_STORE, type Lease, withTabLock } from './tab-lock';

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

/** The leases as another tab would find them (each call opens the database as a tab would). */
function leaseStore<T>(use: (store: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    const open = indexedDB.open(LEASE_DATABASE, 1);
    open.onupgradeneeded = () => open.result.createObjectStore(LEASE_STORE);
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const database = open.result;
      const transaction = database.transaction(LEASE_STORE, 'readwrite');
      const request = use(transaction.objectStore(LEASE_STORE));
      transaction.oncomplete = () => {
        database.close();
        resolve(request.result);
      };
      transaction.onerror = () => reject(transaction.error);
    };
  });
}
const readLease = () => leaseStore((store) => store.get('test') as IDBRequest<Lease | undefined>);
const writeLease = (lease: Lease) => leaseStore((store) => store.put(lease, 'test'));

describe('withTabLock without the Web Locks API (a page served over plain http)', () => {
  beforeEach(() => {
    vi.stubGlobal('navigator', { ...navigator, locks: undefined });
    // A fresh browser profile for each test: tabs of one origin share its IndexedDB.
    vi.stubGlobal('indexedDB', new IDBFactory());
  });
  afterEach(() => vi.unstubAllGlobals());

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
    expect(await readLease()).toMatchObject({ until: expect.any(Number) });
    firstMayFinish.resolve();
    await expect(Promise.all([first, second])).resolves.toEqual([1, 2]);
    expect(events).toEqual(['first in', 'first out', 'second in']);
    expect(await readLease()).toBeUndefined();
  });

  it('never lets two of many tabs asking at the same instant hold it at once', async () => {
    let holders = 0;
    let most = 0;
    const tab = () =>
      withTabLock(
        'test',
        async () => {
          holders += 1;
          most = Math.max(most, holders);
          await new Promise((resolve) => setTimeout(resolve, 20));
          holders -= 1;
        },
        10_000,
      );
    await Promise.all(Array.from({ length: 8 }, tab));
    expect(most).toBe(1);
    expect(await readLease()).toBeUndefined();
  });

  it("waits for another tab's live lease and takes over one that ran out", async () => {
    await writeLease({ owner: 'other-tab', until: Date.now() + 500 });
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
    expect(await readLease()).toBeUndefined();

    // A tab that closed while holding the lease never frees it: its lease running out does.
    await writeLease({ owner: 'closed-tab', until: Date.now() - 1 });
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
    expect(await readLease()).toBeUndefined();
  });

  it('does not free a lease another tab took over after ours ran out', async () => {
    await withTabLock(
      'test',
      async () => {
        await writeLease({ owner: 'other-tab', until: Date.now() + 10_000 });
      },
      10_000,
    );
    expect(await readLease()).toMatchObject({ owner: 'other-tab' });
  });

  it('runs the work unlocked where the browser keeps no IndexedDB', async () => {
    vi.stubGlobal('indexedDB', undefined);
    await expect(withTabLock('test', async () => 'ran', 10_000)).resolves.toBe('ran');
  });
});

describe('withTabLock with the Web Locks API', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('asks the browser for the lock by name and writes no lease', async () => {
    const request = vi.fn((_name: string, work: () => Promise<unknown>) => work());
    vi.stubGlobal('navigator', { ...navigator, locks: { request } });
    vi.stubGlobal('indexedDB', new IDBFactory());
    await expect(withTabLock('test', async () => 'ran', 10_000)).resolves.toBe('ran');
    expect(request).toHaveBeenCalledWith('test', expect.any(Function));
    expect(await readLease()).toBeUndefined();
  });
});
