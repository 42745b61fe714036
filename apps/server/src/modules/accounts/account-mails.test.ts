import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { eq, like } from 'drizzle-orm';
import pino from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { emailTokens, users } from '../../db/schema/accounts.js';
import { jobs } from '../../db/schema/jobs.js';
import { jobsRepository } from '../../jobs/job-queue.js';
import type { Mailer, MailMessage } from '../../lib/mailer.js';
import { hashToken } from '../../lib/secrets.js';
import { createUser } from '../../test/factories.js';
import { buildTestApp, json, linkFromMail, readMails, type TestContext } from '../../test/helper.js';

/**
 * Crash review F2: a mail the user was told about must not be lost when the process dies after the answer.
 * Account mails are jobs written with their link (account-mails.ts); these tests stop the first process
 * before its mail leaves and start a second app on the same database, as a restart would.
 */

const opened: TestContext[] = [];
/** Mail servers that never answered: they let go once a test is over, so that its first process closes. */
const hanging: Mailer[] = [];
afterEach(async () => {
  for (const mailer of hanging.splice(0)) mailer.close();
  // The restarted apps first: the first one owns the database.
  for (const ctx of opened.reverse()) await ctx.close();
  opened.length = 0;
});

async function app(options: Parameters<typeof buildTestApp>[0] = {}): Promise<TestContext> {
  const ctx = await buildTestApp(options);
  opened.push(ctx);
  return ctx;
}

/** A mail server that takes every mail and never answers, until released (the process died meanwhile). */
function hangingMailer() {
  const waiting: ((error: Error) => void)[] = [];
  const mailer: Mailer = {
    send: () => new Promise<void>((_, reject) => waiting.push(reject)),
    close: () => {
      for (const reject of waiting) reject(new Error('the process is gone'));
    },
  };
  hanging.push(mailer);
  return { mailer, sent: () => waiting.length };
}

const accountMailJobs = (ctx: TestContext) =>
  ctx.database.db.select().from(jobs).where(like(jobs.key, 'account_mail:%'));

const resetMails = async (ctx: TestContext, to: string) =>
  (await readMails(ctx)).filter((m) => m.to === to && m.subject === 'Reset your Haversack password');

async function resetWith(ctx: TestContext, link: string) {
  const token = link.split('/').at(-1) ?? '';
  return ctx.app.inject({
    method: 'POST',
    url: '/api/v1/auth/reset_password',
    payload: { token, password: 'NewPassword9', password_confirmation: 'NewPassword9' },
  });
}

describe('account mails survive the process that answered', () => {
  it('sends, after a restart, a reset mail committed but never handed over (the send never ran)', async () => {
    const jwtSecret = randomBytes(32).toString('hex');
    const first = await app({ jwtSecret });
    const user = await createUser(first);
    await readMails(first);
    // The process dies right after answering: the send it would have started never runs.
    const runSoon = vi.spyOn(first.app.services.jobs, 'runSoon').mockImplementation(() => {});
    const answer = await first.app.inject({
      method: 'POST',
      url: '/api/v1/auth/forgot_password',
      payload: { email: user.user.email },
    });
    expect(answer.statusCode).toBe(200);
    expect(runSoon).toHaveBeenCalledTimes(1);
    expect(await resetMails(first, user.user.email)).toHaveLength(0);

    const restarted = await app({ database: first.database, jwtSecret });
    expect(await restarted.app.services.jobs.runDue()).toBe(1);
    expect(await resetMails(restarted, user.user.email)).toHaveLength(1);
    // Exactly once: sent and gone.
    expect(await restarted.app.services.jobs.runDue()).toBe(0);
    expect(await accountMailJobs(restarted)).toHaveLength(0);
    expect(await resetMails(restarted, user.user.email)).toHaveLength(1);
    // And the link works.
    const link = await linkFromMail(restarted, user.user.email, 'reset-password');
    expect((await resetWith(restarted, link)).statusCode).toBe(200);
  });

  it('sends, after a restart, a reset mail whose process died while handing it over', async () => {
    const jwtSecret = randomBytes(32).toString('hex');
    const server = hangingMailer();
    const first = await app({ jwtSecret, mailer: server.mailer });
    // Registered through the service, not the factory: the factory waits for the mail, which never leaves.
    const suffix = randomBytes(4).toString('hex');
    const user = await first.app.services.accounts.register(
      {
        email: `stuck-${suffix}@example.com`,
        username: `stuck_${suffix}`,
        password: 'Dragons1',
        password_confirmation: 'Dragons1',
      },
      {},
    );
    const answer = await first.app.inject({
      method: 'POST',
      url: '/api/v1/auth/forgot_password',
      payload: { email: user.user.email },
    });
    expect(answer.statusCode).toBe(200);
    await vi.waitFor(() => expect(server.sent()).toBe(2)); // the verification and the reset, both stuck
    // While it lives, the process's own poll does not send them a second time.
    expect(await first.app.services.jobs.runDue()).toBe(0);
    expect(server.sent()).toBe(2);

    if (first.database.kind === 'postgres') {
      // Other processes may share PostgreSQL: the dead one's lease holds its mails, past it (10 min > the
      // 2 min lease) they go.
      const atOnce = await app({ database: first.database, jwtSecret });
      expect(await atOnce.app.services.jobs.runDue()).toBe(0);
    }
    // PGlite has no other process (the DATA_DIR lock): the next one sends at once.
    const restarted = await app({
      database: first.database,
      jwtSecret,
      ...(first.database.kind === 'postgres' ? { now: () => new Date(Date.now() + 10 * 60_000) } : {}),
    });
    expect(await restarted.app.services.jobs.runDue()).toBe(2);
    expect(await resetMails(restarted, user.user.email)).toHaveLength(1);
    expect(await accountMailJobs(restarted)).toHaveLength(0);
    const link = await linkFromMail(restarted, user.user.email, 'reset-password');
    expect((await resetWith(restarted, link)).statusCode).toBe(200);
  });

  it('queues nothing for a request rolled back', async () => {
    const ctx = await app();
    const email = `rolled-${randomBytes(4).toString('hex')}@example.com`;
    await expect(
      ctx.app.services.accounts.registerExternal(
        { email, wantedUsername: 'rolled_back', emailVerified: false, emailTakenMessage: 'taken' },
        {},
        async () => {
          throw new Error('the provider link failed');
        },
      ),
    ).rejects.toThrow('the provider link failed');
    expect(await ctx.database.db.select().from(users).where(eq(users.email, email))).toHaveLength(0);
    expect(await accountMailJobs(ctx)).toHaveLength(0);
    expect(await ctx.app.services.jobs.runDue()).toBe(0);
    expect((await readMails(ctx)).filter((m) => m.to === email)).toHaveLength(0);
  });

  it('keeps no link in the job: only the id of its hashed row, and nothing of it in the log', async () => {
    const jwtSecret = randomBytes(32).toString('hex');
    const logged: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, callback) {
        logged.push(String(chunk));
        callback();
      },
    });
    const first = await app({ jwtSecret, logger: pino({ level: 'debug' }, sink) });
    const user = await createUser(first);
    await readMails(first);
    vi.spyOn(first.app.services.jobs, 'runSoon').mockImplementation(() => {});
    await first.app.inject({
      method: 'POST',
      url: '/api/v1/auth/forgot_password',
      payload: { email: user.user.email },
    });
    const [job] = await accountMailJobs(first);
    expect(job).toBeDefined();
    expect(Object.keys(job?.payload ?? {})).toEqual(['email_token_id']);

    const restarted = await app({ database: first.database, jwtSecret });
    await restarted.app.services.jobs.runDue();
    const token = (await linkFromMail(restarted, user.user.email, 'reset-password')).split('/').at(-1) ?? '';
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(JSON.stringify(job)).not.toContain(token);
    const [stored] = await first.database.db
      .select()
      .from(emailTokens)
      .where(eq(emailTokens.id, String(job?.payload.email_token_id)));
    expect(stored?.tokenHash).toBe(hashToken(token));
    expect(logged.join('')).not.toContain(token);
  });
});

describe('a failed account mail', () => {
  it('is retried as the queue retries and listed as failed meanwhile', async () => {
    let clockMs = 0;
    let refusals = 1;
    const written: MailMessage[] = [];
    const flaky: Mailer = {
      send: async (message) => {
        if (refusals > 0) {
          refusals -= 1;
          throw new Error('451 4.3.0 mail server busy');
        }
        written.push(message);
      },
      close: () => {},
    };
    const ctx = await app({ mailer: flaky, now: () => new Date(Date.now() + clockMs) });
    const email = `flaky-${randomBytes(4).toString('hex')}@example.com`;
    const registered = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/auth/register',
      payload: {
        user: {
          email,
          username: `flaky_${randomBytes(3).toString('hex')}`,
          password: 'Dragons1',
          password_confirmation: 'Dragons1',
        },
      },
    });
    expect(registered.statusCode, registered.body).toBe(201);
    await readMails(ctx); // waits for what this process is handing over

    const now = new Date(Date.now() + clockMs);
    const failed = await jobsRepository.list(ctx.database.db, 'failed', now, { limit: 50, offset: 0 });
    const job = failed.rows.find((row) => row.key.startsWith('account_mail:'));
    expect(job).toMatchObject({ attempts: 1, lastError: '451 4.3.0 mail server busy' });
    expect(written).toHaveLength(0);
    // Not due before its retry; due after it (1 minute for a first failure).
    expect(await ctx.app.services.jobs.runDue()).toBe(0);
    clockMs = 61_000;
    expect(await ctx.app.services.jobs.runDue()).toBe(1);
    expect(written.map((m) => [m.to, m.subject])).toEqual([
      [email, 'Confirm your email address for Haversack'],
    ]);
    expect(await accountMailJobs(ctx)).toHaveLength(0);
    const verify = written[0]?.link ?? '';
    const token = new URL(verify).searchParams.get('token') ?? '';
    const verified = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/auth/verify_email',
      payload: { token },
    });
    expect(json<{ data: { user: { email_verified: boolean } } }>(verified).data.user.email_verified).toBe(
      true,
    );
  });
});
