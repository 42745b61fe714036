import type { AdminDashboard, AdminOperation, AdminUserDetail } from '@haversack/contracts';
import { and, count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { users as usersTable } from '../../db/schema/accounts.js';
import { auditLogs } from '../../db/schema/admin.js';
import { itemTemplates } from '../../db/schema/items.js';
import { JobQueue } from '../../jobs/job-queue.js';
import { createAdmin, type SignedInAdmin } from '../../test/admin.js';
import { createTemplate, createUser, type SignedInUser } from '../../test/factories.js';
import { buildTestApp, callApi, json, type TestContext } from '../../test/helper.js';
import { AnnouncementEmailLinks } from '../preferences/announcement-emails.js';
import { subscriptionsRepository } from '../subscriptions/subscriptions.repository.js';
import { adminOperationsRepository } from './admin-operations.repository.js';
import { ADMIN_OPERATION_BATCH, AdminOperationsService } from './admin-operations.service.js';
import { auditLogRepository } from './audit-log.repository.js';

let ctx: TestContext;
let admin: SignedInAdmin;

beforeAll(async () => {
  ctx = await buildTestApp();
  admin = await createAdmin(ctx);
});
afterAll(async () => ctx.close());

async function tierOf(user: SignedInUser): Promise<string> {
  const found = await subscriptionsRepository.findByUser(ctx.database.db, user.user.id);
  return found?.tier.identifier ?? 'none';
}

function firstOf(users: SignedInUser[]): SignedInUser {
  const [first] = users;
  if (!first) throw new Error('no users');
  return first;
}

const preview = (body: unknown) =>
  callApi(ctx, 'POST', '/admin/bulk_operations/preview', admin.adminAuth, body);

describe('bulk operations on users', () => {
  it('counts a dry run without changing anything, then changes the tier in the background, auditing each change', async () => {
    const tag = `bulk${Date.now()}`;
    const users = await Promise.all(
      Array.from({ length: ADMIN_OPERATION_BATCH + 3 }, (_, i) =>
        createUser(ctx, { email: `${tag}-${i}@example.com` }),
      ),
    );
    const outsider = await createUser(ctx);
    const body = {
      target: 'users',
      filter: { email_contains: tag, tier: 'tier_free' },
      action: 'change_tier',
      tier: 'tier_2',
    };

    const dry = await preview(body);
    expect(dry.statusCode, dry.body).toBe(200);
    expect(json<{ data: { count: number } }>(dry).data.count).toBe(users.length);
    expect(await tierOf(firstOf(users))).toBe('tier_free');
    // Filters narrow it: nobody of the tag signed up before 2000.
    const none = await preview({ ...body, filter: { ...body.filter, signed_up_before: '2000-01-01' } });
    expect(json<{ data: { count: number } }>(none).data.count).toBe(0);

    const started = await callApi(ctx, 'POST', '/admin/bulk_operations', admin.adminAuth, body);
    expect(started.statusCode, started.body).toBe(202);
    const operation = json<{ data: AdminOperation }>(started).data;
    expect(operation).toMatchObject({ kind: 'bulk_users', total: users.length, processed: 0 });

    await ctx.app.services.jobs.runDue();
    const done = json<{ data: AdminOperation }>(
      await callApi(ctx, 'GET', `/admin/operations/${operation.id}`, admin.adminAuth),
    ).data;
    expect(done).toMatchObject({ status: 'done', processed: users.length, changed: users.length });
    for (const user of users) expect(await tierOf(user)).toBe('tier_2');
    expect(await tierOf(outsider)).toBe('tier_free');

    const [entry] = await auditLogRepository.forSubject(ctx.database.db, firstOf(users).user.id);
    expect(entry).toMatchObject({
      action: 'user_tier_changed',
      actorId: admin.user.id,
      before: { tier: 'tier_free' },
      after: { tier: 'tier_2' },
      details: { operation_id: operation.id },
    });
    const [perChange] = await ctx.database.db
      .select({ n: count() })
      .from(auditLogs)
      .where(
        and(
          eq(auditLogs.action, 'user_tier_changed'),
          sql`${auditLogs.details}->>'operation_id' = ${operation.id}`,
        ),
      );
    expect(perChange?.n).toBe(users.length);
  });

  it('grants the tier as staff do, without a billing provider: not a plan taken through demo billing', async () => {
    const tag = `granted${Date.now()}`;
    const users = await Promise.all(
      Array.from({ length: 2 }, (_, i) => createUser(ctx, { email: `${tag}-${i}@example.com` })),
    );
    const started = await callApi(ctx, 'POST', '/admin/bulk_operations', admin.adminAuth, {
      target: 'users',
      filter: { email_contains: tag },
      action: 'change_tier',
      tier: 'tier_3',
    });
    expect(started.statusCode, started.body).toBe(202);
    await ctx.app.services.jobs.runDue();
    for (const user of users) {
      const found = await subscriptionsRepository.findByUser(ctx.database.db, user.user.id);
      expect(found?.tier.identifier).toBe('tier_3');
      expect(found?.subscription.provider).toBeNull();
    }
    // The dashboard counts them as granted by staff, none as demo billing.
    const dashboard = json<{ data: AdminDashboard }>(
      await callApi(ctx, 'GET', '/admin/stats/dashboard', admin.adminAuth),
    ).data;
    const legend = dashboard.subscriptions_by_tier.find((t) => t.tier === 'tier_3');
    expect(legend).toMatchObject({ granted: users.length, demo: 0 });
    // The user detail says the plan is granted, and nothing about demo billing.
    const detail = json<{ data: AdminUserDetail }>(
      await callApi(ctx, 'GET', `/admin/users/${firstOf(users).user.id}`, admin.adminAuth),
    ).data;
    expect(detail.subscription).toMatchObject({ tier: 'tier_3', provider: null });
  });

  it('suspends the matching users in the background, never an admin, ending their sessions, one audit entry each', async () => {
    const tag = `bulksus${Date.now()}`;
    const users = await Promise.all(
      Array.from({ length: ADMIN_OPERATION_BATCH + 2 }, (_, i) =>
        createUser(ctx, { email: `${tag}-${i}@example.com` }),
      ),
    );
    const staff = await createAdmin(ctx, { email: `${tag}-staff@example.com` });
    const already = await createUser(ctx, { email: `${tag}-already@example.com` });
    await callApi(ctx, 'POST', `/admin/users/${already.user.id}/suspend`, admin.adminAuth, {
      reason: 'earlier',
    });
    const outsider = await createUser(ctx);
    const body = { target: 'users', filter: { email_contains: tag }, action: 'suspend', reason: 'spam wave' };

    // The dry run counts only those it will suspend: not the admin, not the one suspended already.
    const dry = await preview(body);
    expect(dry.statusCode, dry.body).toBe(200);
    expect(json<{ data: { count: number } }>(dry).data.count).toBe(users.length);
    expect((await callApi(ctx, 'GET', '/auth/me', firstOf(users))).statusCode).toBe(200);

    const started = await callApi(ctx, 'POST', '/admin/bulk_operations', admin.adminAuth, body);
    expect(started.statusCode, started.body).toBe(202);
    const operation = json<{ data: AdminOperation }>(started).data;
    expect(operation).toMatchObject({ kind: 'bulk_users', total: users.length });
    await ctx.app.services.jobs.runDue();
    expect(await ctx.app.services.backOffice.operations.get(operation.id)).toMatchObject({
      status: 'done',
      processed: users.length,
      changed: users.length,
    });

    const rows = await ctx.database.db
      .select({ id: usersTable.id, suspendedAt: usersTable.suspendedAt, reason: usersTable.suspendedReason })
      .from(usersTable)
      .where(sql`${usersTable.email} like ${`${tag}-%`}`);
    const byId = new Map(rows.map((r) => [r.id, r]));
    for (const user of users) expect(byId.get(user.user.id)?.reason).toBe('spam wave');
    expect(byId.get(staff.user.id)?.suspendedAt).toBeNull();
    expect(byId.get(already.user.id)?.reason).toBe('earlier');
    expect((await callApi(ctx, 'GET', '/auth/me', firstOf(users))).statusCode).toBe(401);
    expect((await callApi(ctx, 'GET', '/auth/me', outsider)).statusCode).toBe(200);
    expect((await callApi(ctx, 'GET', '/admin/users', staff.adminAuth)).statusCode).toBe(200);

    const [perChange] = await ctx.database.db
      .select({ n: count() })
      .from(auditLogs)
      .where(
        and(
          eq(auditLogs.action, 'user_suspended'),
          sql`${auditLogs.details}->>'operation_id' = ${operation.id}`,
        ),
      );
    expect(perChange?.n).toBe(users.length);
  });

  it('refuses the same operation submitted twice at once (409), so that one job does all of it', async () => {
    const tag = `twice${Date.now()}`;
    await Promise.all(
      Array.from({ length: ADMIN_OPERATION_BATCH + 5 }, (_, i) =>
        createUser(ctx, { email: `${tag}-${i}@example.com` }),
      ),
    );
    const body = { target: 'users', filter: { email_contains: tag }, action: 'change_tier', tier: 'tier_1' };
    const started = await Promise.all(
      Array.from({ length: 3 }, () => callApi(ctx, 'POST', '/admin/bulk_operations', admin.adminAuth, body)),
    );
    expect(started.map((r) => r.statusCode).sort()).toEqual([202, 409, 409]);
    expect(started.find((r) => r.statusCode === 409)?.json()).toMatchObject({
      error: { code: 'CONFLICT', message: 'The same operation is already running: wait for it to finish.' },
    });
    // The same keys in another order are the same operation.
    const reordered = await callApi(ctx, 'POST', '/admin/bulk_operations', admin.adminAuth, {
      tier: 'tier_1',
      action: 'change_tier',
      filter: { email_contains: tag },
      target: 'users',
    });
    expect(reordered.statusCode).toBe(409);
    await ctx.app.services.jobs.runDue();
    const accepted = started.find((r) => r.statusCode === 202);
    if (!accepted) throw new Error('none started');
    const operation = json<{ data: AdminOperation }>(accepted).data;
    expect(await ctx.app.services.backOffice.operations.get(operation.id)).toMatchObject({
      status: 'done',
      processed: ADMIN_OPERATION_BATCH + 5,
      changed: ADMIN_OPERATION_BATCH + 5,
    });
    const again = await callApi(ctx, 'POST', '/admin/bulk_operations', admin.adminAuth, body);
    expect(again.statusCode, again.body).toBe(202);
    await ctx.app.services.jobs.runDue();
  });

  it('acts only on the users it counted: one who matches after the start is left alone', async () => {
    const tag = `frozen${Date.now()}`;
    const users = await Promise.all(
      Array.from({ length: 3 }, (_, i) => createUser(ctx, { email: `${tag}-${i}@example.com` })),
    );
    const body = {
      target: 'users',
      filter: { email_contains: tag },
      action: 'suspend',
      reason: 'frozen set',
    };
    const started = await callApi(ctx, 'POST', '/admin/bulk_operations', admin.adminAuth, body);
    const operation = json<{ data: AdminOperation }>(started).data;
    expect(operation.total).toBe(users.length);
    const late = await createUser(ctx, { email: `${tag}-late@example.com` });

    await ctx.app.services.jobs.runDue();
    expect(await ctx.app.services.backOffice.operations.get(operation.id)).toMatchObject({
      status: 'done',
      processed: users.length,
      changed: users.length,
    });
    expect((await callApi(ctx, 'GET', '/auth/me', late)).statusCode).toBe(200);
  });

  it('checks the filter again on the locked rows: a Free user who bought a plan after the batch read them keeps it', async () => {
    const tag = `bought${Date.now()}`;
    const buyer = await createUser(ctx, { email: `${tag}-0@example.com` });
    const other = await createUser(ctx, { email: `${tag}-1@example.com` });
    const started = await callApi(ctx, 'POST', '/admin/bulk_operations', admin.adminAuth, {
      target: 'users',
      filter: { email_contains: tag, tier: 'tier_free' },
      action: 'change_tier',
      tier: 'tier_2',
    });
    const operation = json<{ data: AdminOperation }>(started).data;
    expect(operation.total).toBe(2);
    // The purchase lands between the batch's read of its users and the lock on the buyer's rows (on
    // PostgreSQL another transaction commits it there; bulk-operations.races.pg.test.ts).
    const usersAfter = adminOperationsRepository.usersAfter.bind(adminOperationsRepository);
    const reads = vi
      .spyOn(adminOperationsRepository, 'usersAfter')
      .mockImplementation(async (db, ...rest) => {
        const rows = await usersAfter(db, ...rest);
        await ctx.app.services.subscriptions.grantTier(db, buyer.user.id, 'tier_3');
        return rows;
      });
    try {
      await ctx.app.services.jobs.runDue();
    } finally {
      reads.mockRestore();
    }
    expect(await tierOf(buyer)).toBe('tier_3');
    expect(await tierOf(other)).toBe('tier_2');
    expect(await ctx.app.services.backOffice.operations.get(operation.id)).toMatchObject({
      status: 'done',
      processed: 2,
      changed: 1,
    });
    expect(await auditLogRepository.forSubject(ctx.database.db, buyer.user.id)).toEqual([]);
  });

  it('stops before the next batch once its admin is no longer an admin, and says why (audited)', async () => {
    const tag = `revoked${Date.now()}`;
    const users = await Promise.all(
      Array.from({ length: 3 }, (_, i) => createUser(ctx, { email: `${tag}-${i}@example.com` })),
    );
    const other = await createAdmin(ctx);
    const body = { target: 'users', filter: { email_contains: tag }, action: 'suspend', reason: 'revoked' };
    const started = await callApi(ctx, 'POST', '/admin/bulk_operations', other.adminAuth, body);
    const operation = json<{ data: AdminOperation }>(started).data;
    await ctx.database.db.update(usersTable).set({ admin: false }).where(eq(usersTable.id, other.user.id));

    await ctx.app.services.jobs.runDue();
    expect(await ctx.app.services.backOffice.operations.get(operation.id)).toMatchObject({
      status: 'cancelled',
      processed: 0,
      changed: 0,
      last_error: 'Stopped: the admin who started it is no longer an admin.',
    });
    for (const user of users) expect((await callApi(ctx, 'GET', '/auth/me', user)).statusCode).toBe(200);
    const entries = await auditLogRepository.forSubject(ctx.database.db, operation.id);
    expect(entries.map((e) => e.action)).toContain('admin_operation_stopped');
  });

  it('cancels a queued operation (audited); refuses a finished one (409), an unknown one (404), a non-admin (403)', async () => {
    const tag = `cancel${Date.now()}`;
    const users = await Promise.all(
      Array.from({ length: 3 }, (_, i) => createUser(ctx, { email: `${tag}-${i}@example.com` })),
    );
    const body = { target: 'users', filter: { email_contains: tag }, action: 'suspend', reason: 'cancel me' };
    const started = await callApi(ctx, 'POST', '/admin/bulk_operations', admin.adminAuth, body);
    const operation = json<{ data: AdminOperation }>(started).data;
    const cancelUrl = `/admin/operations/${operation.id}/cancel`;

    expect((await callApi(ctx, 'POST', cancelUrl, firstOf(users))).statusCode).toBe(403);
    const cancelled = await callApi(ctx, 'POST', cancelUrl, admin.adminAuth);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(json<{ data: AdminOperation }>(cancelled).data).toMatchObject({
      status: 'cancelled',
      last_error: `Cancelled by ${admin.user.email}.`,
    });
    await ctx.app.services.jobs.runDue();
    expect(await ctx.app.services.backOffice.operations.get(operation.id)).toMatchObject({
      status: 'cancelled',
      changed: 0,
    });
    for (const user of users) expect((await callApi(ctx, 'GET', '/auth/me', user)).statusCode).toBe(200);
    const entries = await auditLogRepository.forSubject(ctx.database.db, operation.id);
    expect(entries.find((e) => e.action === 'admin_operation_cancelled')).toMatchObject({
      actorId: admin.user.id,
      after: { status: 'cancelled' },
    });

    const again = await callApi(ctx, 'POST', cancelUrl, admin.adminAuth);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({
      error: { code: 'CONFLICT', message: 'That operation has already finished.' },
    });
    const unknown = await callApi(
      ctx,
      'POST',
      '/admin/operations/00000000-0000-4000-8000-000000000000/cancel',
      admin.adminAuth,
    );
    expect(unknown.statusCode).toBe(404);
  });

  it('refuses to start an operation that matches nobody (422 naming the filter), leaving nothing behind', async () => {
    const nobody = `nobody${Date.now()}`;
    const before = await ctx.database.db.select({ n: count() }).from(auditLogs);
    for (const [body, message] of [
      [
        { target: 'users', filter: { email_contains: nobody }, action: 'change_tier', tier: 'tier_2' },
        'No users match these filters: there is nothing to change.',
      ],
      [
        { target: 'users', filter: { email_contains: nobody }, action: 'suspend', reason: 'nobody' },
        'No users match these filters: there is nothing to change.',
      ],
      [
        { target: 'templates', filter: { kind: 'shop_template', owner: nobody }, action: 'unpublish' },
        'No templates match these filters: there is nothing to change.',
      ],
    ] as const) {
      expect(json<{ data: { count: number } }>(await preview(body)).data.count).toBe(0);
      const started = await callApi(ctx, 'POST', '/admin/bulk_operations', admin.adminAuth, body);
      expect(started.statusCode, started.body).toBe(422);
      expect(started.json()).toMatchObject({
        status: 'error',
        error: { code: 'VALIDATION_ERROR', details: [{ field: 'filter', message }] },
      });
    }
    const after = await ctx.database.db.select({ n: count() }).from(auditLogs);
    expect(after[0]?.n).toBe(before[0]?.n);
    const listed = json<{ data: AdminOperation[] }>(
      await callApi(ctx, 'GET', '/admin/bulk_operations', admin.adminAuth),
    ).data;
    expect(listed.filter((o) => JSON.stringify(o.params).includes(nobody))).toEqual([]);
  });

  it('refuses a suspension without a reason and unknown actions with 422', async () => {
    const noReason = await preview({ target: 'users', filter: {}, action: 'suspend' });
    expect(noReason.statusCode).toBe(422);
    const unknown = await preview({ target: 'users', filter: {}, action: 'delete' });
    expect(unknown.statusCode).toBe(422);
  });
});

describe('bulk operations on templates', () => {
  it('unpublishes an owner public templates, survives a restart mid-way, and keeps them for the owner', async () => {
    const owner = await createUser(ctx);
    const templates = [];
    for (let i = 0; i < ADMIN_OPERATION_BATCH + 1; i += 1)
      templates.push(await createTemplate(ctx, { creatorId: owner.user.id, visibility: 'public' }));
    const privateOne = await createTemplate(ctx, { creatorId: owner.user.id, visibility: 'private' });
    const body = {
      target: 'templates',
      filter: { kind: 'item_template', owner: owner.user.email },
      action: 'unpublish',
    };
    expect(json<{ data: { count: number } }>(await preview(body)).data.count).toBe(templates.length);

    const started = await callApi(ctx, 'POST', '/admin/bulk_operations', admin.adminAuth, body);
    const operation = json<{ data: AdminOperation }>(started).data;
    // One batch in this process, then it "dies"; a fresh process's queue picks the job up.
    expect(await ctx.app.services.jobs.runDue(1)).toBe(1);
    const restarted = new JobQueue(ctx.database.db, () => new Date());
    new AdminOperationsService({
      db: ctx.database.db,
      audit: ctx.app.services.audit,
      jobs: restarted,
      mail: ctx.mail,
      appUrl: ctx.config.appUrl,
      unsubscribeLinks: new AnnouncementEmailLinks({
        secret: ctx.jwtSecret ?? '',
        appUrl: ctx.config.appUrl,
      }),
      sessions: { sessionsEnded: () => {} },
      subscriptions: ctx.app.services.subscriptions,
      now: () => new Date(),
    });
    expect(await restarted.runDue()).toBe(1);

    const done = await ctx.app.services.backOffice.operations.get(operation.id);
    expect(done).toMatchObject({ status: 'done', processed: templates.length, changed: templates.length });
    const rows = await ctx.database.db
      .select()
      .from(itemTemplates)
      .where(eq(itemTemplates.creatorId, owner.user.id));
    expect(rows).toHaveLength(templates.length + 1);
    expect(rows.every((row) => row.visibility === 'private')).toBe(true);
    expect(rows.find((row) => row.id === privateOne.id)).toBeDefined();
    for (const template of templates) {
      const entries = await auditLogRepository.forSubject(ctx.database.db, template.id);
      expect(entries.map((e) => e.action)).toEqual(['content_unpublished']);
    }
    expect(await auditLogRepository.forSubject(ctx.database.db, privateOne.id)).toEqual([]);
  });

  it('finds an owner by id or by a piece of their email, and 36 characters that are no id match nothing', async () => {
    const owner = await createUser(ctx);
    await createTemplate(ctx, { creatorId: owner.user.id, visibility: 'public' });
    const count = async (ownerFilter: string, kind = 'item_template') => {
      const answer = await preview({
        target: 'templates',
        filter: { kind, owner: ownerFilter },
        action: 'unpublish',
      });
      expect(answer.statusCode, `${kind} ${ownerFilter}: ${answer.body}`).toBe(200);
      return json<{ data: { count: number } }>(answer).data.count;
    };
    expect(await count(owner.user.id)).toBe(1);
    expect(await count(owner.user.id.toUpperCase())).toBe(1);
    // Shaped like an id to a loose pattern, but not one (they answered 500): read as a piece of an email.
    for (const notAnId of ['a'.repeat(36), '-'.repeat(36), 'f'.repeat(36)]) {
      expect(await count(notAnId)).toBe(0);
      expect(await count(notAnId, 'shop_template')).toBe(0);
    }
  });
});

describe('bulk operations never touch Haversack’s own catalogue', () => {
  const publicUserTemplates = async () => {
    const [row] = await ctx.database.db
      .select({ total: count() })
      .from(itemTemplates)
      .where(
        and(
          eq(itemTemplates.visibility, 'public'),
          sql`${itemTemplates.systemKey} is null`,
          sql`${itemTemplates.deletedAt} is null`,
        ),
      );
    return row?.total ?? 0;
  };
  const publicSystemTemplates = async () => {
    const [row] = await ctx.database.db
      .select({ total: count() })
      .from(itemTemplates)
      .where(and(eq(itemTemplates.visibility, 'public'), sql`${itemTemplates.systemKey} is not null`));
    return row?.total ?? 0;
  };

  it('leaves system templates out of the count and the run of an unpublish with no owner filter', async () => {
    const owner = await createUser(ctx);
    await createTemplate(ctx, { creatorId: owner.user.id, visibility: 'public' });
    const systemBefore = await publicSystemTemplates();
    // The seeded SRD catalogue and coins.
    expect(systemBefore).toBeGreaterThan(0);
    const body = { target: 'templates', filter: { kind: 'item_template' }, action: 'unpublish' };
    const userTemplates = await publicUserTemplates();
    expect(json<{ data: { count: number } }>(await preview(body)).data.count).toBe(userTemplates);

    const started = await callApi(ctx, 'POST', '/admin/bulk_operations', admin.adminAuth, body);
    expect(started.statusCode, started.body).toBe(202);
    const operation = json<{ data: AdminOperation }>(started).data;
    expect(operation.total).toBe(userTemplates);
    // A template that joined the catalogue after the count is checked again under the lock.
    const late = await createTemplate(ctx, { visibility: 'public' });
    await ctx.database.db
      .update(itemTemplates)
      .set({ systemKey: `test:${late.id}` })
      .where(eq(itemTemplates.id, late.id));
    await ctx.app.services.jobs.runDue();

    const done = await ctx.app.services.backOffice.operations.get(operation.id);
    expect(done.status).toBe('done');
    expect(await publicSystemTemplates()).toBe(systemBefore + 1);
    expect(await publicUserTemplates()).toBe(0);
    const unpublished = await ctx.database.db
      .select({ total: count() })
      .from(auditLogs)
      .where(and(eq(auditLogs.action, 'content_unpublished'), eq(auditLogs.targetId, late.id)));
    expect(unpublished[0]?.total).toBe(0);
  });
});
