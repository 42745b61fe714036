import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ApiTokenCreated } from '@haversack/contracts';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import type { DatabaseHandle } from '../db/client.js';
import { MailQueue } from '../lib/mail-queue.js';
import { createMailer } from '../lib/mailer.js';
import { createUser, upgrade } from '../test/factories.js';
import { callApi, json, openTestDatabase, type TestContext } from '../test/helper.js';
import { RedisRelay } from '../test/redis-relay.js';
import { defaultAuthRateLimits } from './rate-limit.js';

// Runs in the PostgreSQL pass (TEST_DATABASE_URL), where Redis is up too (see vitest.config.ts): two apps
// on one database and one Redis stand for two server processes behind a load balancer.
const redis = new URL(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379');

const relay = new RedisRelay(redis);
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'haversack-budget-'));
const log = pino({ level: 'silent' });
const mail = new MailQueue(createMailer({ from: 'test@haversack.test', dataDir, log }));
const jwtSecret = randomBytes(32).toString('hex');
const apps: FastifyInstance[] = [];
let database: DatabaseHandle | undefined;

afterAll(async () => {
  for (const app of apps) await app.close();
  await relay.cut();
  await database?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** One server process of the deployment: its own app (and Redis connection) on the shared database. */
async function serverProcess(redisUrl: string, apiTokenPerUser: number): Promise<TestContext> {
  database ??= await openTestDatabase();
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    APP_URL: 'http://haversack.test',
    LOG_LEVEL: 'silent',
    BILLING_PROVIDER: 'local',
    REDIS_URL: redisUrl,
  });
  const app = await buildApp({
    config,
    database,
    mail,
    jwtSecret,
    logger: false,
    rateLimits: { ...defaultAuthRateLimits, apiTokenPerUser },
  });
  await app.ready();
  apps.push(app);
  // The factories need only the app; closing is afterAll's.
  return { app, database, mail, dataDir, config, close: async () => {} };
}

async function apiToken(ctx: TestContext): Promise<string> {
  const user = await createUser(ctx);
  await upgrade(ctx, user, 'tier_2');
  const response = await callApi(ctx, 'POST', '/users/me/api_tokens', user, {
    api_token: { name: 'Script', scope: 'read', expires_in_days: 30 },
  });
  expect(response.statusCode, response.body).toBe(201);
  return json<{ data: ApiTokenCreated }>(response).data.token;
}

const bearer = (token: string) => ({ auth: { authorization: `Bearer ${token}` } });

describe('the API-token budget with Redis', () => {
  it('is one budget for every server process', async () => {
    const a = await serverProcess(redis.toString(), 4);
    const b = await serverProcess(redis.toString(), 4);
    const token = await apiToken(a);
    const statuses: number[] = [];
    const remaining: string[] = [];
    for (const ctx of [a, b, a, b, b]) {
      const response = await callApi(ctx, 'GET', '/auth/me', bearer(token));
      statuses.push(response.statusCode);
      remaining.push(String(response.headers['x-ratelimit-remaining']));
    }
    expect(statuses).toEqual([200, 200, 200, 200, 429]);
    expect(remaining).toEqual(['3', '2', '1', '0', '0']);
  });

  it('lets calls through, untold, while Redis cannot be reached', async () => {
    await relay.open();
    const ctx = await serverProcess(`redis://127.0.0.1:${relay.port}`, 1);
    const token = await apiToken(ctx);
    await relay.cut();
    for (let i = 0; i < 3; i += 1) {
      const response = await callApi(ctx, 'GET', '/auth/me', bearer(token));
      expect(response.statusCode).toBe(200);
      expect(response.headers['x-ratelimit-remaining']).toBeUndefined();
    }
  }, 30_000);
});
