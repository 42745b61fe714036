import { statfsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { AdminJob, SystemHealth } from '@haversack/contracts';
import type * as ActionCable from '@rails/actioncable';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobs } from '../../db/schema/jobs.js';
import { createAdmin, type SignedInAdmin } from '../../test/admin.js';
import { consumerFor, subscribe } from '../../test/cable-client.js';
import { createParty, createUser } from '../../test/factories.js';
import { buildTestApp, callApi, json, type TestContext } from '../../test/helper.js';
import { auditLogRepository } from './audit-log.repository.js';

let ctx: TestContext;
let admin: SignedInAdmin;
const consumers: ActionCable.Consumer[] = [];
const HOUR = 3_600_000;

beforeAll(async () => {
  ctx = await buildTestApp();
  admin = await createAdmin(ctx);
});
afterAll(async () => {
  for (const consumer of consumers) consumer.disconnect();
  await ctx.close();
});

async function health(): Promise<SystemHealth> {
  const response = await callApi(ctx, 'GET', '/admin/system_health', admin.adminAuth);
  expect(response.statusCode, response.body).toBe(200);
  return json<{ data: SystemHealth }>(response).data;
}

async function listJobs(status: string): Promise<AdminJob[]> {
  const response = await callApi(ctx, 'GET', `/admin/jobs?status=${status}&per_page=100`, admin.adminAuth);
  expect(response.statusCode, response.body).toBe(200);
  return json<{ data: AdminJob[] }>(response).data;
}

/** Jobs of a kind no handler knows, so nothing in the test app runs them. */
async function insertJob(key: string, runAt: Date, failed = false) {
  const [row] = await ctx.database.db
    .insert(jobs)
    .values({
      kind: 'test_only',
      key,
      runAt,
      attempts: failed ? 3 : 0,
      lastError: failed ? 'SMTP refused the message' : null,
    })
    .returning();
  if (!row) throw new Error('job not inserted');
  return row;
}

describe('GET /admin/system_health', () => {
  it('answers every part with a status', async () => {
    const data = await health();
    expect(data.database).toMatchObject({
      status: 'ok',
      engine: ctx.database.kind === 'pglite' ? 'pglite' : 'postgresql',
    });
    expect(data.database.latency_ms).toBeGreaterThanOrEqual(0);
    // The test app runs without REDIS_URL or SMTP_URL and with BILLING_PROVIDER=local.
    expect(data.redis).toEqual({ status: 'ok', configured: false, latency_ms: null });
    expect(data.mail).toEqual({ status: 'warn', transport: 'file' });
    expect(data.billing).toEqual({ status: 'warn', provider: 'local' });
    expect(data.app.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(data.app.node_version).toBe(process.version);
    expect(data.app.memory_rss_bytes).toBeGreaterThan(0);
    expect(data.app.uptime_s).toBeGreaterThanOrEqual(0);
    // The disk of the test's DATA_DIR, as statfs reads it.
    const disk = statfsSync(ctx.config.dataDir);
    expect(data.disk.free_bytes).toBeGreaterThan(0);
    expect(Math.abs((data.disk.free_bytes ?? 0) - disk.bavail * disk.bsize)).toBeLessThan(256 * 1024 ** 2);
    expect(data.disk.status).toBe(disk.bavail * disk.bsize < 1024 ** 3 ? 'warn' : 'ok');
  });

  it('counts queued, scheduled and failed jobs and warns about failures', async () => {
    const before = (await health()).jobs;
    await insertJob('health-queued', new Date(Date.now() - HOUR));
    await insertJob('health-scheduled', new Date(Date.now() + HOUR));
    await insertJob('health-failed', new Date(Date.now() + HOUR), true);
    const after = (await health()).jobs;
    expect(after).toEqual({
      status: 'warn',
      queued: before.queued + 1,
      scheduled: before.scheduled + 1,
      failed: before.failed + 1,
    });
  });

  it('counts open cable connections and the streams they follow', async () => {
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const baseUrl = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
    const before = (await health()).realtime;
    expect(before).toEqual({ status: 'ok', connections: 0, streams: 0 });

    const gm = await createUser(ctx);
    const party = await createParty(ctx, gm);
    const consumer = consumerFor(baseUrl, gm.token);
    consumers.push(consumer);
    await subscribe(consumer, 'PartyInventoryChannel', party.id).connected;

    const after = (await health()).realtime;
    expect(after.connections).toBe(1);
    expect(after.streams).toBeGreaterThanOrEqual(1);
  });
});

describe('GET /admin/jobs', () => {
  it('lists each status apart, oldest run time first', async () => {
    const older = await insertJob('list-queued-older', new Date(Date.now() - 2 * HOUR));
    const newer = await insertJob('list-queued-newer', new Date(Date.now() - HOUR));
    const later = await insertJob('list-scheduled', new Date(Date.now() + 2 * HOUR));
    const failed = await insertJob('list-failed', new Date(Date.now() - HOUR), true);

    const queued = (await listJobs('queued')).map((j) => j.key);
    expect(queued.indexOf(older.key)).toBeGreaterThanOrEqual(0);
    expect(queued.indexOf(older.key)).toBeLessThan(queued.indexOf(newer.key));
    expect(queued).not.toContain(later.key);
    expect(queued).not.toContain(failed.key);

    const scheduled = (await listJobs('scheduled')).map((j) => j.key);
    expect(scheduled).toContain(later.key);
    expect(scheduled).not.toContain(older.key);

    const failures = await listJobs('failed');
    expect(failures.find((j) => j.key === failed.key)).toMatchObject({
      kind: 'test_only',
      attempts: 3,
      last_error: 'SMTP refused the message',
    });
    expect(failures.map((j) => j.key)).not.toContain(later.key);
  });

  it('refuses an unknown status with a 422', async () => {
    const response = await callApi(ctx, 'GET', '/admin/jobs?status=stuck', admin.adminAuth);
    expect(response.statusCode).toBe(422);
  });
});

describe('POST /admin/jobs/:id/retry', () => {
  it('moves run_at to now and audits the move', async () => {
    const job = await insertJob('retry-me', new Date(Date.now() + 30 * 60_000), true);
    const started = Date.now();
    const response = await callApi(ctx, 'POST', `/admin/jobs/${job.id}/retry`, admin.adminAuth);
    expect(response.statusCode, response.body).toBe(200);
    const moved = json<{ data: AdminJob }>(response).data;
    expect(Date.parse(moved.run_at)).toBeGreaterThanOrEqual(started - 1000);
    expect(Date.parse(moved.run_at)).toBeLessThanOrEqual(Date.now());
    // Still failed until a try succeeds, but no longer waiting.
    expect(moved).toMatchObject({ attempts: 3, last_error: 'SMTP refused the message' });

    const [entry] = await auditLogRepository.forSubject(ctx.database.db, job.id);
    expect(entry).toMatchObject({
      action: 'job_retried',
      actorId: admin.user.id,
      targetType: 'job',
      before: { run_at: job.runAt.toISOString() },
      after: { run_at: moved.run_at },
    });
  });

  it('answers 404 for a job that is gone and changes nothing for a non-admin', async () => {
    const missing = await callApi(
      ctx,
      'POST',
      '/admin/jobs/00000000-0000-4000-8000-000000000000/retry',
      admin.adminAuth,
    );
    expect(missing.statusCode).toBe(404);

    const job = await insertJob('retry-refused', new Date(Date.now() + HOUR), true);
    const user = await createUser(ctx);
    const refused = await callApi(ctx, 'POST', `/admin/jobs/${job.id}/retry`, user);
    expect(refused.statusCode).toBe(403);
    const listed = (await listJobs('failed')).find((j) => j.id === job.id);
    expect(listed?.run_at).toBe(job.runAt.toISOString());
  });
});

describe('a retried job', () => {
  it('runs at the next poll and leaves the queue when it succeeds', async () => {
    let runs = 0;
    ctx.app.services.jobs.register('test_retry', async () => {
      runs += 1;
      return undefined;
    });
    const [job] = await ctx.database.db
      .insert(jobs)
      .values({
        kind: 'test_retry',
        key: 'retry-runs',
        runAt: new Date(Date.now() + HOUR),
        attempts: 2,
        lastError: 'boom',
      })
      .returning();
    if (!job) throw new Error('job not inserted');
    await ctx.app.services.jobs.runDue();
    expect(runs).toBe(0);

    const response = await callApi(ctx, 'POST', `/admin/jobs/${job.id}/retry`, admin.adminAuth);
    expect(response.statusCode, response.body).toBe(200);
    await ctx.app.services.jobs.runDue();
    expect(runs).toBe(1);
    expect(await ctx.app.services.jobs.find(ctx.database.db, job.key)).toBeUndefined();
  });
});

describe('GET /admin/system_health with SMTP and without billing', () => {
  it('reports the configured mail transport and billing provider', async () => {
    const other = await buildTestApp({ env: { SMTP_URL: 'smtp://127.0.0.1:2525', BILLING_PROVIDER: '' } });
    try {
      const otherAdmin = await createAdmin(other);
      const response = await callApi(other, 'GET', '/admin/system_health', otherAdmin.adminAuth);
      expect(response.statusCode, response.body).toBe(200);
      const data = json<{ data: SystemHealth }>(response).data;
      expect(data.mail).toEqual({ status: 'ok', transport: 'smtp' });
      expect(data.billing).toEqual({ status: 'warn', provider: 'none' });
    } finally {
      await other.close();
    }
  });
});
