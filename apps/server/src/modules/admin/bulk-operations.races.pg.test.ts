import type { AdminOperation } from '@haversack/contracts';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createAdmin, type SignedInAdmin } from '../../test/admin.js';
import { createUser, type SignedInUser } from '../../test/factories.js';
import { buildTestApp, callApi, type TestContext } from '../../test/helper.js';
import { subscriptionsRepository } from '../subscriptions/subscriptions.repository.js';

/**
 * The admin attack review of 2026-11-30, on a real server: a bulk tier change racing account deletions
 * deadlocked ("deadlock detected" on the users row; the batch's job failed and was retried), and Grant plan
 * racing the user's own checkout answered 409 in 5 rounds of 10. The plan paths locked the subscription
 * and then wrote the user's row (tier_upgraded_at), while a deletion and the Users page lock the user's row
 * and then reach the subscription. And a bulk change of Free users acted on a user who had bought a plan
 * between the batch's read and its lock. Several connections and real row locks are needed, so PostgreSQL
 * only: the test's own connection holds a row while the requests and the job line up behind it.
 */
let ctx: TestContext;
let admin: SignedInAdmin;
let holder: pg.Client;
/** The test's own connection, outside the app's pool, that also asks pg_stat_activity who waits. */
let watcher: pg.Client;

async function databaseUrl(): Promise<string> {
  const current = await ctx.database.db.execute(sql`select current_database() as name`);
  const url = new URL(process.env.TEST_DATABASE_URL ?? '');
  url.pathname = `/${(current as unknown as { rows: { name: string }[] }).rows[0]?.name}`;
  return url.toString();
}

beforeAll(async () => {
  ctx = await buildTestApp();
  admin = await createAdmin(ctx);
  const url = await databaseUrl();
  holder = new pg.Client({ connectionString: url });
  watcher = new pg.Client({ connectionString: url });
  await Promise.all([holder.connect(), watcher.connect()]);
});
afterEach(async () => {
  await holder.query('rollback');
});
afterAll(async () => {
  await Promise.all([holder.end(), watcher.end()]);
  await ctx.close();
});

/** Returns once `n` sessions wait on a lock (those lined up behind the holder's row). */
async function untilWaiting(n: number): Promise<void> {
  for (let i = 0; i < 500; i++) {
    const { rows } = await watcher.query<{ n: number }>(
      "select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'",
    );
    if ((rows[0]?.n ?? 0) >= n) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`${n} sessions never waited`);
}

async function tierOf(user: SignedInUser): Promise<string | undefined> {
  return (await subscriptionsRepository.findByUser(ctx.database.db, user.user.id))?.tier.identifier;
}

async function startBulk(body: Record<string, unknown>): Promise<string> {
  const started = await callApi(ctx, 'POST', '/admin/bulk_operations', admin.adminAuth, {
    target: 'users',
    ...body,
  });
  expect(started.statusCode, started.body).toBe(202);
  return (started.json().data as AdminOperation).id;
}

async function operation(id: string): Promise<AdminOperation> {
  return (await callApi(ctx, 'GET', `/admin/operations/${id}`, admin.adminAuth)).json()
    .data as AdminOperation;
}

/** The job queue's failures meanwhile (a deadlock makes the batch's job fail and wait for its retry). */
async function failedJobs(): Promise<number> {
  const { rows } = await watcher.query<{ n: number }>(
    "select count(*)::int as n from jobs where kind = 'admin_operation' and last_error is not null",
  );
  return rows[0]?.n ?? 0;
}

describe('a bulk tier change and an account deletion on the same user', () => {
  it('takes turns: the deletion goes through, and the batch leaves the deleted user out', async () => {
    const tag = `bulkdel${Date.now()}`;
    const doomed = await createUser(ctx, { email: `${tag}-doomed@example.com` });
    const other = await createUser(ctx, { email: `${tag}-other@example.com` });
    const id = await startBulk({ filter: { email_contains: tag }, action: 'change_tier', tier: 'tier_3' });
    const failedBefore = await failedJobs();

    // The doomed user's row is held, so that the deletion locks it first and the batch, an upgrade that
    // writes it, lines up behind: the order in which the two met on the live server.
    await holder.query('begin');
    await holder.query('select id from users where id = $1 for share', [doomed.user.id]);
    const deletion = callApi(ctx, 'DELETE', `/admin/users/${doomed.user.id}`, admin.adminAuth, {
      confirm_email: doomed.user.email,
    });
    await untilWaiting(1);
    const batch = ctx.app.services.jobs.runDue();
    await untilWaiting(2);
    await holder.query('commit');

    const deleted = await deletion;
    await batch;
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(await failedJobs()).toBe(failedBefore);
    expect(await operation(id)).toMatchObject({ status: 'done', changed: 1 });
    expect(await tierOf(other)).toBe('tier_3');
  });
});

describe('Grant plan while the user buys a plan', () => {
  it('takes turns: both answer, and the one that ran last decides the plan', async () => {
    const user = await createUser(ctx);
    // The user's row is held, so that Grant plan locks it first and the checkout lines up behind it.
    await holder.query('begin');
    await holder.query('select id from users where id = $1 for share', [user.user.id]);
    const grant = callApi(ctx, 'POST', `/admin/users/${user.user.id}/tier`, admin.adminAuth, {
      tier_id: 'tier_1',
      reason: 'A race',
    });
    await untilWaiting(1);
    const checkout = callApi(ctx, 'POST', '/subscription/checkout', user, { tier_id: 'tier_3' });
    await untilWaiting(2);
    await holder.query('commit');

    const [granted, bought] = await Promise.all([grant, checkout]);
    expect(granted.statusCode, granted.body).toBe(200);
    expect(bought.statusCode, bought.body).toBe(200);
    expect(await tierOf(user)).toBe('tier_3');
  });
});

describe('a bulk change of Free users while one of them buys a plan', () => {
  it('leaves the buyer on the plan they bought: the filter is checked again on the locked rows', async () => {
    const tag = `bulkbuy${Date.now()}`;
    const buyer = await createUser(ctx, { email: `${tag}-buyer@example.com` });
    const other = await createUser(ctx, { email: `${tag}-other@example.com` });
    const id = await startBulk({
      filter: { email_contains: tag, tier: 'tier_free' },
      action: 'change_tier',
      tier: 'tier_2',
    });

    // The buyer's purchase is under way (their subscription row held) when the batch reads its users.
    await holder.query('begin');
    await holder.query(
      `update subscriptions set tier_id = (select id from subscription_tiers where identifier = 'tier_3')
        where user_id = $1`,
      [buyer.user.id],
    );
    const batch = ctx.app.services.jobs.runDue();
    await untilWaiting(1);
    await holder.query('commit');
    await batch;

    expect(await tierOf(buyer)).toBe('tier_3');
    expect(await tierOf(other)).toBe('tier_2');
    expect(await operation(id)).toMatchObject({ status: 'done', changed: 1 });
    const { rows } = await watcher.query<{ n: number }>(
      "select count(*)::int as n from audit_logs where action = 'user_tier_changed' and target_id = $1",
      [buyer.user.id],
    );
    expect(rows[0]?.n).toBe(0);
  });
});
