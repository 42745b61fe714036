/**
 * Counts attempts per key in fixed windows. @fastify/rate-limit runs one limiter per request, so budgets
 * keyed by something other than the address (an email, a token) are counted here, in the same process
 * (RedisWindowLimiter shares them between processes when REDIS_URL is set).
 */
export class FixedWindowLimiter {
  readonly #windows = new Map<string, { count: number; resetAt: number }>();

  constructor(
    private readonly max: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts one attempt; answers the seconds to wait when the budget is spent, else undefined. */
  hit(key: string): number | undefined {
    const { count, retryAfterSeconds } = this.attempt(key);
    return count > this.max ? retryAfterSeconds : undefined;
  }

  /** Counts one attempt; answers the attempts so far in this window and the seconds until it ends. */
  attempt(key: string): { count: number; retryAfterSeconds: number } {
    const now = this.now();
    let window = this.#windows.get(key);
    if (!window || window.resetAt <= now) {
      if (this.#windows.size > 10_000) this.#sweep(now);
      window = { count: 0, resetAt: now + this.windowMs };
      this.#windows.set(key, window);
    }
    window.count += 1;
    return { count: window.count, retryAfterSeconds: Math.ceil((window.resetAt - now) / 1000) };
  }

  /** Forgets the key's attempts (a successful sign-in clears its failures). */
  reset(key: string): void {
    this.#windows.delete(key);
  }

  #sweep(now: number) {
    for (const [key, window] of this.#windows) if (window.resetAt <= now) this.#windows.delete(key);
  }
}
