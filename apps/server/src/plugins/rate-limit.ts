import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';
import { AppError } from '../lib/app-error.js';
import { FixedWindowLimiter } from '../lib/fixed-window-limiter.js';
import { RATE_LIMIT_KEY_PREFIX, RedisWindowLimiter } from '../lib/redis-window-limiter.js';

/** Per-window budgets for the account endpoints that attackers hammer. */
export interface AuthRateLimits {
  windowMs: number;
  loginPerIp: number;
  loginPerEmail: number;
  registerPerIp: number;
  forgotPerIp: number;
  forgotPerEmail: number;
  resetPerIp: number;
  resetPerToken: number;
  verifyPerIp: number;
}

export const defaultAuthRateLimits: AuthRateLimits = {
  windowMs: 15 * 60_000,
  loginPerIp: 50,
  loginPerEmail: 10,
  registerPerIp: 20,
  forgotPerIp: 20,
  forgotPerEmail: 5,
  resetPerIp: 20,
  resetPerToken: 5,
  verifyPerIp: 30,
};

export function scaleRateLimits(limits: AuthRateLimits, scale: number): AuthRateLimits {
  const scaled = { ...limits };
  for (const key of Object.keys(scaled) as (keyof AuthRateLimits)[]) {
    if (key !== 'windowMs') scaled[key] = Math.max(1, Math.round(limits[key] * scale));
  }
  return scaled;
}

declare module 'fastify' {
  interface FastifyInstance {
    authRateLimits: AuthRateLimits;
    /** A preHandler allowing `max` requests per window for each value of `key` (e.g. the body's email). */
    limitByKey: (
      name: string,
      max: number,
      key: (request: FastifyRequest) => string | undefined,
    ) => preHandlerAsyncHookHandler;
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
    app.decorate('authRateLimits', options.limits);
    app.decorate(
      'limitByKey',
      (name: string, max: number, key: (request: FastifyRequest) => string | undefined) => {
        const limiter = redis
          ? new RedisWindowLimiter(redis, max, options.limits.windowMs, (error) =>
              app.log.warn({ err: error }, 'rate limit store unreachable; request allowed'),
            )
          : new FixedWindowLimiter(max, options.limits.windowMs);
        return async (request: FastifyRequest) => {
          const value = key(request);
          if (value === undefined) return;
          const wait = await limiter.hit(`${name}:${value}`);
          if (wait !== undefined) throw rateLimited(wait);
        };
      },
    );
  },
  { name: 'rate-limit', dependencies: ['error-handler'] },
);
