import { afterEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestContext } from '../test/helper.js';

let ctx: TestContext | undefined;
afterEach(async () => {
  await ctx?.close();
  ctx = undefined;
});

const login = (app: TestContext['app'], email: string, forwardedFor?: string) =>
  app.inject({
    method: 'POST',
    url: '/api/v1/auth/login',
    payload: { email, password: 'Wrong1234' },
    headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {},
  });

describe('auth rate limits', () => {
  it('limits login attempts per email with RATE_LIMITED and Retry-After', async () => {
    ctx = await buildTestApp({ rateLimits: { loginPerEmail: 2 } });
    expect((await login(ctx.app, 'target@example.com')).statusCode).toBe(401);
    expect((await login(ctx.app, 'TARGET@example.com')).statusCode).toBe(401);
    const limited = await login(ctx.app, 'target@example.com');
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ status: 'error', error: { code: 'RATE_LIMITED', status: 429 } });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Another email is not affected.
    expect((await login(ctx.app, 'other@example.com')).statusCode).toBe(401);
  });

  it('ignores X-Forwarded-For unless TRUST_PROXY is set', async () => {
    ctx = await buildTestApp({ rateLimits: { loginPerIp: 2 } });
    await login(ctx.app, 'a@example.com', '10.0.0.1');
    await login(ctx.app, 'b@example.com', '10.0.0.2');
    expect((await login(ctx.app, 'c@example.com', '10.0.0.3')).statusCode).toBe(429);
  });

  it('limits per forwarded address behind a trusted proxy', async () => {
    ctx = await buildTestApp({ rateLimits: { loginPerIp: 2 }, env: { TRUST_PROXY: 'true' } });
    await login(ctx.app, 'a@example.com', '10.0.0.1');
    await login(ctx.app, 'b@example.com', '10.0.0.1');
    expect((await login(ctx.app, 'c@example.com', '10.0.0.1')).statusCode).toBe(429);
    expect((await login(ctx.app, 'd@example.com', '10.0.0.2')).statusCode).toBe(401);
  });

  it('limits forgot-password per email and reset per token', async () => {
    ctx = await buildTestApp({ rateLimits: { forgotPerEmail: 1, resetPerToken: 1 } });
    const forgot = () =>
      ctx?.app.inject({
        method: 'POST',
        url: '/api/v1/auth/forgot_password',
        payload: { email: 'x@example.com' },
      });
    expect((await forgot())?.statusCode).toBe(200);
    expect((await forgot())?.statusCode).toBe(429);
    const reset = () =>
      ctx?.app.inject({
        method: 'POST',
        url: '/api/v1/auth/reset_password',
        payload: { token: 'guess', password: 'Guessing1', password_confirmation: 'Guessing1' },
      });
    expect((await reset())?.statusCode).toBe(400);
    expect((await reset())?.statusCode).toBe(429);
  });
});
