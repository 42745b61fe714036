import type { AdminOperation } from '@haversack/contracts';
import { count, eq, like } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { users as usersTable } from '../../db/schema/accounts.js';
import { auditLogs } from '../../db/schema/admin.js';
import { adminOperations } from '../../db/schema/back-office.js';
import { jobs } from '../../db/schema/jobs.js';
import type { Mailer, MailMessage } from '../../lib/mailer.js';
import { createAdmin, type SignedInAdmin } from '../../test/admin.js';
import { createUser, type SignedInUser } from '../../test/factories.js';
import { buildTestApp, callApi, json, readMails, type TestContext } from '../../test/helper.js';
import { ADMIN_OPERATION_BATCH, ADMIN_OPERATION_JOB, MASS_MAIL_JOB } from './admin-operations.service.js';
import { auditLogRepository } from './audit-log.repository.js';

/**
 * Mass mail is sent outside any transaction: on PGlite a transaction holds the only connection, so a batch
 * waiting on the mail server held every request of the site. A process that dies mid-batch may send a mail
 * twice but never skips one (docs/decisions.md, "Mass mail and bulk operations").
 */

const SUBJECT = 'News from the guild';

const opened: TestContext[] = [];
const servers: { release(): void }[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) server.release();
  // The restarted apps first: the first one owns the database.
  for (const ctx of opened.reverse()) await ctx.close();
  opened.length = 0;
});

async function app(options: Parameters<typeof buildTestApp>[0] = {}): Promise<TestContext> {
  const ctx = await buildTestApp(options);
  opened.push(ctx);
  return ctx;
}

/**
 * A mail server that takes the account mails at once and the mass mail slowly (`delayMs` each), or takes
 * `answered` of them and then never answers again until released (the process died meanwhile), or refuses
 * the mail it is handed `refused`-th.
 */
function massMailServer(options: { delayMs?: number; answered?: number; refused?: number }) {
  const delivered: MailMessage[] = [];
  const waiting: ((error: Error) => void)[] = [];
  let started = 0;
  const mailer: Mailer = {
    send: async (message) => {
      if (message.subject !== SUBJECT) return;
      started += 1;
      if (started === options.refused) throw new Error('451 4.3.0 mail server busy');
      if (options.answered !== undefined && started > options.answered)
        return new Promise<void>((_, reject) => waiting.push(reject));
      if (options.delayMs) await new Promise((resolve) => setTimeout(resolve, options.delayMs));
      delivered.push(message);
    },
    close: () => {},
  };
  const server = {
    mailer,
    delivered,
    started: () => started,
    release: () => {
      for (const reject of waiting.splice(0)) reject(new Error('the process is gone'));
    },
  };
  servers.push(server);
  return server;
}

async function readers(ctx: TestContext, count: number): Promise<SignedInUser[]> {
  const made: SignedInUser[] = [];
  for (let i = 0; i < count; i += 1) {
    const reader = await createUser(ctx);
    // Mass mail goes only to confirmed addresses.
    await ctx.database.db
      .update(usersTable)
      .set({ emailVerifiedAt: new Date() })
      .where(eq(usersTable.id, reader.user.id));
    made.push(reader);
  }
  return made;
}

async function startMassMail(ctx: TestContext, admin: SignedInAdmin): Promise<AdminOperation> {
  const started = await callApi(ctx, 'POST', '/admin/mass_mails', admin.adminAuth, {
    audience: 'all',
    subject: SUBJECT,
    body: 'The shops restock on their own now.',
  });
  expect(started.statusCode, started.body).toBe(202);
  return json<{ data: AdminOperation }>(started).data;
}

const operationOf = (ctx: TestContext, id: string) => ctx.app.services.backOffice.operations.get(id);

const addressesOf = (list: SignedInUser[]) => list.map((r) => r.user.email.toLowerCase()).sort();

describe('a mass mail batch waiting on the mail server', () => {
  it('holds no other request, and a cancel meanwhile counts the batch and starts no other', async () => {
    const server = massMailServer({ delayMs: 100 });
    const ctx = await app({ mailer: server.mailer });
    const admin = await createAdmin(ctx);
    const mailed = await readers(ctx, ADMIN_OPERATION_BATCH + 1);
    const operation = await startMassMail(ctx, admin);
    expect(operation.total).toBe(mailed.length);

    const batch = ctx.app.services.jobs.runDue(1);
    await vi.waitFor(() => expect(server.started()).toBeGreaterThan(0), { interval: 1 });
    // 25 mails at 100 ms: the batch takes 2.5 s; a request waiting for it would answer after its last mail.
    const me = await callApi(ctx, 'GET', '/auth/me', mailed[0]);
    expect(me.statusCode).toBe(200);
    expect(server.delivered.length).toBeLessThan(ADMIN_OPERATION_BATCH);
    expect(await operationOf(ctx, operation.id)).toMatchObject({ status: 'running', processed: 0 });
    const cancelled = await callApi(ctx, 'POST', `/admin/operations/${operation.id}/cancel`, admin.adminAuth);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(server.delivered.length).toBeLessThan(ADMIN_OPERATION_BATCH);

    expect(await batch).toBe(1);
    // The batch under way was sent and counted; the cancel holds, and no further batch goes.
    expect(server.delivered).toHaveLength(ADMIN_OPERATION_BATCH);
    expect(await operationOf(ctx, operation.id)).toMatchObject({
      status: 'cancelled',
      processed: ADMIN_OPERATION_BATCH,
      changed: ADMIN_OPERATION_BATCH,
    });
    expect(await ctx.app.services.jobs.runDue()).toBe(0);
    expect(server.delivered).toHaveLength(ADMIN_OPERATION_BATCH);
    expect(await ctx.database.db.select().from(jobs).where(like(jobs.key, 'admin_operation:%'))).toEqual([]);
  });
});

describe('a process that dies mid-batch', () => {
  it('leaves no recipient unmailed: the next process sends the batch again, from its first mail', async () => {
    const server = massMailServer({ answered: 3 });
    const first = await app({ mailer: server.mailer });
    const admin = await createAdmin(first);
    const mailed = await readers(first, 6);
    const operation = await startMassMail(first, admin);

    // Three mails handed over, the fourth never answers: the process dies there.
    const dying = first.app.services.jobs.runDue();
    await vi.waitFor(() => expect(server.started()).toBe(4), { interval: 1 });

    if (first.database.kind === 'postgres') {
      // Other processes may share PostgreSQL: the batch's lease keeps them off while it lives, past it
      // (10 min > the 2 min lease) they take it over.
      const atOnce = await app({ database: first.database });
      expect(await atOnce.app.services.jobs.runDue()).toBe(0);
    }
    // PGlite has no other process (the DATA_DIR lock): the next one carries on at once.
    const restarted = await app({
      database: first.database,
      ...(first.database.kind === 'postgres' ? { now: () => new Date(Date.now() + 10 * 60_000) } : {}),
    });
    expect(await restarted.app.services.jobs.runDue()).toBe(1);
    const resent = (await readMails(restarted)).filter((m) => m.subject === SUBJECT);
    // Everyone of the batch, the three already mailed a second time: twice at worst, never skipped.
    expect(resent.map((m) => m.to.toLowerCase()).sort()).toEqual(addressesOf(mailed));
    expect(await operationOf(restarted, operation.id)).toMatchObject({
      status: 'done',
      total: mailed.length,
      processed: mailed.length,
      changed: mailed.length,
    });

    // The dead process's send fails at last: it changes nothing of what the next one recorded.
    server.release();
    await dying;
    expect(server.delivered).toHaveLength(3);
    expect(await operationOf(restarted, operation.id)).toMatchObject({
      status: 'done',
      processed: mailed.length,
      changed: mailed.length,
    });
    expect(await restarted.app.services.jobs.runDue()).toBe(0);
  });
});

describe('a mass mail whose mail server refuses one mail', () => {
  it('records the mails that went, and its retry goes on from the refused one: each reader mailed once', async () => {
    let clockMs = 0;
    const server = massMailServer({ refused: 3 });
    const ctx = await app({ mailer: server.mailer, now: () => new Date(Date.now() + clockMs) });
    const admin = await createAdmin(ctx);
    const mailed = await readers(ctx, 5);
    const operation = await startMassMail(ctx, admin);

    expect(await ctx.app.services.jobs.runDue()).toBe(1);
    expect(server.delivered).toHaveLength(2);
    expect(await operationOf(ctx, operation.id)).toMatchObject({
      status: 'running',
      processed: 2,
      changed: 2,
    });
    const [job] = await ctx.database.db.select().from(jobs).where(like(jobs.key, 'admin_operation:%'));
    expect(job).toMatchObject({ kind: MASS_MAIL_JOB, attempts: 1, lastError: '451 4.3.0 mail server busy' });

    clockMs = 61_000; // its retry, a minute later
    expect(await ctx.app.services.jobs.runDue()).toBe(1);
    expect(server.delivered.map((m) => m.to.toLowerCase()).sort()).toEqual(addressesOf(mailed));
    expect(await operationOf(ctx, operation.id)).toMatchObject({
      status: 'done',
      processed: mailed.length,
      changed: mailed.length,
    });
  });
});

describe('a mass mail queued by an earlier version', () => {
  it('is handed over to the mass mail job and sent outside the transaction', async () => {
    const server = massMailServer({});
    const ctx = await app({ mailer: server.mailer });
    const admin = await createAdmin(ctx);
    const mailed = await readers(ctx, 3);
    const operation = await startMassMail(ctx, admin);
    // Earlier versions queued every operation, mass mail too, as one kind of job.
    await ctx.database.db
      .update(jobs)
      .set({ kind: ADMIN_OPERATION_JOB })
      .where(eq(jobs.key, `${ADMIN_OPERATION_JOB}:${operation.id}`));

    await ctx.app.services.jobs.runDue();
    expect(server.delivered.map((m) => m.to.toLowerCase()).sort()).toEqual(addressesOf(mailed));
    expect(await operationOf(ctx, operation.id)).toMatchObject({
      status: 'done',
      processed: mailed.length,
      changed: mailed.length,
    });
    expect(await ctx.database.db.select().from(jobs).where(like(jobs.key, 'admin_operation:%'))).toEqual([]);
  });
});

/** Turns a reader's announcement emails off as the Preferences page does. */
async function optOut(ctx: TestContext, reader: SignedInUser): Promise<void> {
  const response = await ctx.app.inject({
    method: 'PUT',
    url: '/users/preferences',
    headers: reader.auth,
    payload: { preferences: { announcementEmails: false } },
  });
  expect(response.statusCode, response.body).toBe(200);
}

async function announcementEmailsOf(ctx: TestContext, reader: SignedInUser): Promise<unknown> {
  const response = await ctx.app.inject({ url: '/users/preferences', headers: reader.auth });
  return json<{ data: { preferences: { announcementEmails: unknown } } }>(response).data.preferences
    .announcementEmails;
}

/** A mail's header, its folded lines joined (RFC 5322 §2.2.3). */
function headerOf(raw: string, name: string): string | undefined {
  const head = raw.split(/\r?\n\r?\n/)[0]?.replace(/\r?\n[ \t]+/g, ' ') ?? '';
  return new RegExp(`^${name}: (.*)$`, 'mi').exec(head)?.[1]?.trim();
}

describe('users who turned announcement emails off', () => {
  it('are left out of the count and of the mail, and so is one who turns them off after the count', async () => {
    const ctx = await app();
    const admin = await createAdmin(ctx);
    const [quiet, late, ...others] = await readers(ctx, 4);
    if (!quiet || !late) throw new Error('no readers');
    await optOut(ctx, quiet);
    const mail = { audience: 'all', subject: SUBJECT, body: 'The shops restock on their own now.' };

    const preview = await callApi(ctx, 'POST', '/admin/mass_mails/preview', admin.adminAuth, mail);
    expect(json<{ data: { count: number } }>(preview).data.count).toBe(3);
    const operation = await startMassMail(ctx, admin);
    expect(operation.total).toBe(3);
    // Turned off between the admin's confirmation and the send: still skipped.
    await optOut(ctx, late);

    await ctx.app.services.jobs.runDue();
    const sent = (await readMails(ctx)).filter((m) => m.subject === SUBJECT);
    expect(sent.map((m) => m.to.toLowerCase()).sort()).toEqual(addressesOf(others));
    expect(await operationOf(ctx, operation.id)).toMatchObject({ status: 'done', processed: 2, changed: 2 });
  });

  it('still get a service notice, which the count includes and the audit log records', async () => {
    const ctx = await app();
    const admin = await createAdmin(ctx);
    const mailed = await readers(ctx, 3);
    const [quiet] = mailed;
    if (!quiet) throw new Error('no readers');
    await optOut(ctx, quiet);
    const notice = {
      audience: 'all',
      subject: SUBJECT,
      body: 'Our terms change on the first of the month.',
      service_notice: true,
    };

    const preview = await callApi(ctx, 'POST', '/admin/mass_mails/preview', admin.adminAuth, notice);
    expect(json<{ data: { count: number } }>(preview).data.count).toBe(3);
    const started = await callApi(ctx, 'POST', '/admin/mass_mails', admin.adminAuth, notice);
    expect(started.statusCode, started.body).toBe(202);
    const operation = json<{ data: AdminOperation }>(started).data;
    expect(operation).toMatchObject({ total: 3, params: { service_notice: true } });
    const [entry] = await auditLogRepository.forSubject(ctx.database.db, operation.id);
    expect(entry).toMatchObject({ action: 'mass_mail_started', details: { service_notice: true } });

    await ctx.app.services.jobs.runDue();
    const sent = (await readMails(ctx)).filter((m) => m.subject === SUBJECT);
    expect(sent.map((m) => m.to.toLowerCase()).sort()).toEqual(addressesOf(mailed));
    expect(sent[0]?.raw).toContain(
      'This is a service notice about your account: it goes to every account, even those that turned announcement emails off.',
    );
    expect(sent[0]?.raw).not.toMatch(/e-mail/i);
    // The preference stands: the next ordinary mail leaves the reader out again.
    expect(await announcementEmailsOf(ctx, quiet)).toBe(false);
  });

  it('an ordinary mail is recorded as no service notice', async () => {
    const ctx = await app();
    const admin = await createAdmin(ctx);
    await readers(ctx, 1);
    const operation = await startMassMail(ctx, admin);
    expect(operation.params).toMatchObject({ service_notice: false });
    const [entry] = await auditLogRepository.forSubject(ctx.database.db, operation.id);
    expect(entry).toMatchObject({ details: { service_notice: false } });
  });
});

describe('a mass mail’s unsubscribe link', () => {
  it('is each reader’s own, in the footer and in List-Unsubscribe, and one click turns only theirs off', async () => {
    const ctx = await app();
    const admin = await createAdmin(ctx);
    const [first, second] = await readers(ctx, 2);
    if (!first || !second) throw new Error('no readers');
    await startMassMail(ctx, admin);
    await ctx.app.services.jobs.runDue();
    const sent = (await readMails(ctx)).filter((m) => m.subject === SUBJECT);
    const mailTo = (reader: SignedInUser) => {
      const mail = sent.find((m) => m.to.toLowerCase() === reader.user.email.toLowerCase());
      if (!mail) throw new Error(`no mass mail to ${reader.user.email}`);
      return mail;
    };
    const base = ctx.config.appUrl;

    const raw = mailTo(first).raw;
    expect(headerOf(raw, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    // RFC 3834: no auto-responder answers it.
    expect(headerOf(raw, 'Auto-Submitted')).toBe('auto-generated');
    const listUnsubscribe = headerOf(raw, 'List-Unsubscribe') ?? '';
    const oneClick = /^<([^>]+)>$/.exec(listUnsubscribe)?.[1] ?? '';
    expect(oneClick.startsWith(`${base}/api/v1/announcement_emails/one_click?token=`)).toBe(true);
    const [text = '', html = ''] = raw.split(/Content-Type: text\/html/);
    const page = new RegExp(`${base.replace(/[.]/g, '\\.')}/unsubscribe\\?token=[^\\s"<]+`);
    const pageLink = page.exec(text)?.[0] ?? '';
    expect(text).toContain(`Unsubscribe from announcements by email: ${pageLink}`);
    expect(html).toContain(
      `<a href="${pageLink}" style="color:#555">Unsubscribe from announcements by email</a>`,
    );
    // The product writes "email" (spec/01: "Please enter a valid email address"), as the account mails do.
    expect(raw).not.toMatch(/e-mail/i);
    // The two links carry the same token; the other reader's is another.
    const token = new URL(pageLink).searchParams.get('token');
    expect(new URL(oneClick).searchParams.get('token')).toBe(token);
    const otherOneClick = /<([^>]+)>/.exec(headerOf(mailTo(second).raw, 'List-Unsubscribe') ?? '')?.[1];
    expect(otherOneClick).toBeDefined();
    expect(otherOneClick).not.toBe(oneClick);

    // What a mail provider sends (RFC 8058 §3.2): signed out, a form body, the token in the URL.
    const clicked = await ctx.app.inject({
      method: 'POST',
      url: oneClick.slice(base.length),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(clicked.statusCode, clicked.body).toBe(200);
    expect(json(clicked)).toMatchObject({ status: 'success', data: { announcement_emails: false } });
    expect(await announcementEmailsOf(ctx, first)).toBe(false);
    expect(await announcementEmailsOf(ctx, second)).toBe(true);
  });

  it('is in no account mail, which still reaches who turned announcement emails off', async () => {
    const ctx = await app();
    const [quiet] = await readers(ctx, 1);
    if (!quiet) throw new Error('no readers');
    await optOut(ctx, quiet);
    const forgot = await callApi(ctx, 'POST', '/auth/forgot_password', undefined, {
      email: quiet.user.email,
    });
    expect(forgot.statusCode, forgot.body).toBe(200);
    const mails = (await readMails(ctx)).filter((m) => m.to.toLowerCase() === quiet.user.email.toLowerCase());
    // The verification mail of the sign-up and the password reset.
    expect(mails.length).toBe(2);
    for (const mail of mails) {
      expect(headerOf(mail.raw, 'List-Unsubscribe')).toBeUndefined();
      expect(headerOf(mail.raw, 'List-Unsubscribe-Post')).toBeUndefined();
      expect(headerOf(mail.raw, 'Auto-Submitted')).toBe('auto-generated');
      expect(mail.raw).not.toContain('/unsubscribe?token=');
      expect(mail.raw).not.toMatch(/e-mail/i);
    }
  });
});

describe('a mass mail that would reach nobody', () => {
  it('is refused with 422 on its audience, leaving no operation, job, audit entry or mail behind', async () => {
    const ctx = await app();
    const admin = await createAdmin(ctx);
    const [quiet] = await readers(ctx, 1);
    if (!quiet) throw new Error('no readers');
    await optOut(ctx, quiet);
    const { db } = ctx.database;
    const rowsLeft = async () => ({
      operations: (await db.select({ n: count() }).from(adminOperations))[0]?.n,
      audit: (await db.select({ n: count() }).from(auditLogs))[0]?.n,
      jobs: (await db.select({ n: count() }).from(jobs))[0]?.n,
    });
    const before = await rowsLeft();
    const message = 'Nobody in this audience would receive this mail: no mail would be sent.';

    // Nobody holds the top tier; the one reader of "all" turned announcement emails off.
    for (const audience of ['tier_3', 'all']) {
      const mail = { audience, subject: SUBJECT, body: 'Nobody will read this.' };
      const preview = await callApi(ctx, 'POST', '/admin/mass_mails/preview', admin.adminAuth, mail);
      expect(json<{ data: { count: number } }>(preview).data.count, audience).toBe(0);
      const started = await callApi(ctx, 'POST', '/admin/mass_mails', admin.adminAuth, mail);
      expect(started.statusCode, started.body).toBe(422);
      expect(started.json()).toMatchObject({
        status: 'error',
        error: { code: 'VALIDATION_ERROR', details: [{ field: 'audience', message }] },
      });
    }

    expect(await rowsLeft()).toEqual(before);
    await ctx.app.services.jobs.runDue();
    expect((await readMails(ctx)).filter((m) => m.subject === SUBJECT)).toEqual([]);
  });
});
