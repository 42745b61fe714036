import { healthSchema, successEnvelope } from '@haversack/contracts';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { buildTestApp, callApi, type TestContext } from '../test/helper.js';
import { RedisRelay } from '../test/redis-relay.js';
import { RedisBroadcaster } from './broadcaster.js';

// Runs in the PostgreSQL pass (TEST_DATABASE_URL), where Redis is up too (see vitest.config.ts). The app
// reaches Redis through a TCP relay that the test cuts, as a Redis restart or a network fault would.
const redis = new URL(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379');

const relay = new RedisRelay(redis);
let ctx: TestContext | undefined;
afterAll(async () => {
  await ctx?.close();
  await relay.cut();
});

async function redisHealth(app: TestContext) {
  const response = await callApi(app, 'GET', '/health');
  expect(response.statusCode).toBe(200);
  return successEnvelope(healthSchema).parse(response.json()).data.redis;
}

describe('a Redis that goes away', () => {
  it('stops the start with one line naming it when it cannot be reached at all', async () => {
    await expect(
      RedisBroadcaster.connect('redis://:s3cret@127.0.0.1:1', pino({ level: 'silent' })),
    ).rejects.toThrow(/^cannot reach Redis at redis:\/\/:\*\*\*@127\.0\.0\.1:1: .*ECONNREFUSED/);
  });

  it('is reported by /health once it is gone', async () => {
    await relay.open();
    ctx = await buildTestApp({ env: { REDIS_URL: `redis://127.0.0.1:${relay.port}` } });
    expect(await redisHealth(ctx)).toBe('ok');
    await relay.cut();
    await expect.poll(() => redisHealth(ctx as TestContext), { timeout: 10_000 }).toBe('unreachable');
  }, 30_000);

  // The sign-in rate limits count in Redis: without it they let the request through (a wrong password is
  // refused as usual) rather than queueing it until Redis is back, which took 30–60 s and outlasted this
  // test's 15 s.
  it('does not hold a sign-in while it is gone', async () => {
    const login = await callApi(ctx as TestContext, 'POST', '/auth/login', undefined, {
      email: 'nobody@example.com',
      password: 'not the password',
    });
    expect(login.statusCode).toBe(401);
  }, 15_000);

  it('is used again once it is back', async () => {
    await relay.open();
    await expect.poll(() => redisHealth(ctx as TestContext), { timeout: 20_000 }).toBe('ok');
  }, 30_000);

  it('does not hold a shutdown while it is gone', async () => {
    await relay.cut();
    await expect.poll(() => redisHealth(ctx as TestContext), { timeout: 10_000 }).toBe('unreachable');
    await ctx?.close();
    ctx = undefined;
  }, 20_000);
});
