import {
  API_TOKEN_PREFIX,
  type ApiTokenCreated,
  apiTokenMessages,
  authMessages,
  passwordMessages,
  signedInSessionMessages,
} from '@haversack/contracts';
import { hash } from '@node-rs/argon2';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authSessions, refreshTokens, users } from '../../db/schema/accounts.js';
import { createUser, defaultPassword, type SignedInUser, upgrade } from '../../test/factories.js';
import { buildTestApp, json, linkFromMail, readMails, type TestContext } from '../../test/helper.js';

interface Envelope {
  status: string;
  data: Record<string, unknown> & { user?: Record<string, unknown> };
  error: { code: string; message: string; status: number; details?: { field: string; message: string }[] };
}

let ctx: TestContext;
// A clock the tests can move forward to expire tokens and links.
let clockOffsetMs = 0;

beforeAll(async () => {
  ctx = await buildTestApp({ now: () => new Date(Date.now() + clockOffsetMs) });
});
afterAll(async () => ctx.close());

const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
  ctx.app.inject({ method: 'POST', url, payload: payload as object, headers });

function registration(overrides: Record<string, string> = {}) {
  const suffix = Math.random().toString(36).slice(2, 8);
  return {
    user: {
      email: `hero-${suffix}@example.com`,
      username: `hero_${suffix}`,
      password: 'Dragons1',
      password_confirmation: 'Dragons1',
      ...overrides,
    },
  };
}

describe('passwords typed with accents (NFC and as typed)', () => {
  const composed = 'Caf\u00e9Latte9';
  const decomposed = 'Cafe\u0301Latte9';
  const login = (email: string, password: string) => post('/api/v1/auth/login', { email, password });

  it('signs in with an accent typed either way, and an account from before with the form it was set in', async () => {
    const fresh = await post(
      '/api/v1/auth/register',
      registration({ password: decomposed, password_confirmation: decomposed }),
    );
    expect(fresh.statusCode, fresh.body).toBe(201);
    const email = json<{ data: { user: { email: string } } }>(fresh).data.user.email;
    expect((await login(email, composed)).statusCode).toBe(200);
    expect((await login(email, decomposed)).statusCode).toBe(200);

    // A hash made before passwords were composed: of the password as it was typed then.
    const older = await createUser(ctx);
    const legacy = await hash(decomposed, { memoryCost: 19_456, timeCost: 2, parallelism: 1 });
    await ctx.database.db.update(users).set({ passwordHash: legacy }).where(eq(users.id, older.user.id));
    expect((await login(older.user.email, decomposed)).statusCode).toBe(200);
  });
});

describe('POST /api/v1/auth/register', () => {
  it('creates the account and answers like login', async () => {
    const body = registration();
    const response = await post('/api/v1/auth/register', { ...body, ignored: true });
    expect(response.statusCode).toBe(201);
    const { data } = json<Envelope>(response);
    expect(data).toMatchObject({ token: expect.any(String), refresh_token: expect.any(String) });
    expect(Date.parse(String(data.expires_at))).toBeGreaterThan(Date.now());
    expect(data.user).toMatchObject({
      email: body.user.email,
      username: body.user.username,
      tier: 'tier_free',
      subscription_status: 'active',
      admin: false,
      email_verified: false,
    });
    expect(data.user).not.toHaveProperty('password_hash');
    const me = await ctx.app.inject({
      url: '/api/v1/auth/me',
      headers: { authorization: `Bearer ${data.token}` },
    });
    expect(json<Envelope>(me).data.user?.id).toBe(data.user?.id);
  });

  it('mails a verification link on registration', async () => {
    const body = registration();
    await post('/api/v1/auth/register', body);
    const mails = (await readMails(ctx)).filter((m) => m.to.includes(body.user.email));
    expect(mails).toHaveLength(1);
    expect(mails[0]?.subject).toMatch(/confirm/i);
    expect(mails[0]?.raw).toContain('http://haversack.test/verify-email?token=');
  });

  // Mail review: every account mail says how long its link works and what to do if it was not asked for.
  it('welcomes the new account in its verification mail, with how long the link works', async () => {
    const body = registration();
    await post('/api/v1/auth/register', body);
    const mail = (await readMails(ctx)).find((m) => m.to.includes(body.user.email));
    expect(mail?.subject).toBe('Confirm your email address for Haversack');
    const [text = '', html = ''] = mail?.raw.split(/Content-Type: text\/html/) ?? [];
    for (const part of [text, html]) {
      expect(part).toContain(`Welcome to Haversack, ${body.user.username}!`);
      expect(part).toContain('Use the link below within 7 days.');
      expect(part).toContain('If you did not sign up for Haversack, ignore this mail');
    }
  });

  it('offers an account with no password (made through Discord) its first one, not a reset', async () => {
    const owner = await createUser(ctx);
    await ctx.database.db.update(users).set({ passwordHash: null }).where(eq(users.id, owner.user.id));
    const forgot = await post('/api/v1/auth/forgot_password', { email: owner.user.email });
    expect(forgot.statusCode, forgot.body).toBe(200);
    const mail = (await readMails(ctx)).find(
      (m) => m.to === owner.user.email && m.subject === 'Choose a password for Haversack',
    );
    const [text = '', html = ''] = mail?.raw.split(/Content-Type: text\/html/) ?? [];
    for (const part of [text, html]) {
      expect(part).toContain(
        'Someone asked to choose a password for your Haversack account, which has none yet.',
      );
      expect(part).toContain('Use the link below within 60 minutes; it works once.');
      expect(part).toContain('If it was not you, ignore this mail: nothing changes.');
      expect(part).not.toContain('your password stays as it is');
    }
  });

  it('reports every password rule and the confirmation mismatch on their fields', async () => {
    const response = await post(
      '/api/v1/auth/register',
      registration({ password: 'short', password_confirmation: 'x' }),
    );
    expect(response.statusCode).toBe(422);
    const { error } = json<Envelope>(response);
    expect(error.code).toBe('VALIDATION_ERROR');
    expect(error.details).toEqual(
      expect.arrayContaining([
        { field: 'user.password', message: passwordMessages.length },
        { field: 'user.password', message: passwordMessages.uppercase },
        { field: 'user.password', message: passwordMessages.digit },
        { field: 'user.password_confirmation', message: passwordMessages.mismatch },
      ]),
    );
    const lower = await post(
      '/api/v1/auth/register',
      registration({ password: 'ALLUPPER1', password_confirmation: 'ALLUPPER1' }),
    );
    expect(json<Envelope>(lower).error.details).toContainEqual({
      field: 'user.password',
      message: passwordMessages.lowercase,
    });
  });

  it('refuses invalid emails and usernames', async () => {
    for (const [field, value] of [
      ['email', 'not-an-email'],
      ['username', 'ab'],
      ['username', 'x'.repeat(31)],
      ['username', 'bad name!'],
    ] as const) {
      const response = await post('/api/v1/auth/register', registration({ [field]: value }));
      expect(response.statusCode, `${field}=${value}`).toBe(422);
      expect(json<Envelope>(response).error.details?.[0]?.field).toBe(`user.${field}`);
    }
  });

  it('refuses the names of staff (admin, Support, mod_erator...), which a player could pass off as the site’s', async () => {
    for (const username of [
      'admin',
      'Admin',
      'ADMINISTRATOR',
      'support',
      'mod_erator',
      'system',
      'haversack',
    ]) {
      const response = await post('/api/v1/auth/register', registration({ username }));
      expect(response.statusCode, username).toBe(422);
      expect(json<Envelope>(response).error.details?.[0]).toMatchObject({
        field: 'user.username',
        message: 'This username is reserved. Please choose another.',
      });
    }
    // A name that only contains one is anyone's.
    expect((await post('/api/v1/auth/register', registration({ username: 'admiral_zed' }))).statusCode).toBe(
      201,
    );
  });

  it('treats email and username as taken ignoring case', async () => {
    const first = registration();
    await post('/api/v1/auth/register', first);
    const sameEmail = await post(
      '/api/v1/auth/register',
      registration({ email: first.user.email.toUpperCase() }),
    );
    expect(sameEmail.statusCode).toBe(422);
    expect(json<Envelope>(sameEmail).error.details).toEqual([
      { field: 'email', message: authMessages.emailTaken },
    ]);
    const sameName = await post(
      '/api/v1/auth/register',
      registration({ username: first.user.username.toUpperCase() }),
    );
    expect(json<Envelope>(sameName).error.details).toEqual([
      { field: 'username', message: authMessages.usernameTaken },
    ]);
  });

  it('lets exactly one of two racing registrations of one email through', async () => {
    const email = `race-${Date.now()}@example.com`;
    const responses = await Promise.all(
      [1, 2, 3].map((n) =>
        post('/api/v1/auth/register', registration({ email, username: `racer_${n}_${Date.now() % 1000}` })),
      ),
    );
    const statuses = responses.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([201, 422, 422]);
  });

  it('refuses a body that is not wrapped in {user}', async () => {
    const response = await post('/api/v1/auth/register', registration().user);
    expect(response.statusCode).toBe(422);
    expect(json<Envelope>(response).error.details?.[0]?.field).toBe('user');
  });
});

describe('POST /api/v1/auth/login', () => {
  it('signs in with any case of the email', async () => {
    const user = await createUser(ctx);
    const response = await post('/api/v1/auth/login', {
      email: user.user.email.toUpperCase(),
      password: defaultPassword,
    });
    expect(response.statusCode).toBe(200);
    expect(json<Envelope>(response).data).toMatchObject({
      user: { id: user.user.id },
      refresh_token: expect.any(String),
    });
  });

  it('answers the same for a wrong password and an unknown email', async () => {
    const user = await createUser(ctx);
    const wrong = await post('/api/v1/auth/login', { email: user.user.email, password: 'Wrong1234' });
    const unknown = await post('/api/v1/auth/login', { email: 'nobody@example.com', password: 'Wrong1234' });
    for (const response of [wrong, unknown]) {
      expect(response.statusCode).toBe(401);
      expect(json<Envelope>(response).error).toEqual({
        type: 'authentication_error',
        code: 'INVALID_CREDENTIALS',
        message: 'Invalid email or password.',
        status: 401,
      });
    }
  });
});

describe('tokens', () => {
  it('rotates the refresh token and revokes the family when a used one comes back', async () => {
    const user = await createUser(ctx);
    const first = await post('/api/v1/auth/refresh', { refresh_token: user.refresh_token });
    expect(first.statusCode).toBe(200);
    const rotated = json<Envelope>(first).data;
    expect(rotated.refresh_token).not.toBe(user.refresh_token);
    expect(rotated).not.toHaveProperty('user');

    const replay = await post('/api/v1/auth/refresh', { refresh_token: user.refresh_token });
    expect(replay.statusCode).toBe(401);
    expect(json<Envelope>(replay).error.code).toBe('REVOKED_TOKEN');

    // The thief's replay ends the owner's session too: the rotated tokens are dead.
    const next = await post('/api/v1/auth/refresh', { refresh_token: rotated.refresh_token });
    expect(json<Envelope>(next).error.code).toBe('REVOKED_TOKEN');
    const me = await ctx.app.inject({
      url: '/api/v1/auth/me',
      headers: { authorization: `Bearer ${rotated.token}` },
    });
    expect(json<Envelope>(me).error.code).toBe('REVOKED_TOKEN');
  });

  it('lets only one of two simultaneous refreshes with one token rotate it', async () => {
    const user = await createUser(ctx);
    const responses = await Promise.all(
      [1, 2].map(() => post('/api/v1/auth/refresh', { refresh_token: user.refresh_token })),
    );
    expect(responses.map((r) => r.statusCode).sort()).toEqual([200, 401]);
  });

  it('answers INVALID_TOKEN for an unknown refresh token and a malformed access token', async () => {
    const refresh = await post('/api/v1/auth/refresh', { refresh_token: 'nonsense' });
    expect(json<Envelope>(refresh).error.code).toBe('INVALID_TOKEN');
    const me = await ctx.app.inject({
      url: '/api/v1/auth/me',
      headers: { authorization: 'Bearer abc.def.ghi' },
    });
    expect(me.statusCode).toBe(401);
    expect(json<Envelope>(me).error.code).toBe('INVALID_TOKEN');
  });

  it('answers UNAUTHORIZED without a token', async () => {
    const me = await ctx.app.inject({ url: '/api/v1/auth/me' });
    expect(me.statusCode).toBe(401);
    expect(json<Envelope>(me).error).toMatchObject({
      code: 'UNAUTHORIZED',
      message: 'Please log in to continue',
    });
  });

  it('answers EXPIRED_TOKEN for an expired access token and an expired refresh token', async () => {
    clockOffsetMs = -31 * 24 * 3600_000;
    const user = await createUser(ctx);
    clockOffsetMs = 0;
    const me = await ctx.app.inject({ url: '/api/v1/auth/me', headers: user.auth });
    expect(me.statusCode).toBe(401);
    expect(json<Envelope>(me).error.code).toBe('EXPIRED_TOKEN');
    const refresh = await post('/api/v1/auth/refresh', { refresh_token: user.refresh_token });
    expect(json<Envelope>(refresh).error.code).toBe('EXPIRED_TOKEN');
  });

  it('drops refresh tokens a week past their expiry, as sessions refresh and start', async () => {
    const day = 24 * 3600_000;
    const tokensOf = async (userId: string) =>
      (
        await ctx.database.db
          .select({ id: refreshTokens.id })
          .from(refreshTokens)
          .innerJoin(authSessions, eq(authSessions.id, refreshTokens.sessionId))
          .where(eq(authSessions.userId, userId))
      ).length;
    // Forty days ago: signed up (a session), refreshed three times on it.
    clockOffsetMs = -40 * day;
    try {
      const user = await createUser(ctx);
      let refresh = user.refresh_token;
      for (let i = 0; i < 3; i += 1) {
        const rotated = await post('/api/v1/auth/refresh', { refresh_token: refresh });
        expect(rotated.statusCode).toBe(200);
        refresh = json<Envelope>(rotated).data.refresh_token as string;
      }
      expect(await tokensOf(user.user.id)).toBe(4);
      // Today (the four expired ten days ago): a sign-in elsewhere starts a session and clears them.
      clockOffsetMs = 0;
      const signIn = await post('/api/v1/auth/login', { email: user.user.email, password: user.password });
      expect(signIn.statusCode).toBe(200);
      expect(await tokensOf(user.user.id)).toBe(1);
      // A refresh keeps the used token (its reuse still ends the session) and the new one.
      const fresh = json<Envelope>(signIn).data.refresh_token as string;
      expect((await post('/api/v1/auth/refresh', { refresh_token: fresh })).statusCode).toBe(200);
      expect(await tokensOf(user.user.id)).toBe(2);
      expect(json<Envelope>(await post('/api/v1/auth/refresh', { refresh_token: fresh })).error.code).toBe(
        'REVOKED_TOKEN',
      );
    } finally {
      clockOffsetMs = 0;
    }
  });

  it('logout ends the session for the access and the refresh token', async () => {
    const user = await createUser(ctx);
    const logout = await ctx.app.inject({ method: 'DELETE', url: '/api/v1/auth/logout', headers: user.auth });
    expect(logout.statusCode).toBe(204);
    expect(logout.body).toBe('');
    const me = await ctx.app.inject({ url: '/api/v1/auth/me', headers: user.auth });
    expect(json<Envelope>(me).error.code).toBe('REVOKED_TOKEN');
    const refresh = await post('/api/v1/auth/refresh', { refresh_token: user.refresh_token });
    expect(json<Envelope>(refresh).error.code).toBe('REVOKED_TOKEN');
  });
});

describe('GET /api/v1/auth/verify (spec/01 §7, issue 14)', () => {
  const verify = (headers: Record<string, string> = {}) =>
    ctx.app.inject({ url: '/api/v1/auth/verify', headers });

  it('says whose the access token is and until when', async () => {
    const user = await createUser(ctx);
    const response = await verify(user.auth);
    expect(response.statusCode).toBe(200);
    expect(json<Envelope>(response).data).toEqual({
      valid: true,
      expires_at: user.expires_at,
      user: user.user,
    });
  });

  it('answers 401 with the reason for a missing, malformed, expired or ended token', async () => {
    expect(json<Envelope>(await verify()).error.code).toBe('UNAUTHORIZED');
    expect(json<Envelope>(await verify({ authorization: 'Bearer not.a.token' })).error.code).toBe(
      'INVALID_TOKEN',
    );
    clockOffsetMs = -31 * 24 * 3600_000;
    const old = await createUser(ctx);
    clockOffsetMs = 0;
    const expired = await verify(old.auth);
    expect(expired.statusCode).toBe(401);
    expect(json<Envelope>(expired).error.code).toBe('EXPIRED_TOKEN');
    const user = await createUser(ctx);
    await ctx.app.inject({ method: 'DELETE', url: '/api/v1/auth/logout', headers: user.auth });
    expect(json<Envelope>(await verify(user.auth)).error.code).toBe('REVOKED_TOKEN');
  });

  describe('with a personal API token (issue 16 §5, outside review)', () => {
    const apiToken = async (user: SignedInUser, expiresInDays: number | null) => {
      const response = await post(
        '/api/v1/users/me/api_tokens',
        { api_token: { name: 'Script', scope: 'read', expires_in_days: expiresInDays } },
        user.auth,
      );
      expect(response.statusCode, response.body).toBe(201);
      return json<{ data: ApiTokenCreated }>(response).data;
    };
    const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

    it('says whose the token is and until when: its expiry, or null when it has none', async () => {
      const user = await createUser(ctx);
      await upgrade(ctx, user, 'tier_2');
      const me = json<Envelope>(await ctx.app.inject({ url: '/api/v1/auth/me', headers: user.auth })).data;
      const monthly = await apiToken(user, 30);
      const response = await verify(bearer(monthly.token));
      expect(response.statusCode, response.body).toBe(200);
      expect(json<Envelope>(response).data).toEqual({
        valid: true,
        expires_at: monthly.expires_at,
        user: me.user,
      });
      expect(Number(response.headers['x-ratelimit-limit'])).toBeGreaterThan(0);
      const forever = await apiToken(user, null);
      const lasting = await verify(bearer(forever.token));
      expect(lasting.statusCode).toBe(200);
      expect(json<Envelope>(lasting).data).toEqual({ valid: true, expires_at: null, user: me.user });
    });

    it('answers 401 with the reason for an unknown, revoked or expired token', async () => {
      const user = await createUser(ctx);
      await upgrade(ctx, user, 'tier_2');
      const unknown = await verify(bearer(`${API_TOKEN_PREFIX}nope`));
      expect(unknown.statusCode).toBe(401);
      expect(json<Envelope>(unknown).error.code).toBe('INVALID_TOKEN');

      const doomed = await apiToken(user, 30);
      const revoke = await ctx.app.inject({
        method: 'DELETE',
        url: `/api/v1/users/me/api_tokens/${doomed.id}`,
        headers: user.auth,
      });
      expect(revoke.statusCode).toBe(204);
      const revoked = await verify(bearer(doomed.token));
      expect(revoked.statusCode).toBe(401);
      expect(json<Envelope>(revoked).error).toMatchObject({
        code: 'REVOKED_TOKEN',
        message: apiTokenMessages.revoked,
      });

      const weekly = await apiToken(user, 7);
      clockOffsetMs = 8 * 24 * 3600_000;
      try {
        const expired = await verify(bearer(weekly.token));
        expect(expired.statusCode).toBe(401);
        expect(json<Envelope>(expired).error).toMatchObject({
          code: 'EXPIRED_TOKEN',
          message: apiTokenMessages.expired,
        });
      } finally {
        clockOffsetMs = 0;
      }
    });
  });
});

describe('password recovery', () => {
  it('carries every failure’s text in data.error, which the forgot and reset screens read (spec/01 §7)', async () => {
    const unknown = await post('/api/v1/auth/reset_password', {
      token: 'y'.repeat(43),
      password: 'NewSecret9',
      password_confirmation: 'NewSecret9',
    });
    expect(unknown.statusCode).toBe(400);
    expect(json(unknown)).toMatchObject({
      status: 'error',
      error: { code: 'BAD_REQUEST', message: authMessages.resetTokenInvalid },
      data: { error: authMessages.resetTokenInvalid },
    });
    const mismatch = await post('/api/v1/auth/reset_password', {
      token: 'abc',
      password: 'NewSecret9',
      password_confirmation: 'NewSecret8',
    });
    expect(json(mismatch)).toMatchObject({
      error: { code: 'VALIDATION_ERROR' },
      data: { error: 'Passwords do not match' },
    });
    const badEmail = await post('/api/v1/auth/forgot_password', { email: 'nope' });
    expect(json(badEmail)).toMatchObject({ data: { error: 'Please enter a valid email address' } });
    // Successes and other calls are unchanged.
    const sent = await post('/api/v1/auth/forgot_password', { email: 'nobody@example.com' });
    expect(json(sent)).toEqual({
      status: 'success',
      data: { message: authMessages.forgotPasswordSent },
      message: authMessages.forgotPasswordSent,
    });
    expect(
      json(await post('/api/v1/auth/login', { email: 'nobody@example.com', password: 'x' })),
    ).not.toHaveProperty('data');
  });

  it('answers the same for known and unknown emails and mails only the known one', async () => {
    const user = await createUser(ctx);
    const known = await post('/api/v1/auth/forgot_password', { email: user.user.email });
    const unknown = await post('/api/v1/auth/forgot_password', { email: 'ghost@example.com' });
    expect(known.statusCode).toBe(200);
    expect(json(known)).toEqual(json(unknown));
    expect(json<Envelope>(known).data.message).toBe(authMessages.forgotPasswordSent);
    const mails = await readMails(ctx);
    expect(mails.filter((m) => m.to.includes('ghost@example.com'))).toHaveLength(0);
    const link = await linkFromMail(ctx, user.user.email, 'reset-password');
    expect(link).toMatch(/^http:\/\/haversack\.test\/reset-password\/[A-Za-z0-9_-]{20,}$/);
  });

  it('refuses a badly formed email', async () => {
    const response = await post('/api/v1/auth/forgot_password', { email: 'nope' });
    expect(response.statusCode).toBe(422);
    expect(json<Envelope>(response).error.details).toEqual([
      { field: 'email', message: 'Please enter a valid email address' },
    ]);
  });

  it('resets the password once, ends every session and rejects the used link', async () => {
    const user = await createUser(ctx);
    await post('/api/v1/auth/forgot_password', { email: user.user.email });
    const token = (await linkFromMail(ctx, user.user.email, 'reset-password')).split('/').at(-1) ?? '';
    const reset = await post('/api/v1/auth/reset_password', {
      token,
      password: 'NewSecret9',
      password_confirmation: 'NewSecret9',
    });
    expect(reset.statusCode).toBe(200);
    expect(json<Envelope>(reset).data.message).toBe('Your password has been reset successfully.');

    const me = await ctx.app.inject({ url: '/api/v1/auth/me', headers: user.auth });
    expect(json<Envelope>(me).error.code).toBe('REVOKED_TOKEN');
    // The device still signed in is told the password was reset (by a link), not changed on another device.
    const renewed = await post('/api/v1/auth/refresh', { refresh_token: user.refresh_token });
    expect(json<Envelope>(renewed).error).toMatchObject({
      code: 'REVOKED_TOKEN',
      message: signedInSessionMessages.passwordReset,
    });
    expect(
      (await post('/api/v1/auth/login', { email: user.user.email, password: defaultPassword })).statusCode,
    ).toBe(401);
    expect(
      (await post('/api/v1/auth/login', { email: user.user.email, password: 'NewSecret9' })).statusCode,
    ).toBe(200);

    const again = await post('/api/v1/auth/reset_password', {
      token,
      password: 'Another99',
      password_confirmation: 'Another99',
    });
    expect(again.statusCode).toBe(400);
    expect(json<Envelope>(again).error.message).toBe(authMessages.resetTokenUsed);
  });

  it('rejects unknown and expired links with a clear message', async () => {
    const unknown = await post('/api/v1/auth/reset_password', {
      token: 'x'.repeat(43),
      password: 'NewSecret9',
      password_confirmation: 'NewSecret9',
    });
    expect(unknown.statusCode).toBe(400);
    expect(json<Envelope>(unknown).error.message).toBe(authMessages.resetTokenInvalid);

    const user = await createUser(ctx);
    await post('/api/v1/auth/forgot_password', { email: user.user.email });
    const token = (await linkFromMail(ctx, user.user.email, 'reset-password')).split('/').at(-1) ?? '';
    clockOffsetMs = 61 * 60_000;
    try {
      const expired = await post('/api/v1/auth/reset_password', {
        token,
        password: 'NewSecret9',
        password_confirmation: 'NewSecret9',
      });
      expect(expired.statusCode).toBe(400);
      expect(json<Envelope>(expired).error.message).toBe(authMessages.resetTokenInvalid);
    } finally {
      clockOffsetMs = 0;
    }
    // Nothing changed: the old password still works.
    expect(
      (await post('/api/v1/auth/login', { email: user.user.email, password: defaultPassword })).statusCode,
    ).toBe(200);
  });

  it('validates the new password before looking at the token', async () => {
    const response = await post('/api/v1/auth/reset_password', {
      token: 'abc',
      password: 'weak',
      password_confirmation: 'weak',
    });
    expect(response.statusCode).toBe(422);
    expect(json<Envelope>(response).error.details?.map((d) => d.message)).toContain(passwordMessages.length);
  });
});

describe('email verification', () => {
  it('verifies with the mailed token, and following it again says the address is verified', async () => {
    const user = await createUser(ctx);
    const token = new URL(await linkFromMail(ctx, user.user.email, 'verify-email')).searchParams.get('token');
    const verified = await post('/api/v1/auth/verify_email', { token });
    expect(verified.statusCode).toBe(200);
    expect(json<Envelope>(verified).data.user).toMatchObject({ email_verified: true });
    const me = await ctx.app.inject({ url: '/api/v1/auth/me', headers: user.auth });
    expect(json<Envelope>(me).data.user?.email_verified).toBe(true);
    const again = await post('/api/v1/auth/verify_email', { token });
    expect(again.statusCode).toBe(200);
    expect(json<Envelope>(again).data.user).toMatchObject({ email_verified: true });
    // A used link whose account changed address since is not proof of anything: refused.
    await ctx.database.db
      .update(users)
      .set({ email: `moved-${user.user.email}`, emailVerifiedAt: null })
      .where(eq(users.id, user.user.id));
    expect((await post('/api/v1/auth/verify_email', { token })).statusCode).toBe(400);
  });

  it('resends a link to the signed-in user and says the same for strangers', async () => {
    const user = await createUser(ctx);
    const before = (await readMails(ctx)).filter((m) => m.to.includes(user.user.email)).length;
    const mine = await post('/api/v1/auth/resend_verification', {}, user.auth);
    expect(mine.statusCode).toBe(200);
    const stranger = await post('/api/v1/auth/resend_verification', { email: 'stranger@example.com' });
    expect(json(stranger)).toEqual(json(mine));
    const after = (await readMails(ctx)).filter((m) => m.to.includes(user.user.email)).length;
    expect(after).toBe(before + 1);
  });
});

describe('profile', () => {
  it('changes the username and refuses one that is taken', async () => {
    const user = await createUser(ctx);
    const other = await createUser(ctx);
    const patch = (payload: unknown) =>
      ctx.app.inject({
        method: 'PATCH',
        url: '/api/v1/users/me',
        headers: user.auth,
        payload: payload as object,
      });
    const renamed = await patch({ user: { username: `bard_${Date.now() % 100000}` } });
    expect(renamed.statusCode).toBe(200);
    expect(json<Envelope>(renamed).data.user?.username).toMatch(/^bard_/);
    const taken = await patch({ user: { username: other.user.username.toUpperCase() } });
    expect(taken.statusCode).toBe(422);
    expect(json<Envelope>(taken).error.details).toEqual([
      { field: 'username', message: authMessages.usernameTaken },
    ]);
  });

  const changeEmail = (user: { auth: { authorization: string } }, payload: Record<string, unknown>) =>
    ctx.app.inject({
      method: 'PATCH',
      url: '/api/v1/users/me',
      headers: user.auth,
      payload: { user: payload },
    });
  const me = (token: string) =>
    ctx.app.inject({ url: '/api/v1/auth/me', headers: { authorization: `Bearer ${token}` } });

  it('refuses an email change without the right current password and changes nothing', async () => {
    const user = await createUser(ctx);
    const email = `thief-${Date.now()}@example.com`;
    const missing = await changeEmail(user, { email });
    expect(missing.statusCode).toBe(422);
    expect(json<Envelope>(missing).error.details).toEqual([
      { field: 'current_password', message: authMessages.currentPasswordRequired },
    ]);
    const wrong = await changeEmail(user, { email, current_password: 'Guess1234' });
    expect(wrong.statusCode).toBe(422);
    expect(json<Envelope>(wrong).error.details).toEqual([
      { field: 'current_password', message: authMessages.currentPasswordWrong },
    ]);
    expect(json<Envelope>(await me(user.token)).data.user?.email).toBe(user.user.email);
    expect((await readMails(ctx)).some((m) => m.to.includes(email))).toBe(false);
    // The username alone still changes without the password.
    const renamed = await changeEmail(user, { username: `quiet_${Date.now() % 100000}` });
    expect(renamed.statusCode).toBe(200);
  });

  it('changes the email with the password, mails both addresses and ends the other sessions', async () => {
    const user = await createUser(ctx);
    const second = json<Envelope>(
      await post('/api/v1/auth/login', { email: user.user.email, password: defaultPassword }),
    ).data;
    const email = `moved-${Date.now()}@example.com`;
    const response = await changeEmail(user, { email, current_password: defaultPassword });
    expect(response.statusCode).toBe(200);
    expect(json<Envelope>(response).data.user).toMatchObject({ email, email_verified: false });
    expect(await linkFromMail(ctx, email, 'verify-email')).toContain('token=');
    const notice = (await readMails(ctx)).filter((m) => m.to.includes(user.user.email)).at(-1);
    expect(notice?.subject).toBe('Your Haversack email address was changed');
    expect(notice?.raw).toContain(email);
    expect(await linkFromMail(ctx, user.user.email, 'undo-email-change')).toContain('token=');
    expect((await me(user.token)).statusCode).toBe(200);
    expect(json<Envelope>(await me(String(second.token))).error.code).toBe('REVOKED_TOKEN');
    // The other device, renewing its session, is told why in plain words.
    const renewed = await post('/api/v1/auth/refresh', { refresh_token: second.refresh_token });
    expect(json<Envelope>(renewed).error).toMatchObject({
      code: 'REVOKED_TOKEN',
      message: signedInSessionMessages.emailChangedElsewhere,
    });
  });

  // Mail review: the new address of an existing account was welcomed as if the account had just been made.
  it('asks the new address to confirm the change, and a resent link too, without welcoming a new account', async () => {
    const user = await createUser(ctx);
    const email = `confirm-${Date.now()}@example.com`;
    expect((await changeEmail(user, { email, current_password: defaultPassword })).statusCode).toBe(200);
    expect((await post('/api/v1/auth/resend_verification', {}, user.auth)).statusCode).toBe(200);
    const [changed, resent] = (await readMails(ctx)).filter((m) => m.to.includes(email));
    expect(changed?.subject).toBe('Confirm your new email address for Haversack');
    expect(resent?.subject).toBe('Confirm your email address for Haversack');
    const greeting = `Hello ${user.user.username},`;
    for (const [mail, says] of [
      [changed, 'The email address of your Haversack account was changed to this one.'],
      [resent, 'Please confirm that this is the email address of your Haversack account'],
    ] as const) {
      const [text = '', html = ''] = mail?.raw.split(/Content-Type: text\/html/) ?? [];
      for (const part of [text, html]) {
        expect(part).not.toContain('Welcome');
        expect(part).toContain(greeting);
        expect(part).toContain(says);
        expect(part).toContain('Use the link below within 7 days.');
      }
    }
  });

  it('voids a reset link mailed to the address before an email change, and nothing changes', async () => {
    const user = await createUser(ctx);
    await post('/api/v1/auth/forgot_password', { email: user.user.email });
    const oldLink = (await linkFromMail(ctx, user.user.email, 'reset-password')).split('/').at(-1) ?? '';
    // Whoever reads the old mailbox keeps its link; the owner moves to a new address.
    const email = `fresh-${Date.now()}@example.com`;
    expect((await changeEmail(user, { email, current_password: defaultPassword })).statusCode).toBe(200);
    const reset = await post('/api/v1/auth/reset_password', {
      token: oldLink,
      password: 'Attack3r-pass!',
      password_confirmation: 'Attack3r-pass!',
    });
    expect(reset.statusCode).toBe(400);
    expect(json<Envelope>(reset).error.message).toBe(authMessages.resetTokenInvalid);
    expect((await me(user.token)).statusCode).toBe(200);
    expect((await post('/api/v1/auth/login', { email, password: 'Attack3r-pass!' })).statusCode).toBe(401);
    expect((await post('/api/v1/auth/login', { email, password: defaultPassword })).statusCode).toBe(200);
  });

  it('undoes an email change once: old address back, every session ended, a reset token', async () => {
    const user = await createUser(ctx);
    const thiefEmail = `taken-${Date.now()}@example.com`;
    await changeEmail(user, { email: thiefEmail, current_password: defaultPassword });
    const thiefSession = json<Envelope>(
      await post('/api/v1/auth/login', { email: thiefEmail, password: defaultPassword }),
    ).data;
    // The thief asks for a reset link on their address and changes the address once more.
    await post('/api/v1/auth/forgot_password', { email: thiefEmail });
    const thiefReset = (await linkFromMail(ctx, thiefEmail, 'reset-password')).split('/').at(-1) ?? '';
    const thiefHeaders = { authorization: `Bearer ${thiefSession.token}` };
    await changeEmail(
      { auth: thiefHeaders },
      { email: `again-${thiefEmail}`, current_password: defaultPassword },
    );
    const thiefUndo = new URL(await linkFromMail(ctx, thiefEmail, 'undo-email-change')).searchParams.get(
      'token',
    );

    const token = new URL(await linkFromMail(ctx, user.user.email, 'undo-email-change')).searchParams.get(
      'token',
    );
    const reverted = await post('/api/v1/users/email/revert', { token });
    expect(reverted.statusCode).toBe(200);
    const data = json<Envelope>(reverted).data;
    expect(data).toMatchObject({ message: authMessages.emailReverted, email: user.user.email });
    expect(json<Envelope>(await me(user.token)).error.code).toBe('REVOKED_TOKEN');
    expect(json<Envelope>(await me(String(thiefSession.token))).error.code).toBe('REVOKED_TOKEN');
    const renewed = await post('/api/v1/auth/refresh', { refresh_token: thiefSession.refresh_token });
    expect(json<Envelope>(renewed).error).toMatchObject({
      code: 'REVOKED_TOKEN',
      message: signedInSessionMessages.emailChangeReverted,
    });

    // The thief's links are void: their reset link and the undo link mailed to their address.
    const thiefResetTry = await post('/api/v1/auth/reset_password', {
      token: thiefReset,
      password: 'Thief1234',
      password_confirmation: 'Thief1234',
    });
    expect(thiefResetTry.statusCode).toBe(400);
    const thiefUndoTry = await post('/api/v1/users/email/revert', { token: thiefUndo });
    expect(thiefUndoTry.statusCode).toBe(400);

    // The owner chooses a new password with the answered token and signs in on the old address.
    const reset = await post('/api/v1/auth/reset_password', {
      token: data.reset_token,
      password: 'Reclaimed1',
      password_confirmation: 'Reclaimed1',
    });
    expect(reset.statusCode).toBe(200);
    const login = await post('/api/v1/auth/login', { email: user.user.email, password: 'Reclaimed1' });
    expect(json<Envelope>(login).data.user).toMatchObject({ email: user.user.email, email_verified: true });

    const again = await post('/api/v1/users/email/revert', { token });
    expect(again.statusCode).toBe(400);
    expect(json<Envelope>(again).error).toMatchObject({
      code: 'BAD_REQUEST',
      message: authMessages.emailRevertInvalid,
      details: [{ field: 'token', message: authMessages.emailRevertInvalid }],
    });
  });

  it('keeps the old address for its owner while the undo link lasts: nobody registers it meanwhile', async () => {
    const user = await createUser(ctx);
    const moved = await changeEmail(user, {
      email: `moved-${Date.now()}@example.com`,
      current_password: defaultPassword,
    });
    expect(moved.statusCode, moved.body).toBe(200);
    const squat = await post('/api/v1/auth/register', registration({ email: user.user.email.toUpperCase() }));
    expect(squat.statusCode).toBe(422);
    expect(json<Envelope>(squat).error.details).toEqual([
      { field: 'email', message: authMessages.emailTaken },
    ]);
    const other = await createUser(ctx);
    const taken = await changeEmail(other, { email: user.user.email, current_password: defaultPassword });
    expect(taken.statusCode).toBe(422);

    const token = new URL(await linkFromMail(ctx, user.user.email, 'undo-email-change')).searchParams.get(
      'token',
    );
    const reverted = await post('/api/v1/users/email/revert', { token });
    expect(reverted.statusCode, reverted.body).toBe(200);
    expect(json<Envelope>(reverted).data).toMatchObject({ email: user.user.email });
  });

  it('frees the old address once the undo link has expired', async () => {
    const user = await createUser(ctx);
    await changeEmail(user, { email: `gone-${Date.now()}@example.com`, current_password: defaultPassword });
    clockOffsetMs = 8 * 24 * 3600_000;
    try {
      const later = await post('/api/v1/auth/register', registration({ email: user.user.email }));
      expect(later.statusCode, later.body).toBe(201);
    } finally {
      clockOffsetMs = 0;
    }
  });

  it('never lets a registration racing an email change take the address from under its undo link', async () => {
    for (let round = 0; round < 5; round += 1) {
      const user = await createUser(ctx);
      const [moved, squat] = await Promise.all([
        changeEmail(user, {
          email: `race-${round}-${Date.now()}@example.com`,
          current_password: defaultPassword,
        }),
        post('/api/v1/auth/register', registration({ email: user.user.email })),
      ]);
      expect(moved.statusCode, moved.body).toBe(200);
      expect(squat.statusCode, squat.body).toBe(422);
    }
  });

  it('changes the password with the current one and ends other sessions only', async () => {
    const user = await createUser(ctx);
    const second = json<Envelope>(
      await post('/api/v1/auth/login', { email: user.user.email, password: defaultPassword }),
    ).data;
    const change = (current: string) =>
      ctx.app.inject({
        method: 'PUT',
        url: '/api/v1/users/me/password',
        headers: user.auth,
        payload: { current_password: current, password: 'Changed123', password_confirmation: 'Changed123' },
      });
    const wrong = await change('Nope12345');
    expect(wrong.statusCode).toBe(422);
    expect(json<Envelope>(wrong).error.details).toEqual([
      { field: 'current_password', message: authMessages.currentPasswordWrong },
    ]);
    const ok = await change(defaultPassword);
    expect(ok.statusCode).toBe(200);
    expect(json<Envelope>(ok).data.message).toBe('Password changed successfully!');
    expect((await ctx.app.inject({ url: '/api/v1/auth/me', headers: user.auth })).statusCode).toBe(200);
    const otherSession = await ctx.app.inject({
      url: '/api/v1/auth/me',
      headers: { authorization: `Bearer ${second.token}` },
    });
    expect(json<Envelope>(otherSession).error.code).toBe('REVOKED_TOKEN');
    // The other device, renewing its session, is told why in plain words.
    const renewed = await post('/api/v1/auth/refresh', { refresh_token: second.refresh_token });
    expect(json<Envelope>(renewed).error).toMatchObject({
      code: 'REVOKED_TOKEN',
      message: signedInSessionMessages.passwordChangedElsewhere,
    });
  });

  it('refuses a new password equal to the current one, on the new password field, and keeps every sign-in', async () => {
    const user = await createUser(ctx);
    const second = json<Envelope>(
      await post('/api/v1/auth/login', { email: user.user.email, password: defaultPassword }),
    ).data;
    const same = await ctx.app.inject({
      method: 'PUT',
      url: '/api/v1/users/me/password',
      headers: user.auth,
      payload: {
        current_password: defaultPassword,
        password: defaultPassword,
        password_confirmation: defaultPassword,
      },
    });
    expect(same.statusCode, same.body).toBe(422);
    expect(json<Envelope>(same).error.details).toEqual([
      { field: 'password', message: passwordMessages.sameAsCurrent },
    ]);
    const otherSession = await ctx.app.inject({
      url: '/api/v1/auth/me',
      headers: { authorization: `Bearer ${second.token}` },
    });
    expect(otherSession.statusCode).toBe(200);
  });

  it('lets only one of two racing changes from the same current password through', async () => {
    const user = await createUser(ctx);
    const change = (password: string) =>
      ctx.app.inject({
        method: 'PUT',
        url: '/api/v1/users/me/password',
        headers: user.auth,
        payload: { current_password: defaultPassword, password, password_confirmation: password },
      });
    const answers = await Promise.all([change('Racing111'), change('Racing222')]);
    const statuses = answers.map((answer) => answer.statusCode);
    expect(statuses.toSorted()).toEqual([200, 422]);
    const refused = answers.find((answer) => answer.statusCode === 422);
    expect(json<Envelope>(refused as (typeof answers)[number]).error.details).toEqual([
      { field: 'current_password', message: authMessages.currentPasswordWrong },
    ]);
    const winner = statuses[0] === 200 ? 'Racing111' : 'Racing222';
    const loser = winner === 'Racing111' ? 'Racing222' : 'Racing111';
    expect((await post('/api/v1/auth/login', { email: user.user.email, password: winner })).statusCode).toBe(
      200,
    );
    expect((await post('/api/v1/auth/login', { email: user.user.email, password: loser })).statusCode).toBe(
      401,
    );
  });
});
