import { afterEach, describe, expect, it } from 'vitest';
import { createParty, createUser, defaultPassword, type SignedInUser, upgrade } from '../test/factories.js';
import { buildTestApp, fileDatabase, type TestContext } from '../test/helper.js';
import { defaultAuthRateLimits } from './rate-limit.js';

// The limits are counted in each app's memory: every test builds its own app, with its own limits, on the
// file's one database, and makes users of its own there: none depends on what another wrote.
const database = fileDatabase();

let ctx: TestContext | undefined;
const currentApp = () => {
  if (!ctx) throw new Error('no app built yet');
  return ctx.app;
};
afterEach(async () => {
  await ctx?.close();
  ctx = undefined;
});

const login = (app: TestContext['app'], email: string, forwardedFor?: string, password = 'Wrong1234') =>
  app.inject({
    method: 'POST',
    url: '/api/v1/auth/login',
    payload: { email, password },
    headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {},
  });

const expectLimited = (response: {
  statusCode: number;
  json: () => unknown;
  headers: Record<string, unknown>;
}) => {
  expect(response.statusCode).toBe(429);
  expect(response.json()).toMatchObject({ status: 'error', error: { code: 'RATE_LIMITED', status: 429 } });
  expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
};

describe('auth rate limits', () => {
  it('limits login attempts per email and address with RATE_LIMITED and Retry-After', async () => {
    ctx = await buildTestApp({ database: database(), rateLimits: { loginFailuresPerPair: 2 } });
    expect((await login(ctx.app, 'target@example.com')).statusCode).toBe(401);
    expect((await login(ctx.app, 'TARGET@example.com')).statusCode).toBe(401);
    const limited = await login(ctx.app, 'target@example.com');
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ status: 'error', error: { code: 'RATE_LIMITED', status: 429 } });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Another email is not affected.
    expect((await login(ctx.app, 'other@example.com')).statusCode).toBe(401);
  });

  it('never locks the owner out from another address, and a success clears its own address', async () => {
    ctx = await buildTestApp({
      database: database(),
      rateLimits: { loginFailuresPerPair: 3 },
      env: { TRUST_PROXY: 'true' },
    });
    const owner = await createUser(ctx);
    const email = owner.user.email;
    for (let i = 0; i < 3; i += 1) expect((await login(ctx.app, email, '10.6.0.66')).statusCode).toBe(401);
    expectLimited(await login(ctx.app, email, '10.6.0.66'));
    // The attacker's address is refused even with the right password; the owner elsewhere is not.
    expectLimited(await login(ctx.app, email, '10.6.0.66', defaultPassword));
    expect((await login(ctx.app, email, '10.6.0.1', defaultPassword)).statusCode).toBe(200);

    // The owner's typos at home are forgotten once they get it right.
    for (let i = 0; i < 2; i += 1) expect((await login(ctx.app, email, '10.6.0.1')).statusCode).toBe(401);
    expect((await login(ctx.app, email, '10.6.0.1', defaultPassword)).statusCode).toBe(200);
    for (let i = 0; i < 3; i += 1) expect((await login(ctx.app, email, '10.6.0.1')).statusCode).toBe(401);
    expect((await login(ctx.app, email, '10.6.0.1', defaultPassword)).statusCode).toBe(429);
  });

  it('slows down, without refusing, guesses for one email spread over many addresses', async () => {
    ctx = await buildTestApp({
      database: database(),
      rateLimits: { loginSlowdownAfter: 3, loginSlowdownBaseMs: 1500, loginSlowdownMaxMs: 2500 },
      env: { TRUST_PROXY: 'true' },
    });
    const owner = await createUser(ctx);
    const timed = async (address: string, password?: string) => {
      const started = performance.now();
      const response = await login(currentApp(), owner.user.email, address, password);
      return { status: response.statusCode, ms: performance.now() - started };
    };
    for (let i = 0; i < 3; i += 1) expect((await timed(`10.7.0.${i}`)).status).toBe(401);
    const slowed = await timed('10.7.0.10');
    expect(slowed.status).toBe(401);
    expect(slowed.ms).toBeGreaterThanOrEqual(1490);
    const owners = await timed('10.7.0.20', defaultPassword);
    expect(owners.status).toBe(200);
    expect(owners.ms).toBeGreaterThanOrEqual(2490);
  });

  it('limits guesses of the current password per user across password and email changes', async () => {
    ctx = await buildTestApp({ database: database(), rateLimits: { passwordGuessPerUser: 3 } });
    const user = await createUser(ctx);
    const other = await createUser(ctx);
    const changePassword = (who: SignedInUser, current: string) =>
      currentApp().inject({
        method: 'PUT',
        url: '/api/v1/users/me/password',
        headers: who.auth,
        payload: { current_password: current, password: 'Changed123', password_confirmation: 'Changed123' },
      });
    const changeEmail = (who: SignedInUser, current: string) =>
      currentApp().inject({
        method: 'PATCH',
        url: '/api/v1/users/me',
        headers: who.auth,
        payload: { user: { email: `new-${who.user.email}`, current_password: current } },
      });
    expect((await changePassword(user, 'Guess0001')).statusCode).toBe(422);
    expect((await changeEmail(user, 'Guess0002')).statusCode).toBe(422);
    expect((await changePassword(user, 'Guess0003')).statusCode).toBe(422);
    expectLimited(await changePassword(user, defaultPassword));
    expectLimited(await changeEmail(user, defaultPassword));
    // A username change carries no password and is not a guess.
    const renamed = await ctx.app.inject({
      method: 'PATCH',
      url: '/api/v1/users/me',
      headers: user.auth,
      payload: { user: { username: `renamed_${Date.now() % 100000}` } },
    });
    expect(renamed.statusCode).toBe(200);
    expect((await changePassword(other, 'Guess0004')).statusCode).toBe(422);
  });

  it('limits guesses of the current password per address', async () => {
    ctx = await buildTestApp({ database: database(), rateLimits: { passwordGuessPerIp: 2 } });
    const users = [await createUser(ctx), await createUser(ctx), await createUser(ctx)];
    const statuses = [];
    for (const user of users) {
      const response = await ctx.app.inject({
        method: 'PUT',
        url: '/api/v1/users/me/password',
        headers: user.auth,
        payload: {
          current_password: 'Guess0001',
          password: 'Changed123',
          password_confirmation: 'Changed123',
        },
      });
      statuses.push(response.statusCode);
    }
    expect(statuses).toEqual([422, 422, 429]);
  });

  describe('join codes', () => {
    type Guess = 'preview by code' | 'preview by id' | 'join';
    const guesses: Guess[] = ['preview by code', 'preview by id', 'join'];
    const guess = async (kind: Guess, user: SignedInUser, partyId: string, address?: string) => {
      const headers = { ...user.auth, ...(address ? { 'x-forwarded-for': address } : {}) };
      if (kind === 'join') {
        return currentApp().inject({
          method: 'POST',
          url: '/api/v1/parties/join',
          headers,
          payload: { join_code: 'ZZZZZZZZ' },
        });
      }
      const query = kind === 'preview by id' ? `id=${partyId}` : 'join_code=ZZZZZZZZ';
      return currentApp().inject({ url: `/api/v1/parties/preview?${query}`, headers });
    };

    it.each(guesses)('limits %s per user', async (kind) => {
      ctx = await buildTestApp({ database: database(), rateLimits: { joinCodePerUser: 3 } });
      const gm = await createUser(ctx);
      const party = await createParty(ctx, gm, { is_public: true });
      const user = await createUser(ctx);
      for (let i = 0; i < 3; i += 1) expect((await guess(kind, user, party.id)).statusCode).not.toBe(429);
      expectLimited(await guess(kind, user, party.id));
      // Previews and joins spend one budget.
      for (const other of guesses) expectLimited(await guess(other, user, party.id));
      expect((await guess(kind, await createUser(ctx), party.id)).statusCode).not.toBe(429);
    });

    it.each(guesses)('limits %s per address', async (kind) => {
      ctx = await buildTestApp({
        database: database(),
        rateLimits: { joinCodePerIp: 3 },
        env: { TRUST_PROXY: 'true' },
      });
      const gm = await createUser(ctx);
      const party = await createParty(ctx, gm, { is_public: true });
      for (let i = 0; i < 3; i += 1) {
        const response = await guess(kind, await createUser(ctx), party.id, '10.8.0.1');
        expect(response.statusCode).not.toBe(429);
      }
      expectLimited(await guess(kind, await createUser(ctx), party.id, '10.8.0.1'));
      expect((await guess(kind, await createUser(ctx), party.id, '10.8.0.2')).statusCode).not.toBe(429);
    });
  });

  describe('party invitations', () => {
    const invite = (who: SignedInUser, partyId: string, email: string, address?: string) =>
      currentApp().inject({
        method: 'POST',
        url: `/api/v1/parties/${partyId}/invitations`,
        headers: { ...who.auth, ...(address ? { 'x-forwarded-for': address } : {}) },
        payload: { party_invitation: { email } },
      });

    it('lets a GM invite a table but stops probing emails, per user, for an hour', async () => {
      ctx = await buildTestApp({ database: database() });
      const budget = defaultAuthRateLimits.invitationsPerUser;
      const gm = await createUser(ctx);
      await upgrade(ctx, gm, 'tier_1');
      const party = await createParty(ctx, gm, { join_permission: 'restricted' });
      // A table of eight players, and a few typos on the way: all answered.
      for (let i = 0; i < 8; i += 1) {
        const player = await createUser(ctx);
        expect((await invite(gm, party.id, player.user.email)).statusCode).toBe(201);
      }
      for (let i = 0; i < 4; i += 1) {
        expect((await invite(gm, party.id, `typo-${i}@example.com`)).statusCode).toBe(422);
      }
      // Probing on, found or not, until the budget is spent (in another party too: the budget is the user's).
      const second = await createParty(ctx, gm, { join_permission: 'restricted' });
      for (let i = 12; i < budget; i += 1) {
        expect((await invite(gm, second.id, `probe-${i}@example.com`)).statusCode).toBe(422);
      }
      const found = await createUser(ctx);
      const refused = await invite(gm, party.id, found.user.email);
      expectLimited(refused);
      expect(refused.json()).toEqual({
        status: 'error',
        error: expect.objectContaining({ type: expect.any(String), message: expect.any(String) }),
      });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(15 * 60);
      expectLimited(await invite(gm, second.id, 'probe-more@example.com'));
      // Nothing was written by the refused call.
      const pending = await currentApp().inject({ url: '/api/v1/invitations', headers: found.auth });
      expect(pending.json().data).toEqual([]);

      // Another GM is not affected.
      const otherGm = await createUser(ctx);
      const otherParty = await createParty(ctx, otherGm, { join_permission: 'restricted' });
      expect((await invite(otherGm, otherParty.id, found.user.email)).statusCode).toBe(201);
    });

    it('limits invitations per address', async () => {
      ctx = await buildTestApp({
        database: database(),
        rateLimits: { invitationsPerIp: 3 },
        env: { TRUST_PROXY: 'true' },
      });
      const statuses = [];
      for (let i = 0; i < 4; i += 1) {
        const gm = await createUser(ctx);
        const party = await createParty(ctx, gm);
        statuses.push((await invite(gm, party.id, `probe-${i}@example.com`, '10.9.0.1')).statusCode);
      }
      expect(statuses).toEqual([422, 422, 422, 429]);
      const gm = await createUser(ctx);
      const party = await createParty(ctx, gm);
      expect((await invite(gm, party.id, 'probe@example.com', '10.9.0.2')).statusCode).toBe(422);
    });
  });

  it('ignores X-Forwarded-For unless TRUST_PROXY is set', async () => {
    ctx = await buildTestApp({ database: database(), rateLimits: { loginPerIp: 2 } });
    await login(ctx.app, 'a@example.com', '10.0.0.1');
    await login(ctx.app, 'b@example.com', '10.0.0.2');
    expect((await login(ctx.app, 'c@example.com', '10.0.0.3')).statusCode).toBe(429);
  });

  it('limits per forwarded address behind a trusted proxy', async () => {
    ctx = await buildTestApp({
      database: database(),
      rateLimits: { loginPerIp: 2 },
      env: { TRUST_PROXY: 'true' },
    });
    await login(ctx.app, 'a@example.com', '10.0.0.1');
    await login(ctx.app, 'b@example.com', '10.0.0.1');
    expect((await login(ctx.app, 'c@example.com', '10.0.0.1')).statusCode).toBe(429);
    expect((await login(ctx.app, 'd@example.com', '10.0.0.2')).statusCode).toBe(401);
  });

  it('gives registration its own per-email budget, apart from forgot-password’s (issue 14)', async () => {
    ctx = await buildTestApp({
      database: database(),
      rateLimits: { registerPerEmail: 2, forgotPerEmail: 1 },
    });
    const register = (email: string, n: number) =>
      currentApp().inject({
        method: 'POST',
        url: '/api/v1/auth/register',
        payload: {
          user: { email, username: `twin_${n}`, password: 'Dragons1', password_confirmation: 'Dragons1' },
        },
      });
    const forgot = () =>
      currentApp().inject({
        method: 'POST',
        url: '/api/v1/auth/forgot_password',
        payload: { email: 'twin@example.com' },
      });
    expect((await forgot()).statusCode).toBe(200);
    expect((await register('twin@example.com', 1)).statusCode).toBe(201);
    expect((await register('TWIN@example.com', 2)).statusCode).toBe(422);
    expectLimited(await register(' twin@example.com', 3));
    expect((await register('other@example.com', 4)).statusCode).toBe(201);
  });

  it('limits forgot-password per email and reset per token', async () => {
    ctx = await buildTestApp({ database: database(), rateLimits: { forgotPerEmail: 1, resetPerToken: 1 } });
    const forgot = () =>
      ctx?.app.inject({
        method: 'POST',
        url: '/api/v1/auth/forgot_password',
        payload: { email: 'x@example.com' },
      });
    expect((await forgot())?.statusCode).toBe(200);
    expect((await forgot())?.statusCode).toBe(429);
    const reset = () =>
      ctx?.app.inject({
        method: 'POST',
        url: '/api/v1/auth/reset_password',
        payload: { token: 'guess', password: 'Guessing1', password_confirmation: 'Guessing1' },
      });
    expect((await reset())?.statusCode).toBe(400);
    expect((await reset())?.statusCode).toBe(429);
  });
});
