/**
 * The keys of changes whose answer never came (the connection dropped twice, or the server was still
 * running the first): the server may well have made them. Asked for again, the same change (method, path
 * and body) goes with the same key, so the server answers it from what it kept instead of making it twice:
 * a purchase whose answer was lost, then "Buy" pressed again as the error says, buys once.
 * Kept for ten minutes in this tab (the server keeps a key a day); forgotten once the change is answered.
 */
const KEEP_MS = 10 * 60_000;
const unanswered = new Map<string, { key: string; at: number }>();

export function changeFingerprint(method: string, path: string, body: unknown): string {
  return `${method} ${path} ${body === undefined ? '' : JSON.stringify(body)}`;
}

/** The key an unanswered change was sent with, if this one is the same change asked for again. */
export function keyOfUnanswered(fingerprint: string, now = Date.now()): string | undefined {
  const kept = unanswered.get(fingerprint);
  if (!kept) return undefined;
  if (now - kept.at > KEEP_MS) {
    unanswered.delete(fingerprint);
    return undefined;
  }
  return kept.key;
}

export function rememberUnanswered(fingerprint: string, key: string, now = Date.now()): void {
  unanswered.set(fingerprint, { key, at: now });
}

export function forgetUnanswered(fingerprint: string): void {
  unanswered.delete(fingerprint);
}

/** Forgets every change: a sign-out (the next user's changes are their own), and each test. */
export function forgetAllUnanswered(): void {
  unanswered.clear();
}
