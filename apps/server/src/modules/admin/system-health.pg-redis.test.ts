import type { SystemHealth } from '@haversack/contracts';
import { afterEach, describe, expect, it } from 'vitest';
import { createAdmin } from '../../test/admin.js';
import { buildTestApp, callApi, json, type TestContext } from '../../test/helper.js';

// Runs in the PostgreSQL pass (TEST_DATABASE_URL), where Redis is up too (see vitest.config.ts).
const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

let ctx: TestContext | undefined;
afterEach(async () => {
  await ctx?.close();
  ctx = undefined;
});

async function healthOf(env: Record<string, string>): Promise<SystemHealth> {
  ctx = await buildTestApp({ env });
  const admin = await createAdmin(ctx);
  const response = await callApi(ctx, 'GET', '/admin/system_health', admin.adminAuth);
  expect(response.statusCode, response.body).toBe(200);
  return json<{ data: SystemHealth }>(response).data;
}

describe('GET /admin/system_health with Redis', () => {
  it('pings the Redis the app fans out through', async () => {
    const health = await healthOf({ REDIS_URL: redisUrl });
    expect(health.redis).toMatchObject({ status: 'ok', configured: true });
    expect(health.redis.latency_ms).toBeGreaterThanOrEqual(0);
    expect(health.database.engine).toBe('postgresql');
  });
});
