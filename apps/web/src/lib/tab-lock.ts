/**
 * One tab at a time runs `work` under `name`, across every tab of this origin.
 *
 * The Web Locks API does this where it exists. Browsers give it only to secure contexts, and a group's own
 * server on the table's Wi-Fi (http://192.168.1.20:3000) is not one, so there the tabs take turns through a
 * lease in IndexedDB instead, which every browser has on plain http too. A tab claims the lease in a
 * read-write transaction that reads it and writes its own only if it is free; the browser runs such
 * transactions on one store one after the other, across tabs, so two tabs can never both find it free.
 * (A lease in localStorage could not promise that: a write reaches the other tabs' processes some time
 * later, and on a busy machine two tabs each took the lease before seeing the other's.) A tab closed while
 * holding it frees it when the lease runs out.
 */
export async function withTabLock<T>(name: string, work: () => Promise<T>, leaseMs: number): Promise<T> {
  const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
  if (locks) return locks.request(name, work);
  const release = await acquireLease(name, leaseMs);
  try {
    return await work();
  } finally {
    await release();
  }
}

export const LEASE_DATABASE = 'haversack-tab-locks';
export const LEASE_STORE = 'leases';

export interface Lease {
  owner: string;
  until: number;
}

/** How long a tab waits before asking again for a lease another tab holds. */
const RETRY_MS = 100;

async function acquireLease(name: string, leaseMs: number): Promise<() => Promise<void>> {
  const database = await openLeases();
  // Without IndexedDB (storage turned off) there is no storage for other tabs to share tokens through either.
  if (!database) return async () => {};
  const owner = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
  for (;;) {
    const claimed = await inLeaseStore<boolean>(database, (store, done) => {
      const read = store.get(name);
      read.onsuccess = () => {
        const held = read.result as Lease | undefined;
        if (held && held.until > Date.now()) return done(false);
        store.put({ owner, until: Date.now() + leaseMs } satisfies Lease, name);
        done(true);
      };
    }).catch(() => null);
    // A store that fails to answer shares nothing either: the work runs unlocked rather than never.
    if (claimed === null) return async () => database.close();
    if (claimed) break;
    await sleep(RETRY_MS / 2 + Math.random() * RETRY_MS);
  }
  return async () => {
    // Ours only: a lease that ran out may have gone to another tab meanwhile.
    await inLeaseStore(database, (store, done) => {
      const read = store.get(name);
      read.onsuccess = () => {
        if ((read.result as Lease | undefined)?.owner === owner) store.delete(name);
        done(undefined);
      };
    }).catch(() => undefined);
    database.close();
  };
}

function openLeases(): Promise<IDBDatabase | null> {
  return new Promise((resolve) => {
    let request: IDBOpenDBRequest;
    try {
      request = indexedDB.open(LEASE_DATABASE, 1);
    } catch {
      return resolve(null);
    }
    request.onupgradeneeded = () => request.result.createObjectStore(LEASE_STORE);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => resolve(null);
    request.onblocked = () => resolve(null);
  });
}

/** One read-write transaction on the leases; its answer counts once the transaction has committed. */
function inLeaseStore<T>(
  database: IDBDatabase,
  body: (store: IDBObjectStore, done: (answer: T) => void) => void,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const transaction = database.transaction(LEASE_STORE, 'readwrite');
    let answer: T;
    body(transaction.objectStore(LEASE_STORE), (value) => {
      answer = value;
    });
    transaction.oncomplete = () => resolve(answer);
    transaction.onerror = () => reject(transaction.error);
    transaction.onabort = () => reject(transaction.error);
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
