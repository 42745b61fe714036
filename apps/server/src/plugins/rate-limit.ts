import { setTimeout as sleep } from 'node:timers/promises';
import rateLimit from '@fastify/rate-limit';
import type {
  FastifyInstance,
  FastifyRequest,
  onSendAsyncHookHandler,
  preHandlerAsyncHookHandler,
} from 'fastify';
import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';
import { AppError } from '../lib/app-error.js';
import { FixedWindowLimiter } from '../lib/fixed-window-limiter.js';
import { RATE_LIMIT_KEY_PREFIX, RedisWindowLimiter } from '../lib/redis-window-limiter.js';

/** Per-window budgets for the account endpoints that attackers hammer. */
export interface AuthRateLimits {
  windowMs: number;
  loginPerIp: number;
  /** Sign-ins for one email from one address, since the last success there, before that pair is refused. */
  loginFailuresPerPair: number;
  /** Sign-ins for one email from every address before each further one is slowed down (never refused). */
  loginSlowdownAfter: number;
  loginSlowdownBaseMs: number;
  loginSlowdownMaxMs: number;
  /** Current-password checks (password and email change) per user and per address. */
  passwordGuessPerUser: number;
  passwordGuessPerIp: number;
  /** Join-code previews and joins, together, per user and per address. */
  joinCodePerUser: number;
  joinCodePerIp: number;
  /**
   * Party invitations created, found or not, per user and per address, per `invitationWindowMs`:
   * inviting by email tells whether an account exists (issue from an outside review), so it must not
   * be a faster lookup than sign-up. A GM inviting a whole table, typos and all, stays far below it.
   */
  invitationsPerUser: number;
  invitationsPerIp: number;
  invitationWindowMs: number;
  registerPerIp: number;
  /** Sign-ups naming one email (spec conformance, issue 14): its own budget, not the forgot-password one. */
  registerPerEmail: number;
  forgotPerIp: number;
  forgotPerEmail: number;
  resetPerIp: number;
  resetPerToken: number;
  verifyPerIp: number;
  /**
   * Calls made with personal API tokens, per user across all of that user's tokens, per window of
   * `apiTokenWindowMs` (issue 16 §5, from an outside review); sessions of the web app do not spend it.
   */
  apiTokenPerUser: number;
  apiTokenWindowMs: number;
  /**
   * Loot distributions and previews started per user per `lootDistributionWindowMs` (attack review): each
   * holds a database connection while it moves the loot, and a preview costs what its distribution does.
   */
  lootDistributionsPerUser: number;
  lootDistributionWindowMs: number;
}

export const defaultAuthRateLimits: AuthRateLimits = {
  windowMs: 15 * 60_000,
  loginPerIp: 50,
  loginFailuresPerPair: 10,
  loginSlowdownAfter: 20,
  loginSlowdownBaseMs: 250,
  loginSlowdownMaxMs: 4_000,
  passwordGuessPerUser: 10,
  passwordGuessPerIp: 50,
  joinCodePerUser: 30,
  joinCodePerIp: 60,
  invitationsPerUser: 30,
  invitationsPerIp: 60,
  invitationWindowMs: 60 * 60_000,
  registerPerIp: 20,
  registerPerEmail: 5,
  forgotPerIp: 20,
  forgotPerEmail: 5,
  resetPerIp: 20,
  resetPerToken: 5,
  verifyPerIp: 30,
  apiTokenPerUser: 600,
  apiTokenWindowMs: 60_000,
  lootDistributionsPerUser: 20,
  lootDistributionWindowMs: 60_000,
};

/** Multiplies the budgets (RATE_LIMIT_SCALE); windows and delays stay as they are. */
export function scaleRateLimits(limits: AuthRateLimits, scale: number): AuthRateLimits {
  const scaled = { ...limits };
  for (const key of Object.keys(scaled) as (keyof AuthRateLimits)[]) {
    if (!key.endsWith('Ms')) scaled[key] = Math.max(1, Math.round(limits[key] * scale));
  }
  return scaled;
}

/** Route hooks of a budget that a success resets (see loginThrottle). */
export interface ThrottleHooks {
  preHandler: preHandlerAsyncHookHandler;
  onSend: onSendAsyncHookHandler;
}

/** A budget as the x-ratelimit-* headers tell it: its size, what is left, and seconds until it renews. */
export interface BudgetState {
  limit: number;
  remaining: number;
  resetSeconds: number;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The API-token budget this request spent, told in its answer's headers (see limitApiTokenCall). */
    apiTokenBudget: BudgetState | null;
  }
  interface FastifyInstance {
    authRateLimits: AuthRateLimits;
    /**
     * A preHandler allowing `max` requests per window (`windowMs`, else the auth budgets' window) for
     * each value of `key` (e.g. the body's email).
     */
    limitByKey: (
      name: string,
      max: number,
      key: (request: FastifyRequest) => string | undefined,
      windowMs?: number,
    ) => preHandlerAsyncHookHandler;
    /**
     * For work done once per key and window (`windowMs`, else the auth budgets' window), such as one audit
     * entry for a run of the same refusal: answers true the first time `key` is seen in its window.
     */
    firstInWindow: (name: string, windowMs?: number) => (key: string) => Promise<boolean>;
    /**
     * Sign-in guessing (DESIGN §3, docs/decisions.md): failures for one email from one address are
     * refused past a budget, and a success from that address clears them; failures for the email from
     * everywhere only slow each attempt down, so nobody can lock the owner out from another address.
     */
    loginThrottle: (email: (request: FastifyRequest) => string | undefined) => ThrottleHooks;
    /**
     * Counts a call made with an API token against its user's budget and throws 429 past it; the answer,
     * whatever it is, carries x-ratelimit-limit, -remaining and -reset (called by the auth plugin).
     */
    limitApiTokenCall: (request: FastifyRequest, userId: string) => Promise<void>;
  }
}

export function bodyString(request: FastifyRequest, field: string): string | undefined {
  const value = (request.body as Record<string, unknown> | undefined)?.[field];
  return typeof value === 'string' ? value.trim().toLowerCase() : undefined;
}

const rateLimited = (retryAfterSeconds: number) =>
  new AppError('RATE_LIMITED', undefined, {
    headers: { 'retry-after': String(Math.max(1, retryAfterSeconds)) },
  });

/**
 * Rate limits answer 429 RATE_LIMITED with Retry-After (DESIGN §3). Per-address budgets use
 * @fastify/rate-limit through the route's `config.rateLimit`; the address is request.ip, which honours
 * X-Forwarded-For only when TRUST_PROXY is set (Fastify's trustProxy). With `redis` (REDIS_URL), every
 * budget is counted in Redis, so several processes behind one address share it.
 */
export const rateLimitPlugin = fp(
  async (app: FastifyInstance, options: { limits: AuthRateLimits; redis?: Redis }) => {
    const { redis } = options;
    await app.register(rateLimit, {
      global: false,
      hook: 'preHandler',
      timeWindow: options.limits.windowMs,
      errorResponseBuilder: (_request, context) => rateLimited(Math.ceil(context.ttl / 1000)),
      ...(redis ? { redis, nameSpace: `${RATE_LIMIT_KEY_PREFIX}ip:`, skipOnError: true } : {}),
    });
    const { limits } = options;
    const counter = (max: number, windowMs = limits.windowMs) => {
      if (!redis) return new FixedWindowLimiter(max, windowMs);
      return new RedisWindowLimiter(redis, max, windowMs, (error) =>
        app.log.warn({ err: error }, 'rate limit store unreachable; request allowed'),
      );
    };
    app.decorate('authRateLimits', limits);
    app.decorate(
      'limitByKey',
      (
        name: string,
        max: number,
        key: (request: FastifyRequest) => string | undefined,
        windowMs?: number,
      ) => {
        const limiter = counter(max, windowMs);
        return async (request: FastifyRequest) => {
          const value = key(request);
          if (value === undefined) return;
          const wait = await limiter.hit(`${name}:${value}`);
          if (wait !== undefined) throw rateLimited(wait);
        };
      },
    );
    app.decorate('firstInWindow', (name: string, windowMs?: number) => {
      const limiter = counter(1, windowMs);
      // An unreachable Redis answers "first" every time: the work is done again rather than never.
      return async (key: string) => (await limiter.hit(`${name}:${key}`)) === undefined;
    });
    app.decorate('loginThrottle', (email: (request: FastifyRequest) => string | undefined) => {
      const pairs = counter(limits.loginFailuresPerPair);
      const emails = counter(limits.loginSlowdownAfter);
      const pairKey = (request: FastifyRequest) => {
        const value = email(request);
        return value === undefined ? undefined : `login-pair:${value}|${request.ip}`;
      };
      return {
        // Every attempt counts before the password is checked, so parallel guesses cannot all slip in
        // under the budget; the success that follows clears the pair (onSend).
        preHandler: async (request) => {
          const value = email(request);
          const key = pairKey(request);
          if (value === undefined || key === undefined) return;
          const pair = await pairs.attempt(key);
          if (pair && pair.count > limits.loginFailuresPerPair) throw rateLimited(pair.retryAfterSeconds);
          const all = await emails.attempt(`login-email:${value}`);
          const over = (all?.count ?? 0) - limits.loginSlowdownAfter;
          if (over > 0) {
            await sleep(Math.min(limits.loginSlowdownMaxMs, limits.loginSlowdownBaseMs * 2 ** (over - 1)));
          }
        },
        onSend: async (request, reply, payload) => {
          const key = pairKey(request);
          if (key !== undefined && reply.statusCode === 200) await pairs.reset(key);
          return payload;
        },
      };
    });

    // One budget per user, not per token: minting a second token must not double what a script may do.
    const apiTokenCalls = counter(limits.apiTokenPerUser, limits.apiTokenWindowMs);
    app.decorateRequest('apiTokenBudget', null);
    app.decorate('limitApiTokenCall', async (request: FastifyRequest, userId: string) => {
      const spent = await apiTokenCalls.attempt(`api-token-user:${userId}`);
      // An unreachable Redis lets the call through uncounted, and then there is no budget to tell.
      if (!spent) return;
      request.apiTokenBudget = {
        limit: limits.apiTokenPerUser,
        remaining: Math.max(0, limits.apiTokenPerUser - spent.count),
        resetSeconds: spent.retryAfterSeconds,
      };
      if (spent.count > limits.apiTokenPerUser) throw rateLimited(spent.retryAfterSeconds);
    });
    // onSend, not the hook that counts: the auth hook has no reply, and errors (403, 429) carry them too.
    // On a call with a token these headers tell the token budget, over @fastify/rate-limit's per-address
    // ones: a script paces itself by the budget it was promised.
    app.addHook('onSend', async (request, reply, payload) => {
      const budget = request.apiTokenBudget;
      if (budget) {
        reply.header('x-ratelimit-limit', budget.limit);
        reply.header('x-ratelimit-remaining', budget.remaining);
        reply.header('x-ratelimit-reset', budget.resetSeconds);
      }
      return payload;
    });
  },
  { name: 'rate-limit', dependencies: ['error-handler'] },
);
