import type { Redis } from 'ioredis';

/** The Redis keys of the shared rate-limit windows; tests clear them by this prefix. */
export const RATE_LIMIT_KEY_PREFIX = 'haversack:rate:';

/**
 * The same fixed windows as FixedWindowLimiter, counted in Redis so that every server process behind one
 * address spends one budget (DESIGN §6 scale-out). The window starts with the first attempt (PEXPIRE NX).
 */
export class RedisWindowLimiter {
  constructor(
    private readonly redis: Redis,
    private readonly max: number,
    private readonly windowMs: number,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** Counts one attempt; answers the seconds to wait when the budget is spent, else undefined. */
  async hit(key: string): Promise<number | undefined> {
    const outcome = await this.attempt(key);
    return outcome && outcome.count > this.max ? outcome.retryAfterSeconds : undefined;
  }

  /**
   * Counts one attempt; answers the attempts so far in this window and the seconds until it ends, or
   * undefined when Redis cannot be reached.
   */
  async attempt(key: string): Promise<{ count: number; retryAfterSeconds: number } | undefined> {
    const redisKey = `${RATE_LIMIT_KEY_PREFIX}${key}`;
    try {
      const results = await this.redis
        .multi()
        .incr(redisKey)
        .pexpire(redisKey, this.windowMs, 'NX')
        .pttl(redisKey)
        .exec();
      const count = Number(results?.[0]?.[1]);
      const ttl = Number(results?.[2]?.[1]);
      if (!Number.isFinite(count)) return undefined;
      return { count, retryAfterSeconds: Math.ceil((ttl > 0 ? ttl : this.windowMs) / 1000) };
    } catch (error) {
      // Like the per-address store (skipOnError), an unreachable Redis lets requests through rather than
      // locking every user out; the outage is logged.
      this.onError(error);
      return undefined;
    }
  }

  /** Forgets the key's attempts (a successful sign-in clears its failures). */
  async reset(key: string): Promise<void> {
    try {
      await this.redis.del(`${RATE_LIMIT_KEY_PREFIX}${key}`);
    } catch (error) {
      this.onError(error);
    }
  }
}
