/**
 * Answers already serialized, each kept with the fingerprint of the data it was built from (issue 13 §3).
 * The caller reads the current fingerprint from the database with the request's own access check and
 * only takes an answer whose fingerprint is that one: no write ever has to tell the cache anything, so a
 * write from any path (or another process) can never leave a stale answer behind. One entry per key (the
 * latest fingerprint replaces the previous one), least recently used dropped first once the bodies
 * together pass `maxBytes`; nothing is held until something is read.
 */
export class FingerprintedCache {
  readonly #entries = new Map<string, { fingerprint: string; body: Buffer }>();
  #bytes = 0;

  constructor(private readonly maxBytes: number) {}

  /** The body kept for `key`, if it was built from data whose fingerprint is `fingerprint`. */
  get(key: string, fingerprint: string): Buffer | undefined {
    const entry = this.#entries.get(key);
    if (!entry || entry.fingerprint !== fingerprint) return undefined;
    // Most recently used last: Map keeps insertion order.
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    return entry.body;
  }

  set(key: string, fingerprint: string, body: Buffer) {
    this.#drop(key);
    // A body that alone would take more than a quarter of the budget is not worth pushing everything out.
    if (body.length > this.maxBytes / 4) return;
    this.#entries.set(key, { fingerprint, body });
    this.#bytes += body.length;
    for (const oldest of this.#entries.keys()) {
      if (this.#bytes <= this.maxBytes) break;
      this.#drop(oldest);
    }
  }

  /** Bytes held by the bodies. */
  get bytes() {
    return this.#bytes;
  }

  get size() {
    return this.#entries.size;
  }

  #drop(key: string) {
    const entry = this.#entries.get(key);
    if (!entry) return;
    this.#entries.delete(key);
    this.#bytes -= entry.body.length;
  }
}
