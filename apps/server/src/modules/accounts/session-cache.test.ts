import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../app.js';
import { loadConfig } from '../../config.js';
import type { DatabaseHandle } from '../../db/client.js';
import { authSessions, users } from '../../db/schema/accounts.js';
import { userWritten } from '../../db/user-writes.js';
import { MailQueue } from '../../lib/mail-queue.js';
import { createMailer } from '../../lib/mailer.js';
import { createAdmin } from '../../test/admin.js';
import { createUser, type SignedInUser } from '../../test/factories.js';
import { callApi, openTestDatabase, type TestContext } from '../../test/helper.js';
import { setAdminFlag } from '../admin/admin-flag.js';
import { accountsRepository, type UserRow } from './accounts.repository.js';
import { SESSION_CACHE_MAX_AGE_MS, SessionCache } from './session-cache.js';

const userRow = (id: string) => ({ id }) as UserRow;
const sessionIdOf = (user: SignedInUser): string =>
  JSON.parse(Buffer.from(user.token.split('.')[1] ?? '', 'base64url').toString()).sid;

describe('SessionCache', () => {
  const listening = () => {
    const cache = new SessionCache();
    cache.setListening(true);
    return cache;
  };

  it('keeps a live session and answers it until the user changes', async () => {
    const cache = listening();
    const found = await cache.load('s1', 'u1', async () => ({ user: userRow('u1'), live: true }));
    expect(found?.live).toBe(true);
    expect(cache.get('s1', 'u1')?.id).toBe('u1');
    // The same session presented for another user is never answered.
    expect(cache.get('s1', 'u2')).toBeUndefined();
    await cache.load('s1', 'u1', async () => ({ user: userRow('u1'), live: true }));
    cache.userChanged('u1');
    expect(cache.get('s1', 'u1')).toBeUndefined();
  });

  it('never keeps a revoked session, nor anything while it cannot hear other processes', async () => {
    const cache = listening();
    await cache.load('s1', 'u1', async () => ({ user: userRow('u1'), live: false }));
    expect(cache.get('s1', 'u1')).toBeUndefined();
    cache.setListening(false);
    await cache.load('s2', 'u1', async () => ({ user: userRow('u1'), live: true }));
    expect(cache.get('s2', 'u1')).toBeUndefined();
    cache.setListening(true);
    await cache.load('s2', 'u1', async () => ({ user: userRow('u1'), live: true }));
    expect(cache.size).toBe(1);
    cache.setListening(false);
    expect(cache.get('s2', 'u1')).toBeUndefined();
  });

  it('drops a read that a change overtook, and reads of a user whose write has not ended', async () => {
    const cache = listening();
    await cache.load('s1', 'u1', async () => {
      // The row was read before a revocation that commits while this read is still on its way.
      cache.userChanged('u1');
      return { user: userRow('u1'), live: true };
    });
    expect(cache.get('s1', 'u1')).toBeUndefined();

    cache.changed('u1');
    await cache.load('s1', 'u1', async () => ({ user: userRow('u1'), live: true }));
    expect(cache.get('s1', 'u1')).toBeUndefined();
    cache.settled('u1');
    await cache.load('s1', 'u1', async () => ({ user: userRow('u1'), live: true }));
    expect(cache.get('s1', 'u1')?.id).toBe('u1');
  });

  it('reads a session again once it is older than the bound', async () => {
    let now = 1_000;
    const cache = new SessionCache(() => now);
    cache.setListening(true);
    await cache.load('s1', 'u1', async () => ({ user: userRow('u1'), live: true }));
    now += SESSION_CACHE_MAX_AGE_MS;
    expect(cache.get('s1', 'u1')?.id).toBe('u1');
    now += 1;
    expect(cache.get('s1', 'u1')).toBeUndefined();
  });
});

/** An app on `database` with a known secret, so that a second instance accepts the first one's tokens. */
async function appOn(database: DatabaseHandle, jwtSecret: string, options: { deaf?: boolean } = {}) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'haversack-cache-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    APP_URL: 'http://haversack.test',
    LOG_LEVEL: 'silent',
    BILLING_PROVIDER: 'local',
  });
  const log = pino({ level: 'silent' });
  const mail = new MailQueue(createMailer({ from: config.mailFrom, dataDir, log }));
  // A deaf instance hears no NOTIFY (as if it came late): only its own process's writes can make it forget.
  const deaf: DatabaseHandle = {
    ...database,
    listen: async (_channel, _onMessage, onState) => {
      onState(true);
      return async () => onState(false);
    },
  };
  const app = await buildApp({
    config,
    database: options.deaf ? deaf : database,
    mail,
    jwtSecret,
    logger: false,
  });
  await app.ready();
  const ctx: TestContext = {
    app,
    database,
    mail,
    dataDir,
    config,
    close: async () => {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return ctx;
}

describe('authenticated requests with the session cache', () => {
  let database: DatabaseHandle;
  let ctx: TestContext;
  let other: TestContext;
  const secret = randomBytes(32).toString('hex');

  beforeAll(async () => {
    database = await openTestDatabase();
    // Same-process revocations must take effect without the database's notifications.
    ctx = await appOn(database, secret, { deaf: true });
    // A second instance on the same database, as a second process would be.
    other = await appOn(database, secret);
  });
  afterAll(async () => {
    await other.close();
    await ctx.close();
    await database.close();
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  const me = (app: FastifyInstance, user: SignedInUser) =>
    app.inject({ url: '/api/v1/auth/me', headers: user.auth });

  it('reads a session once, then answers from memory', async () => {
    const user = await createUser(ctx);
    const reads = vi.spyOn(accountsRepository, 'findActiveSessionUser');
    expect((await me(ctx.app, user)).statusCode).toBe(200);
    expect((await me(ctx.app, user)).statusCode).toBe(200);
    expect((await me(ctx.app, user)).statusCode).toBe(200);
    expect(reads).toHaveBeenCalledTimes(1);
  });

  it('refuses a session at once after its logout, in this instance', async () => {
    const user = await createUser(ctx);
    expect((await me(ctx.app, user)).statusCode).toBe(200);
    expect((await callApi(ctx, 'DELETE', '/auth/logout', user)).statusCode).toBe(204);
    expect((await me(ctx.app, user)).statusCode).toBe(401);
  });

  it('refuses the other sessions at once after a password change', async () => {
    const user = await createUser(ctx);
    const login = await callApi(ctx, 'POST', '/auth/login', undefined, {
      email: user.user.email,
      password: user.password,
    });
    const second = { ...user, auth: { authorization: `Bearer ${login.json().data.token}` } };
    expect((await me(ctx.app, second)).statusCode).toBe(200);
    const changed = await callApi(ctx, 'PUT', '/users/me/password', user, {
      current_password: user.password,
      password: 'Different2',
      password_confirmation: 'Different2',
    });
    expect(changed.statusCode).toBe(200);
    expect((await me(ctx.app, second)).statusCode).toBe(401);
    expect((await me(ctx.app, user)).statusCode).toBe(200);
  });

  it('refuses a suspended user at once, and forgets a lost admin flag at once', async () => {
    const admin = await createAdmin(ctx);
    const player = await createUser(ctx);
    expect((await me(ctx.app, player)).statusCode).toBe(200);
    const suspended = await callApi(ctx, 'POST', `/admin/users/${player.user.id}/suspend`, admin.adminAuth, {
      reason: 'spam',
    });
    expect(suspended.statusCode).toBe(200);
    expect((await me(ctx.app, player)).statusCode).toBe(401);

    expect((await callApi(ctx, 'GET', '/admin/users', admin.adminAuth)).statusCode).toBe(200);
    await setAdminFlag(ctx.database.db, admin.user.email, false);
    expect((await callApi(ctx, 'GET', '/admin/users', admin.adminAuth)).statusCode).toBe(403);
  });

  it('answers a changed profile at once', async () => {
    const user = await createUser(ctx);
    expect((await me(ctx.app, user)).json().data.user.username).toBe(user.user.username);
    const username = `renamed_${randomBytes(3).toString('hex')}`;
    const patched = await callApi(ctx, 'PATCH', '/users/me', user, { user: { username } });
    expect(patched.statusCode).toBe(200);
    expect((await me(ctx.app, user)).json().data.user.username).toBe(username);
    // Not to a staff name, though: refused, and the name stays.
    const staff = await callApi(ctx, 'PATCH', '/users/me', user, { user: { username: 'Admin' } });
    expect(staff.statusCode).toBe(422);
    expect((await me(ctx.app, user)).json().data.user.username).toBe(username);
  });

  it('keeps nothing read while a revocation is not committed, and refuses once it is', async () => {
    const user = await createUser(ctx);
    expect((await me(ctx.app, user)).statusCode).toBe(200);
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let revoked: () => void = () => {};
    const written = new Promise<void>((resolve) => {
      revoked = resolve;
    });
    const transaction = ctx.database.db.transaction(async (tx) => {
      await accountsRepository.revokeSession(tx, sessionIdOf(user), 'logout');
      revoked();
      await held;
    });
    await written;
    // PGlite has one connection: a read would wait for the transaction, so only PostgreSQL reads meanwhile.
    if (ctx.database.kind === 'postgres') expect((await me(ctx.app, user)).statusCode).toBe(200);
    release();
    await transaction;
    expect((await me(ctx.app, user)).statusCode).toBe(401);
  });

  it('refuses a session ended by another instance, or by plain SQL, within a short bound', async () => {
    const user = await createUser(ctx);
    expect((await me(other.app, user)).statusCode).toBe(200);
    expect((await me(other.app, user)).statusCode).toBe(200);
    // No repository involved: only the database's notification can tell the instances.
    await ctx.database.db
      .update(authSessions)
      .set({ revokedAt: new Date(), revokedReason: 'logout' })
      .where(eq(authSessions.userId, user.user.id));
    const refusedWithin = async (app: FastifyInstance) => {
      const started = performance.now();
      while ((await me(app, user)).statusCode === 200) {
        if (performance.now() - started > 2_000) throw new Error('still accepted after 2 s');
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      return performance.now() - started;
    };
    expect(await refusedWithin(other.app)).toBeLessThan(2_000);

    const suspended = await createUser(ctx);
    expect((await me(other.app, suspended)).statusCode).toBe(200);
    await ctx.database.db
      .update(users)
      .set({ suspendedAt: new Date() })
      .where(eq(users.id, suspended.user.id));
    const started = performance.now();
    while ((await me(other.app, suspended)).statusCode === 200) {
      if (performance.now() - started > 2_000) throw new Error('suspended user still accepted after 2 s');
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  });

  it('reads the database for a fresh lookup (a socket), whatever is remembered', async () => {
    const user = await createUser(ctx);
    const claims = { userId: user.user.id, sessionId: sessionIdOf(user) };
    expect((await me(ctx.app, user)).statusCode).toBe(200);
    // Plain SQL, which this deaf instance does not hear: only a read of the database sees it.
    await ctx.database.db
      .update(authSessions)
      .set({ revokedAt: new Date(), revokedReason: 'logout' })
      .where(eq(authSessions.id, claims.sessionId));
    await expect(ctx.app.services.accounts.authenticate(claims, { fresh: true })).rejects.toMatchObject({
      code: 'REVOKED_TOKEN',
    });
    // The remembered session is what the next request would use until the notification or the age limit.
    expect((await ctx.app.services.accounts.authenticate(claims)).sessionId).toBe(claims.sessionId);
  });

  it('hears a user written outside any transaction as settled at once', async () => {
    const user = await createUser(ctx);
    expect((await me(ctx.app, user)).statusCode).toBe(200);
    const reads = vi.spyOn(accountsRepository, 'findActiveSessionUser');
    userWritten(user.user.id);
    expect((await me(ctx.app, user)).statusCode).toBe(200);
    expect((await me(ctx.app, user)).statusCode).toBe(200);
    expect(reads).toHaveBeenCalledTimes(1);
  });
});
