import type { AdminReport, Report } from '@haversack/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { itemTemplates } from '../../db/schema/items.js';
import { createAdmin, type SignedInAdmin } from '../../test/admin.js';
import { createParty, createTemplate, createUser, type SignedInUser } from '../../test/factories.js';
import { buildTestApp, callApi, json, type TestContext } from '../../test/helper.js';
import { auditLogRepository } from './audit-log.repository.js';
import { moderationRepository } from './moderation.repository.js';

let ctx: TestContext;
let admin: SignedInAdmin;
let reporter: SignedInUser;
let owner: SignedInUser;

beforeAll(async () => {
  ctx = await buildTestApp();
  admin = await createAdmin(ctx);
  reporter = await createUser(ctx);
  owner = await createUser(ctx);
});
afterAll(async () => ctx.close());

const codeOf = (r: { json(): unknown }) => json<{ error: { code: string } }>(r as never).error.code;

async function report(user: SignedInUser, target_type: string, target_id: string, reason = 'Offensive name') {
  return callApi(ctx, 'POST', '/reports', user, { target_type, target_id, reason });
}

async function openReports(): Promise<AdminReport[]> {
  const response = await callApi(ctx, 'GET', '/admin/reports?status=open&per_page=100', admin.adminAuth);
  expect(response.statusCode, response.body).toBe(200);
  return json<{ data: AdminReport[] }>(response).data;
}

describe('POST /reports', () => {
  it('lets any signed-in user report public content once while the report is open', async () => {
    const template = await createTemplate(ctx, { creatorId: owner.user.id, visibility: 'public' });
    const first = await report(reporter, 'item_template', template.id);
    expect(first.statusCode, first.body).toBe(201);
    expect(json<{ data: Report }>(first).data).toMatchObject({ status: 'open', target_id: template.id });

    const again = await report(reporter, 'item_template', template.id);
    expect(again.statusCode).toBe(409);
    // Someone else may report the same thing.
    const other = await createUser(ctx);
    expect((await report(other, 'item_template', template.id)).statusCode).toBe(201);

    const listed = (await openReports()).filter((r) => r.target_id === template.id);
    expect(listed).toHaveLength(2);
    expect(listed[0]).toMatchObject({
      target_name: template.name,
      target_owner_email: owner.user.email,
      target_public: true,
      open_reports_on_target: 2,
    });
  });

  it('answers 404 for private or unknown content, 401 anonymously and 422 without a reason', async () => {
    const secret = await createTemplate(ctx, { creatorId: owner.user.id, visibility: 'private' });
    expect((await report(reporter, 'item_template', secret.id)).statusCode).toBe(404);
    const party = await createParty(ctx, owner, { is_public: false });
    expect((await report(reporter, 'party', party.id)).statusCode).toBe(404);
    const anonymous = await callApi(ctx, 'POST', '/reports', undefined, {
      target_type: 'party',
      target_id: party.id,
      reason: 'x',
    });
    expect(anonymous.statusCode).toBe(401);
    const blank = await report(reporter, 'party', party.id, '  ');
    expect(blank.statusCode).toBe(422);
    expect(codeOf(blank)).toBe('VALIDATION_ERROR');
  });

  it("refuses a report on Haversack's own catalogue, and staff cannot unpublish one made before", async () => {
    const [gold] = await ctx.database.db
      .select()
      .from(itemTemplates)
      .where(eq(itemTemplates.systemKey, 'coin:gp'));
    if (!gold) throw new Error('the seed has no gold piece');
    const refused = await report(reporter, 'item_template', gold.id, 'spam');
    expect(refused.statusCode).toBe(422);
    expect(codeOf(refused)).toBe('VALIDATION_ERROR');

    const earlier = await moderationRepository.insertOpen(ctx.database.db, {
      reporterId: reporter.user.id,
      targetType: 'item_template',
      targetId: gold.id,
      reason: 'spam',
    });
    const unpublish = await callApi(ctx, 'POST', `/admin/reports/${earlier?.id}/unpublish`, admin.adminAuth);
    expect(unpublish.statusCode).toBe(409);
    const [after] = await ctx.database.db.select().from(itemTemplates).where(eq(itemTemplates.id, gold.id));
    expect(after?.visibility).toBe('public');
    const dismissed = await callApi(ctx, 'POST', `/admin/reports/${earlier?.id}/dismiss`, admin.adminAuth);
    expect(dismissed.statusCode).toBe(200);
  });

  it('is rate-limited per user, 20 an hour', async () => {
    const spammer = await createUser(ctx);
    const template = await createTemplate(ctx, { creatorId: owner.user.id, visibility: 'public' });
    const answers = [];
    for (let i = 0; i < 22; i += 1) answers.push(await report(spammer, 'item_template', template.id));
    expect(answers[0]?.statusCode).toBe(201);
    const refused = answers.at(-1);
    expect(refused?.statusCode).toBe(429);
    // The hour the budget is counted over, not the sign-in budgets' quarter of an hour.
    expect(Number(refused?.headers['retry-after'])).toBeGreaterThan(15 * 60);
  });
});

describe('the moderation queue', () => {
  it('shows what was reported: an excerpt of its description, cut at 200 characters, or none', async () => {
    // 199 letters and then a character outside the BMP: the cut must not split it in half.
    const long = `${'a'.repeat(199)}🐉${'b'.repeat(100)}`;
    const wordy = await createTemplate(ctx, { creatorId: owner.user.id, description: long });
    const gm = await createUser(ctx);
    const party = await createParty(ctx, gm, { is_public: true, description: 'Raiders of the lost tomb.' });
    const bare = await createTemplate(ctx, { creatorId: owner.user.id, description: '   ' });
    for (const [type, id] of [
      ['item_template', wordy.id],
      ['party', party.id],
      ['item_template', bare.id],
    ] as const)
      expect((await report(await createUser(ctx), type, id)).statusCode).toBe(201);

    const listed = await openReports();
    const excerptOf = (id: string) => listed.find((r) => r.target_id === id)?.target_excerpt;
    expect(excerptOf(wordy.id)).toBe(`${'a'.repeat(199)}🐉…`);
    expect(excerptOf(party.id)).toBe('Raiders of the lost tomb.');
    expect(excerptOf(bare.id)).toBeNull();
  });

  it('dismisses a report, leaves the content public and audits it', async () => {
    const template = await createTemplate(ctx, { creatorId: owner.user.id, visibility: 'public' });
    const created = json<{ data: Report }>(await report(reporter, 'item_template', template.id)).data;
    const dismissed = await callApi(ctx, 'POST', `/admin/reports/${created.id}/dismiss`, admin.adminAuth);
    expect(dismissed.statusCode, dismissed.body).toBe(200);
    expect(json<{ data: Report }>(dismissed).data.status).toBe('dismissed');
    expect((await openReports()).some((r) => r.id === created.id)).toBe(false);

    const [row] = await ctx.database.db.select().from(itemTemplates).where(eq(itemTemplates.id, template.id));
    expect(row?.visibility).toBe('public');
    const [entry] = await auditLogRepository.forSubject(ctx.database.db, created.id);
    expect(entry).toMatchObject({
      action: 'report_dismissed',
      actorId: admin.user.id,
      before: { status: 'open' },
      after: { status: 'dismissed' },
    });
    // Handled once.
    const twice = await callApi(ctx, 'POST', `/admin/reports/${created.id}/dismiss`, admin.adminAuth);
    expect(twice.statusCode).toBe(409);
    // A reporter may report again once the last report was handled.
    expect((await report(reporter, 'item_template', template.id)).statusCode).toBe(201);
  });

  it('unpublishes a public party: the owner keeps it, private, and every open report on it closes', async () => {
    const gm = await createUser(ctx);
    const party = await createParty(ctx, gm, { is_public: true });
    const first = json<{ data: Report }>(await report(reporter, 'party', party.id)).data;
    const second = json<{ data: Report }>(await report(admin, 'party', party.id, 'Spam')).data;

    const response = await callApi(ctx, 'POST', `/admin/reports/${first.id}/unpublish`, admin.adminAuth);
    expect(response.statusCode, response.body).toBe(200);
    const kept = await ctx.app.services.parties.get(gm.user.id, party.id);
    expect(kept.is_public).toBe(false);
    expect(kept.name).toBe(party.name);
    const open = await openReports();
    expect(open.some((r) => r.id === first.id || r.id === second.id)).toBe(false);

    const [entry] = await auditLogRepository.forSubject(ctx.database.db, party.id);
    expect(entry).toMatchObject({
      action: 'content_unpublished',
      targetType: 'party',
      before: { is_public: true },
      after: { is_public: false },
      details: { report_id: first.id, reports_closed: 2 },
    });
    // No longer public, so no longer reportable.
    expect((await report(reporter, 'party', party.id)).statusCode).toBe(404);
  });

  it('unpublishes a public item template to private, audited with its visibility before and after', async () => {
    const template = await createTemplate(ctx, { creatorId: owner.user.id, visibility: 'public' });
    const created = json<{ data: Report }>(await report(reporter, 'item_template', template.id)).data;
    const response = await callApi(ctx, 'POST', `/admin/reports/${created.id}/unpublish`, admin.adminAuth);
    expect(response.statusCode).toBe(200);
    const [row] = await ctx.database.db.select().from(itemTemplates).where(eq(itemTemplates.id, template.id));
    expect(row).toMatchObject({ visibility: 'private', creatorId: owner.user.id, deletedAt: null });
    const [entry] = await auditLogRepository.forSubject(ctx.database.db, template.id);
    expect(entry).toMatchObject({ before: { visibility: 'public' }, after: { visibility: 'private' } });
    const resolved = await callApi(ctx, 'GET', '/admin/reports?status=unpublished', admin.adminAuth);
    expect(json<{ data: AdminReport[] }>(resolved).data.some((r) => r.id === created.id)).toBe(true);
  });
});
