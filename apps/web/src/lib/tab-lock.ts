/**
 * One tab at a time runs `work` under `name`, across every tab of this origin.
 *
 * The Web Locks API does this where it exists. Browsers give it only to secure contexts, and a group's own
 * server on the table's Wi-Fi (http://192.168.1.20:3000) is not one, so there the tabs take turns through a
 * lease in localStorage instead: a tab writes its claim, waits for other tabs' writes to reach it, and
 * holds the lock only if its claim is still the one stored. A tab closed while holding it frees it when the
 * lease runs out.
 */
export async function withTabLock<T>(name: string, work: () => Promise<T>, leaseMs: number): Promise<T> {
  const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
  if (locks) return locks.request(name, work);
  const release = await acquireLease(`haversack-lock:${name}`, leaseMs);
  try {
    return await work();
  } finally {
    release();
  }
}

/** How long a claim waits for another tab's write to the same key to arrive (storage events cross processes). */
const SETTLE_MS = 100;

interface Lease {
  owner: string;
  until: number;
}

async function acquireLease(key: string, leaseMs: number): Promise<() => void> {
  const owner = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
  const ours = () => readLease(key)?.owner === owner;
  for (;;) {
    const held = readLease(key);
    if (!held || held.until <= Date.now()) {
      if (!writeLease(key, { owner, until: Date.now() + leaseMs })) return () => {};
      await sleep(SETTLE_MS);
      if (ours()) {
        return () => {
          if (ours()) removeLease(key);
        };
      }
    }
    await sleep(SETTLE_MS / 2 + Math.random() * SETTLE_MS);
  }
}

function readLease(key: string): Lease | null {
  try {
    const value: unknown = JSON.parse(window.localStorage.getItem(key) ?? 'null');
    if (typeof value !== 'object' || value === null) return null;
    const { owner, until } = value as Partial<Lease>;
    return typeof owner === 'string' && typeof until === 'number' ? { owner, until } : null;
  } catch {
    return null;
  }
}

/** False when storage is unavailable (disabled, private mode): there are then no other tabs to share it with. */
function writeLease(key: string, lease: Lease): boolean {
  try {
    window.localStorage.setItem(key, JSON.stringify(lease));
    return true;
  } catch {
    return false;
  }
}

function removeLease(key: string): void {
  try {
    window.localStorage.removeItem(key);
  } catch {
    // Nothing to remove when storage is unavailable.
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
