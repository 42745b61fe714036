/**
 * Answers already built, each kept with the fingerprint of the data it was built from (issue 13 §3). The
 * caller reads the current fingerprint from the database with the request's own access check and only
 * takes an answer whose fingerprint is that one: no write ever has to tell the cache anything, so a
 * write from any path (or another process) can never leave a stale answer behind. One entry per key (the
 * latest fingerprint replaces the previous one), least recently used dropped first once the entries'
 * bytes together pass `maxBytes`; nothing is held until something is read.
 */
export class FingerprintedCache<T> {
  readonly #entries = new Map<string, { fingerprint: string; value: T; bytes: number }>();
  #bytes = 0;

  constructor(private readonly maxBytes: number) {}

  /** What is kept for `key`, if it was built from data whose fingerprint is `fingerprint`. */
  get(key: string, fingerprint: string): T | undefined {
    const entry = this.#entries.get(key);
    if (!entry || entry.fingerprint !== fingerprint) return undefined;
    // Most recently used last: Map keeps insertion order.
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    return entry.value;
  }

  /** Keeps `value`, which holds `bytes`, replacing what `key` held. */
  set(key: string, fingerprint: string, value: T, bytes: number) {
    this.#drop(key);
    if (!this.#fits(bytes)) return;
    this.#entries.set(key, { fingerprint, value, bytes });
    this.#bytes += bytes;
    this.#trim();
  }

  /**
   * Counts `bytes` more for the value kept under `key` and `fingerprint` (the caller added to it); answers
   * whether it is still kept, so that the caller adds nothing to a value no longer counted.
   */
  grow(key: string, fingerprint: string, bytes: number): boolean {
    const entry = this.#entries.get(key);
    if (!entry || entry.fingerprint !== fingerprint) return false;
    if (!this.#fits(entry.bytes + bytes)) return false;
    entry.bytes += bytes;
    this.#bytes += bytes;
    this.#trim();
    return this.#entries.get(key) === entry;
  }

  /** Bytes held by the values. */
  get bytes() {
    return this.#bytes;
  }

  get size() {
    return this.#entries.size;
  }

  // A value that alone would take more than a quarter of the budget is not worth pushing everything out.
  #fits(bytes: number) {
    return bytes <= this.maxBytes / 4;
  }

  #trim() {
    for (const oldest of this.#entries.keys()) {
      if (this.#bytes <= this.maxBytes) break;
      this.#drop(oldest);
    }
  }

  #drop(key: string) {
    const entry = this.#entries.get(key);
    if (!entry) return;
    this.#entries.delete(key);
    this.#bytes -= entry.bytes;
  }
}
