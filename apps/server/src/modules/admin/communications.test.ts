import { type AdminOperation, type Announcement, announcementMessages } from '@haversack/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users as usersTable } from '../../db/schema/accounts.js';
import { createAdmin, type SignedInAdmin } from '../../test/admin.js';
import { createUser, type SignedInUser, upgrade } from '../../test/factories.js';
import { buildTestApp, callApi, json, readMails, type TestContext } from '../../test/helper.js';
import { ADMIN_OPERATION_BATCH } from './admin-operations.service.js';
import { announcementsRepository } from './announcements.repository.js';
import { auditLogRepository } from './audit-log.repository.js';

let ctx: TestContext;
let admin: SignedInAdmin;
let clockOffsetMs = 0;
const HOUR = 3_600_000;

beforeAll(async () => {
  ctx = await buildTestApp({ now: () => new Date(Date.now() + clockOffsetMs) });
  admin = await createAdmin(ctx);
});
afterAll(async () => ctx.close());

/** Mass mail goes only to confirmed addresses: the readers of these tests confirm theirs. */
async function verified(user: SignedInUser): Promise<SignedInUser> {
  await ctx.database.db
    .update(usersTable)
    .set({ emailVerifiedAt: new Date() })
    .where(eq(usersTable.id, user.user.id));
  return user;
}

const iso = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString();

async function announce(body: Record<string, unknown>): Promise<Announcement> {
  const response = await callApi(ctx, 'POST', '/admin/announcements', admin.adminAuth, body);
  expect(response.statusCode, response.body).toBe(201);
  return json<{ data: Announcement }>(response).data;
}

async function bannersOf(user: SignedInUser): Promise<string[]> {
  const response = await callApi(ctx, 'GET', '/announcements', user);
  expect(response.statusCode, response.body).toBe(200);
  return json<{ data: Announcement[] }>(response).data.map((a) => a.title);
}

describe('announcements', () => {
  it('shows a banner to every user within its window only, until each user dismisses it', async () => {
    const now = await announce({
      title: 'Maintenance tonight',
      body: 'Down 22:00-23:00',
      level: 'warning',
      starts_at: iso(-HOUR),
      ends_at: iso(HOUR),
    });
    await announce({ title: 'Future news', starts_at: iso(2 * HOUR) });
    // Published hours ago (the API refuses an end that has passed), ended since.
    await announcementsRepository.insert(ctx.database.db, {
      title: 'Old news',
      body: '',
      level: 'info',
      startsAt: new Date(iso(-3 * HOUR)),
      endsAt: new Date(iso(-2 * HOUR)),
      createdById: admin.user.id,
    });
    const alice = await createUser(ctx);
    const bob = await createUser(ctx);
    expect(await bannersOf(alice)).toEqual(['Maintenance tonight']);

    const dismissed = await callApi(ctx, 'POST', `/announcements/${now.id}/dismiss`, alice);
    expect(dismissed.statusCode).toBe(204);
    expect(await bannersOf(alice)).toEqual([]);
    expect(await bannersOf(bob)).toEqual(['Maintenance tonight']);

    clockOffsetMs = 2.5 * HOUR;
    try {
      expect(await bannersOf(bob)).toEqual(['Future news']);
    } finally {
      clockOffsetMs = 0;
    }
    const [entry] = await auditLogRepository.forSubject(ctx.database.db, now.id);
    expect(entry).toMatchObject({
      action: 'announcement_created',
      actorId: admin.user.id,
      after: { title: 'Maintenance tonight', level: 'warning' },
    });
  });

  it('refuses an end before the start (422) and anonymous readers (401); deletes with an audit entry', async () => {
    const bad = await callApi(ctx, 'POST', '/admin/announcements', admin.adminAuth, {
      title: 'x',
      starts_at: iso(HOUR),
      ends_at: iso(0),
    });
    expect(bad.statusCode).toBe(422);
    // One that has already ended would never show.
    const ended = await callApi(ctx, 'POST', '/admin/announcements', admin.adminAuth, {
      title: 'Yesterday',
      starts_at: iso(-2 * HOUR),
      ends_at: iso(-HOUR),
    });
    expect(ended.statusCode).toBe(422);
    expect(ended.json()).toMatchObject({
      error: { details: [{ field: 'ends_at', message: announcementMessages.endPassed }] },
    });
    expect((await callApi(ctx, 'GET', '/admin/announcements', admin.adminAuth)).body).not.toContain(
      'Yesterday',
    );
    expect((await callApi(ctx, 'GET', '/announcements')).statusCode).toBe(401);
    const gone = await announce({ title: 'Soon gone', starts_at: iso(-HOUR) });
    const removed = await callApi(ctx, 'DELETE', `/admin/announcements/${gone.id}`, admin.adminAuth);
    expect(removed.statusCode).toBe(204);
    const user = await createUser(ctx);
    expect(await bannersOf(user)).not.toContain('Soon gone');
    const [entry] = await auditLogRepository.forSubject(ctx.database.db, gone.id);
    expect(entry).toMatchObject({ action: 'announcement_deleted', before: { title: 'Soon gone' } });
  });

  // Year 0, or a time zone that carries 9999-12-31 into year 10000, once failed in the database as a 500.
  it('refuses times outside 1000-01-01 to 9998-12-31 with 422 naming the field', async () => {
    for (const [field, times] of [
      ['starts_at', { starts_at: '0000-01-01T00:00:00Z' }],
      ['starts_at', { starts_at: '9999-12-31T23:00:00-14:00' }],
      ['ends_at', { starts_at: iso(0), ends_at: '9999-12-31T23:59:59Z' }],
    ] as const) {
      const refused = await callApi(ctx, 'POST', '/admin/announcements', admin.adminAuth, {
        title: 'Far away',
        ...times,
      });
      expect([field, refused.statusCode, refused.json()]).toEqual([
        field,
        422,
        {
          status: 'error',
          error: expect.objectContaining({
            code: 'VALIDATION_ERROR',
            details: [{ field, message: `${field} must be between 1000-01-01 and 9998-12-31` }],
          }),
        },
      ]);
    }
    const last = await announce({ title: 'Last day', starts_at: '9998-12-31T23:59:59-14:00' });
    expect(last.starts_at).toBe('9999-01-01T13:59:59.000Z');
  });

  // An outside review: a title of zero-width spaces showed every user an empty banner.
  it('refuses a title that shows blank or takes more than one line, with 422 naming the title', async () => {
    for (const [title, message] of [
      ['\u200B\u200B\u200B', 'Give the announcement a title'],
      ['\u00AD\u2060 \uFEFF', 'Give the announcement a title'],
      ['Maintenance\r\ntonight', 'A title must fit on one line: no line breaks or tabs'],
    ]) {
      const refused = await callApi(ctx, 'POST', '/admin/announcements', admin.adminAuth, {
        title,
        starts_at: iso(0),
      });
      expect([JSON.stringify(title), refused.statusCode, refused.json()]).toEqual([
        JSON.stringify(title),
        422,
        {
          status: 'error',
          error: expect.objectContaining({
            code: 'VALIDATION_ERROR',
            details: [{ field: 'title', message }],
          }),
        },
      ]);
    }
  });
});

describe('mass mail', () => {
  it('mails one tier in batches in the background, with progress, into DATA_DIR/mail', async () => {
    const readers = await Promise.all(
      Array.from({ length: ADMIN_OPERATION_BATCH + 2 }, async () => verified(await createUser(ctx))),
    );
    for (const reader of readers) await upgrade(ctx, reader, 'tier_1');
    const others = await verified(await createUser(ctx));
    // Never confirmed the address: left out of the count and of the mail.
    const unconfirmed = await createUser(ctx);
    await upgrade(ctx, unconfirmed, 'tier_1');

    const started = await callApi(ctx, 'POST', '/admin/mass_mails', admin.adminAuth, {
      audience: 'tier_1',
      subject: 'New features for Adventurers',
      body: 'Hello!\n\nShops now restock on their own.',
    });
    expect(started.statusCode, started.body).toBe(202);
    const operation = json<{ data: AdminOperation }>(started).data;
    expect(operation).toMatchObject({
      kind: 'mass_mail',
      status: 'queued',
      total: readers.length,
      processed: 0,
    });

    const progress = async () => {
      const response = await callApi(ctx, 'GET', `/admin/operations/${operation.id}`, admin.adminAuth);
      return json<{ data: AdminOperation }>(response).data;
    };
    expect(await ctx.app.services.jobs.runDue(1)).toBe(1);
    expect(await progress()).toMatchObject({ status: 'running', processed: ADMIN_OPERATION_BATCH });
    await ctx.app.services.jobs.runDue();
    expect(await progress()).toMatchObject({
      status: 'done',
      processed: readers.length,
      changed: readers.length,
    });

    const mails = (await readMails(ctx)).filter((m) => m.subject === 'New features for Adventurers');
    expect(mails.map((m) => m.to.toLowerCase()).sort()).toEqual(
      readers.map((r) => r.user.email.toLowerCase()).sort(),
    );
    expect(mails.some((m) => m.to.toLowerCase() === others.user.email.toLowerCase())).toBe(false);
    expect(mails.some((m) => m.to.toLowerCase() === unconfirmed.user.email.toLowerCase())).toBe(false);
    expect(mails[0]?.raw).toContain('Shops now restock on their own.');

    const [entry] = await auditLogRepository.forSubject(ctx.database.db, operation.id);
    expect(entry).toMatchObject({ action: 'mass_mail_started', after: { total: readers.length } });
    const listed = await callApi(ctx, 'GET', '/admin/mass_mails', admin.adminAuth);
    expect(json<{ data: AdminOperation[] }>(listed).data[0]?.id).toBe(operation.id);
  });

  // Content review, finding 9: the mail was the admin's text alone, and a long word could widen it.
  it('says who sends it and why the reader gets it, and wraps a long unbroken word', async () => {
    const reader = await verified(await createUser(ctx));
    await upgrade(ctx, reader, 'tier_2');
    const subject = `Footer ${Date.now()}`;
    const longWord = `https://status.haversack.example.com/${'x'.repeat(200)}`;
    const started = await callApi(ctx, 'POST', '/admin/mass_mails', admin.adminAuth, {
      audience: 'tier_2',
      subject,
      body: `Hello!\n\nSee ${longWord}`,
    });
    expect(started.statusCode, started.body).toBe(202);
    await ctx.app.services.jobs.runDue();
    const mail = (await readMails(ctx)).find(
      (m) => m.subject === subject && m.to.toLowerCase() === reader.user.email.toLowerCase(),
    );
    if (!mail) throw new Error('no mass mail to the reader');
    const footer = `From the Haversack team. You receive this because you have a Haversack account at ${ctx.config.appUrl}.`;
    const [text = '', html = ''] = mail.raw.split(/Content-Type: text\/html/);
    // "-- ", with its space: the signature separator mail clients know.
    expect(text).toContain(`See ${longWord}\n\n-- \n${footer}`);
    expect(html).toContain(`<p style="font-size:13px;color:#555">${footer}</p>`);
    expect(html).toMatch(/<body style="[^"]*overflow-wrap:anywhere;word-break:break-word/);
  });

  it('makes paragraphs of blank lines however the body ends its lines (CRLF from an API client)', async () => {
    const reader = await verified(await createUser(ctx));
    await upgrade(ctx, reader, 'tier_1');
    const subject = `Line ends ${Date.now()}`;
    const started = await callApi(ctx, 'POST', '/admin/mass_mails', admin.adminAuth, {
      audience: 'tier_1',
      subject,
      body: 'First paragraph.\r\n\r\nSecond paragraph,\r\nits second line.',
    });
    expect(started.statusCode, started.body).toBe(202);
    await ctx.app.services.jobs.runDue();
    const mail = (await readMails(ctx)).find(
      (m) => m.subject === subject && m.to.toLowerCase() === reader.user.email.toLowerCase(),
    );
    if (!mail) throw new Error('no mass mail to the reader');
    const html = mail.raw.split(/Content-Type: text\/html/)[1] ?? '';
    expect(html).toContain('<p>First paragraph.</p><p>Second paragraph,<br>its second line.</p>');
  });

  it('counts the recipients first, and refuses the same mail sent twice at once (409) until it is done', async () => {
    const readers = await Promise.all(Array.from({ length: 3 }, async () => verified(await createUser(ctx))));
    for (const reader of readers) await upgrade(ctx, reader, 'tier_3');
    const mail = { audience: 'tier_3', subject: `Twice ${Date.now()}`, body: 'Only once, please.' };
    const counted = await callApi(ctx, 'POST', '/admin/mass_mails/preview', admin.adminAuth, mail);
    expect(counted.statusCode, counted.body).toBe(200);
    const recipients = json<{ data: { count: number } }>(counted).data.count;
    expect(recipients).toBeGreaterThanOrEqual(readers.length);

    const sent = await Promise.all(
      Array.from({ length: 4 }, () => callApi(ctx, 'POST', '/admin/mass_mails', admin.adminAuth, mail)),
    );
    expect(sent.map((r) => r.statusCode).sort()).toEqual([202, 409, 409, 409]);
    const refused = sent.find((r) => r.statusCode === 409);
    expect(refused?.json()).toMatchObject({
      status: 'error',
      error: { code: 'CONFLICT', message: 'The same operation is already running: wait for it to finish.' },
    });
    const first = sent.find((r) => r.statusCode === 202);
    if (!first) throw new Error('none sent');
    const accepted = json<{ data: AdminOperation }>(first).data;
    expect(accepted.total).toBe(recipients);
    // Another mail is another operation.
    const other = await callApi(ctx, 'POST', '/admin/mass_mails', admin.adminAuth, {
      ...mail,
      body: 'Other',
    });
    expect(other.statusCode).toBe(202);

    await ctx.app.services.jobs.runDue();
    const mails = (await readMails(ctx)).filter((m) => m.subject === mail.subject);
    expect(mails).toHaveLength(recipients * 2);
    const onceEach = new Set(mails.filter((m) => m.raw.includes('Only once')).map((m) => m.to.toLowerCase()));
    expect(onceEach.size).toBe(recipients);
    expect(mails.filter((m) => m.raw.includes('Only once'))).toHaveLength(recipients);
    // Finished, it may be sent again.
    const again = await callApi(ctx, 'POST', '/admin/mass_mails', admin.adminAuth, mail);
    expect(again.statusCode, again.body).toBe(202);
    await ctx.app.services.jobs.runDue();
  });

  it('refuses an unknown audience with 422 and queues nothing', async () => {
    const response = await callApi(ctx, 'POST', '/admin/mass_mails', admin.adminAuth, {
      audience: 'tier_9',
      subject: 's',
      body: 'b',
    });
    expect(response.statusCode).toBe(422);
    expect(await ctx.app.services.jobs.runDue()).toBe(0);
  });

  // An outside review: a subject with CR/LF went into every mail's Subject header as it was.
  it('refuses a subject that shows blank or takes more than one line, and queues nothing', async () => {
    for (const [subject, message] of [
      ['News\r\nBcc: everyone@example.com', 'A subject must fit on one line: no line breaks or tabs'],
      ['News\tof the week', 'A subject must fit on one line: no line breaks or tabs'],
      ['\u200B\u200C\u200D', 'Write a subject'],
    ]) {
      for (const url of ['/admin/mass_mails/preview', '/admin/mass_mails']) {
        const refused = await callApi(ctx, 'POST', url, admin.adminAuth, {
          audience: 'all',
          subject,
          body: 'b',
        });
        expect([url, JSON.stringify(subject), refused.statusCode, refused.json()]).toEqual([
          url,
          JSON.stringify(subject),
          422,
          {
            status: 'error',
            error: expect.objectContaining({
              code: 'VALIDATION_ERROR',
              details: [{ field: 'subject', message }],
            }),
          },
        ]);
      }
    }
    expect(await ctx.app.services.jobs.runDue()).toBe(0);
  });
});
