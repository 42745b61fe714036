import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authSessions, refreshTokens } from '../../db/schema/accounts.js';
import { createUser, type SignedInUser, upgrade } from '../../test/factories.js';
import { buildTestApp, callApi, json, type TestContext } from '../../test/helper.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await buildTestApp();
});
afterAll(async () => ctx.close());

const phone =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';
const laptop = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';

interface Device {
  token: string;
  refresh_token: string;
  auth: { authorization: string };
}

/** A sign-in from a browser, as the web app makes it: its user agent names the device. */
async function signInFrom(user: SignedInUser, userAgent: string): Promise<Device> {
  const response = await ctx.app.inject({
    method: 'POST',
    url: '/api/v1/auth/login',
    headers: { 'user-agent': userAgent },
    payload: { email: user.user.email, password: user.password },
  });
  expect(response.statusCode).toBe(200);
  const session = json<{ data: { token: string; refresh_token: string } }>(response).data;
  return { ...session, auth: { authorization: `Bearer ${session.token}` } };
}

type Listed = {
  id: string;
  device: string;
  current: boolean;
  ip_address: string | null;
  user_agent: string | null;
};
async function listed(device: { auth: { authorization: string } }): Promise<Listed[]> {
  const response = await callApi(ctx, 'GET', '/users/me/sessions', device);
  expect(response.statusCode).toBe(200);
  return json<{ data: Listed[] }>(response).data;
}

const refresh = (device: Device) =>
  callApi(ctx, 'POST', '/auth/refresh', undefined, { refresh_token: device.refresh_token });

describe('GET /users/me/sessions', () => {
  it('lists every live sign-in of the account, this one first, named by its browser', async () => {
    const user = await createUser(ctx);
    const onPhone = await signInFrom(user, phone);
    const onLaptop = await signInFrom(user, laptop);
    const stranger = await createUser(ctx);
    await signInFrom(stranger, phone);

    const seenFromLaptop = await listed(onLaptop);
    // The registration's own session (no user agent), the phone and the laptop; none of the stranger's.
    expect(seenFromLaptop).toHaveLength(3);
    expect(seenFromLaptop[0]).toMatchObject({
      device: 'Firefox on Windows',
      current: true,
      user_agent: laptop,
    });
    expect(seenFromLaptop.filter((s) => s.current)).toHaveLength(1);
    expect(seenFromLaptop.map((s) => s.device).sort()).toEqual(
      ['Chrome on Android', 'Firefox on Windows', 'Unknown device'].sort(),
    );
    expect(seenFromLaptop.every((s) => s.ip_address === '127.0.0.1' || s.ip_address === null)).toBe(true);

    const seenFromPhone = await listed(onPhone);
    expect(seenFromPhone[0]).toMatchObject({ device: 'Chrome on Android', current: true });
  });

  it('leaves out ended sessions and sessions whose refresh token ran out', async () => {
    const user = await createUser(ctx);
    const onPhone = await signInFrom(user, phone);
    const onLaptop = await signInFrom(user, laptop);
    await signInFrom(user, 'curl/8.5.0');
    expect((await callApi(ctx, 'DELETE', '/auth/logout', onPhone)).statusCode).toBe(204);
    const [lapsedSession] = (await listed(onLaptop)).filter((s) => s.device === 'curl/8.5.0');
    expect(lapsedSession).toBeDefined();
    await ctx.database.db
      .update(refreshTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(refreshTokens.sessionId, lapsedSession?.id ?? ''));
    expect((await listed(onLaptop)).map((s) => s.device).sort()).toEqual(
      ['Firefox on Windows', 'Unknown device'].sort(),
    );
  });

  it('is not for API tokens: a token is not a device', async () => {
    const user = await createUser(ctx);
    await upgrade(ctx, user, 'tier_3');
    const created = await callApi(ctx, 'POST', '/users/me/api_tokens', user, {
      api_token: { name: 'script', scope: 'read_write', expires_in_days: 7 },
    });
    expect(created.statusCode).toBe(201);
    const secret = json<{ data: { token: string } }>(created).data.token;
    const asToken = { auth: { authorization: `Bearer ${secret}` } };
    for (const [method, url] of [
      ['GET', '/users/me/sessions'],
      ['POST', '/users/me/sessions/sign_out_others'],
      ['DELETE', `/users/me/sessions/${user.user.id}`],
    ] as const) {
      const response = await callApi(ctx, method, url, asToken);
      expect([url, response.statusCode]).toEqual([url, 403]);
    }
    expect(await listed(user)).toHaveLength(1);
  });

  it('asks for a sign-in', async () => {
    expect((await callApi(ctx, 'GET', '/users/me/sessions')).statusCode).toBe(401);
  });
});

describe('DELETE /users/me/sessions/{id}', () => {
  it('signs one other device out: its access and refresh tokens stop working, the rest stay', async () => {
    const user = await createUser(ctx);
    const onPhone = await signInFrom(user, phone);
    const onLaptop = await signInFrom(user, laptop);
    const phoneSession = (await listed(onLaptop)).find((s) => s.device === 'Chrome on Android');
    const ended = await callApi(ctx, 'DELETE', `/users/me/sessions/${phoneSession?.id}`, onLaptop);
    expect(ended.statusCode).toBe(204);

    const fromPhone = await callApi(ctx, 'GET', '/auth/me', onPhone);
    expect(fromPhone.statusCode).toBe(401);
    // The phone learns why when it tries to renew its session.
    const renewal = await refresh(onPhone);
    expect(renewal.statusCode).toBe(401);
    expect(json<{ error: { code: string; message: string } }>(renewal).error).toMatchObject({
      code: 'REVOKED_TOKEN',
      message: 'You were signed out from another device. Sign in again to continue.',
    });
    expect((await callApi(ctx, 'GET', '/auth/me', onLaptop)).statusCode).toBe(200);
    expect((await callApi(ctx, 'GET', '/auth/me', user)).statusCode).toBe(200);
    expect((await listed(onLaptop)).some((s) => s.id === phoneSession?.id)).toBe(false);
    const [row] = await ctx.database.db
      .select()
      .from(authSessions)
      .where(eq(authSessions.id, phoneSession?.id ?? ''));
    expect(row?.revokedReason).toBe('signed_out_from_another_device');
  });

  it('answers 404 for another account’s session, an ended one or a made-up id, and ends nothing', async () => {
    const user = await createUser(ctx);
    const stranger = await createUser(ctx);
    const strangerPhone = await signInFrom(stranger, phone);
    const strangerSession = (await listed(strangerPhone)).find((s) => s.current);
    const theirs = await callApi(ctx, 'DELETE', `/users/me/sessions/${strangerSession?.id}`, user);
    expect(theirs.statusCode).toBe(404);
    expect(json<{ error: { message: string } }>(theirs).error.message).toBe(
      'This device is already signed out.',
    );
    expect((await callApi(ctx, 'GET', '/auth/me', strangerPhone)).statusCode).toBe(200);

    const onPhone = await signInFrom(user, phone);
    const phoneSession = (await listed(onPhone)).find((s) => s.current);
    expect((await callApi(ctx, 'DELETE', `/users/me/sessions/${phoneSession?.id}`, user)).statusCode).toBe(
      204,
    );
    expect((await callApi(ctx, 'DELETE', `/users/me/sessions/${phoneSession?.id}`, user)).statusCode).toBe(
      404,
    );
    expect(
      (await callApi(ctx, 'DELETE', '/users/me/sessions/00000000-0000-4000-8000-000000000000', user))
        .statusCode,
    ).toBe(404);
    const malformed = await callApi(ctx, 'DELETE', '/users/me/sessions/not-an-id', user);
    expect(malformed.statusCode).toBe(422);
    expect((await callApi(ctx, 'GET', '/auth/me', user)).statusCode).toBe(200);
  });

  it('signing out this very device is a sign-out', async () => {
    const user = await createUser(ctx);
    const onPhone = await signInFrom(user, phone);
    const current = (await listed(onPhone)).find((s) => s.current);
    expect((await callApi(ctx, 'DELETE', `/users/me/sessions/${current?.id}`, onPhone)).statusCode).toBe(204);
    expect((await callApi(ctx, 'GET', '/auth/me', onPhone)).statusCode).toBe(401);
    expect((await callApi(ctx, 'GET', '/auth/me', user)).statusCode).toBe(200);
  });
});

describe('POST /users/me/sessions/sign_out_others', () => {
  it('ends every other sign-in and keeps this one', async () => {
    const user = await createUser(ctx);
    const onPhone = await signInFrom(user, phone);
    const onLaptop = await signInFrom(user, laptop);
    const response = await callApi(ctx, 'POST', '/users/me/sessions/sign_out_others', onLaptop);
    expect(response.statusCode).toBe(200);
    expect(json(response)).toMatchObject({
      data: { ended: 2, message: 'Signed out of 2 other devices. Your API tokens keep working.' },
      message: 'Signed out of 2 other devices. Your API tokens keep working.',
    });
    expect((await callApi(ctx, 'GET', '/auth/me', onPhone)).statusCode).toBe(401);
    expect((await callApi(ctx, 'GET', '/auth/me', user)).statusCode).toBe(401);
    expect((await refresh(onPhone)).statusCode).toBe(401);
    expect((await callApi(ctx, 'GET', '/auth/me', onLaptop)).statusCode).toBe(200);
    expect((await refresh(onLaptop)).statusCode).toBe(200);
    expect((await listed(onLaptop)).map((s) => s.current)).toEqual([true]);

    const again = await callApi(ctx, 'POST', '/users/me/sessions/sign_out_others', onLaptop);
    expect(json(again)).toMatchObject({ data: { ended: 0, message: 'No other device was signed in.' } });
  });

  it('leaves API tokens working: they belong to automations, not devices, and are revoked on their own', async () => {
    const user = await createUser(ctx);
    await upgrade(ctx, user, 'tier_2');
    const created = await callApi(ctx, 'POST', '/users/me/api_tokens', user, {
      api_token: { name: 'Nightly backup', scope: 'read', expires_in_days: 30 },
    });
    expect(created.statusCode, created.body).toBe(201);
    const script = {
      auth: { authorization: `Bearer ${json<{ data: { token: string } }>(created).data.token}` },
    };
    const onLaptop = await signInFrom(user, laptop);
    const response = await callApi(ctx, 'POST', '/users/me/sessions/sign_out_others', onLaptop);
    expect(json(response)).toMatchObject({
      data: { ended: 1, message: 'Signed out of 1 other device. Your API tokens keep working.' },
    });
    expect((await callApi(ctx, 'GET', '/auth/me', user)).statusCode).toBe(401);
    expect((await callApi(ctx, 'GET', '/characters', script)).statusCode).toBe(200);
  });
});
