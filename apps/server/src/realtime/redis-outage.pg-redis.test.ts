import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { healthSchema, successEnvelope } from '@haversack/contracts';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createParty, createUser } from '../test/factories.js';
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

// Reviewer "multiproc" finding 5: what other processes broadcast while this one's subscriber was away never
// reaches its sockets. Once the subscriber is back, they are told to reconnect, the message a restart
// sends, and a client that reconnects refetches what its screens show (apps/web party-channels.ts).
describe('a Redis subscriber that comes back', () => {
  it('tells the sockets it serves to reconnect, so that they refetch what they missed', async () => {
    const ownRelay = new RedisRelay(redis);
    await ownRelay.open();
    const app = await buildTestApp({ env: { REDIS_URL: `redis://127.0.0.1:${ownRelay.port}` } });
    let socket: WebSocket | undefined;
    try {
      await app.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = app.app.server.address() as AddressInfo;
      const user = await createUser(app);
      socket = new WebSocket(`ws://127.0.0.1:${port}/cable?token=${user.token}`, ['actioncable-v1-json']);
      const frames: Record<string, unknown>[] = [];
      socket.on('message', (data: Buffer) => frames.push(JSON.parse(data.toString())));
      await expect.poll(() => frames.some((f) => f.type === 'welcome'), { timeout: 5_000 }).toBe(true);

      await ownRelay.cut();
      await expect.poll(() => redisHealth(app), { timeout: 10_000 }).toBe('unreachable');
      // While it is away nothing is said: the sockets would only come back to the same gap.
      expect(frames.filter((f) => f.type === 'disconnect')).toEqual([]);
      await ownRelay.open();
      await expect
        .poll(() => frames.find((f) => f.type === 'disconnect'), { timeout: 20_000 })
        .toEqual({ type: 'disconnect', reason: 'server_restart', reconnect: true });
      await expect.poll(() => redisHealth(app), { timeout: 10_000 }).toBe('ok');
    } finally {
      socket?.terminate();
      await app.close();
      await ownRelay.cut();
    }
  }, 60_000);
});

// Left open by the subscriber fix: a process whose PUBLISHER loses Redis while the others keep it makes
// changes whose broadcasts never leave it, and the sockets of the other processes would show them stale
// until a reload. Once its publisher is back, the sockets following what it failed to publish must hear
// of it: here, told to reconnect (and so to refetch).
describe('a Redis publisher that comes back', () => {
  it('has the sockets of another process that follow what it could not publish told to reconnect', async () => {
    // Both apps on their own channels, so that parallel runs on the same Redis never hear each other.
    const redisNamespace = `haversack-test-${randomBytes(4).toString('hex')}:`;
    const cutRelay = new RedisRelay(redis);
    await cutRelay.open();
    const first = await buildTestApp({
      env: { REDIS_URL: `redis://127.0.0.1:${cutRelay.port}` },
      redisNamespace,
    });
    const second = await buildTestApp({
      env: { REDIS_URL: redis.toString() },
      database: first.database,
      jwtSecret: first.jwtSecret as string,
      redisNamespace,
    });
    let socket: WebSocket | undefined;
    try {
      await second.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = second.app.server.address() as AddressInfo;
      const gm = await createUser(first);
      const party = await createParty(first, gm);
      socket = new WebSocket(`ws://127.0.0.1:${port}/cable?token=${gm.token}`, ['actioncable-v1-json']);
      const frames: Record<string, unknown>[] = [];
      socket.on('message', (data: Buffer) => frames.push(JSON.parse(data.toString())));
      const identifier = JSON.stringify({ channel: 'PartyChannel', party_id: party.id });
      socket.on('open', () => socket?.send(JSON.stringify({ command: 'subscribe', identifier })));
      await expect
        .poll(() => frames.some((f) => f.type === 'confirm_subscription'), { timeout: 5_000 })
        .toBe(true);

      await cutRelay.cut();
      await expect.poll(() => redisHealth(first), { timeout: 10_000 }).toBe('unreachable');
      // The write never waits on Redis, nor fails for it.
      const renamed = await callApi(first, 'PATCH', `/parties/${party.id}`, gm, {
        party: { name: 'Renamed offline' },
      });
      expect(renamed.statusCode).toBe(200);
      await cutRelay.open();
      await expect.poll(() => redisHealth(first), { timeout: 20_000 }).toBe('ok');
      await expect
        .poll(
          () =>
            frames.find(
              (f) =>
                f.type === 'disconnect' ||
                (f.message as { action?: string } | undefined)?.action === 'party_updated',
            ),
          { timeout: 10_000 },
        )
        .toEqual({ type: 'disconnect', reason: 'server_restart', reconnect: true });
    } finally {
      socket?.terminate();
      await second.close();
      await first.close();
      await cutRelay.cut();
    }
  }, 60_000);
});

// A CI run once failed on an unhandled "Connection is closed." from ioredis: a SUBSCRIBE or UNSUBSCRIBE
// that Redis never answered (the connection ended first: an outage, a shutdown while sockets still close)
// is rejected by the client. Nobody awaited it, so it became an unhandled rejection, which ends a Node
// process. Deterministic here: the broadcaster is closed first, and a socket's channel goes after it.
describe('a subscription the connection ends before Redis answers it', () => {
  it('is dropped quietly, not left as an unhandled rejection', async () => {
    const broadcaster = await RedisBroadcaster.connect(redis.toString(), pino({ level: 'silent' }), {
      namespace: `haversack-test-${randomBytes(4).toString('hex')}:`,
    });
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      await broadcaster.close();
      const stop = broadcaster.subscribe('PartyChannel:late', () => {});
      stop();
      // Rejections are reported after the microtasks that could still handle them.
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  }, 30_000);
});

// The same for a player who leaves while Redis is away: the presence leave, after its grace, fails on the
// Redis it counts in, and nothing awaited it.
describe('a player who leaves while Redis is away', () => {
  it('is let go without an unhandled rejection', async () => {
    const ownRelay = new RedisRelay(redis);
    await ownRelay.open();
    const app = await buildTestApp({
      env: { REDIS_URL: `redis://127.0.0.1:${ownRelay.port}` },
      redisNamespace: `haversack-test-${randomBytes(4).toString('hex')}:`,
    });
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    let socket: WebSocket | undefined;
    try {
      await app.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = app.app.server.address() as AddressInfo;
      const gm = await createUser(app);
      const party = await createParty(app, gm);
      socket = new WebSocket(`ws://127.0.0.1:${port}/cable?token=${gm.token}`, ['actioncable-v1-json']);
      const frames: Record<string, unknown>[] = [];
      socket.on('message', (data: Buffer) => frames.push(JSON.parse(data.toString())));
      const identifier = JSON.stringify({ channel: 'PartyChannel', party_id: party.id });
      socket.on('open', () => socket?.send(JSON.stringify({ command: 'subscribe', identifier })));
      await expect
        .poll(() => frames.some((f) => f.type === 'confirm_subscription'), { timeout: 5_000 })
        .toBe(true);
      await ownRelay.cut();
      await expect.poll(() => redisHealth(app), { timeout: 10_000 }).toBe('unreachable');
      socket.terminate();
      // The leave waits out its grace (PRESENCE_LEAVE_GRACE_MS, 5 s) before it asks Redis.
      await new Promise((resolve) => setTimeout(resolve, 6_500));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
      socket?.terminate();
      await app.close();
      await ownRelay.cut();
    }
  }, 40_000);
});
