import { authMessages, discordMessages } from '@haversack/contracts';
import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../db/schema/accounts.js';
import { createUser, type SignedInUser } from '../../test/factories.js';
import { closedBaseUrl, FakeDiscord, type FakeDiscordUser } from '../../test/fake-discord.js';
import { buildTestApp, callApi, linkFromMail, readMails, type TestContext } from '../../test/helper.js';
import { OAUTH_STATE_COOKIE, OAUTH_STATE_TTL_S } from './discord-oauth-state.js';

interface Body {
  data: {
    authorization_url: string;
    mode: 'login' | 'link';
    created: boolean;
    session: {
      token: string;
      refresh_token: string;
      user: { id: string; email: string; username: string; email_verified: boolean };
    };
    account: { discord_user_id: string; username: string } | null;
    redirect?: string;
    has_password: boolean;
    discord: { sign_in: boolean; interactions: boolean; invite_url: string | null };
  };
  error: { code: string; message: string; details?: { field: string; message: string }[] };
}
const body = (response: LightMyRequestResponse) => response.json() as Body;

let discord: FakeDiscord;
let ctx: TestContext;
let clockOffsetMs = 0;
let nextDiscordId = 100_000;

beforeAll(async () => {
  discord = await new FakeDiscord().start();
  ctx = await buildTestApp({
    env: {
      DISCORD_CLIENT_ID: discord.clientId,
      DISCORD_CLIENT_SECRET: discord.clientSecret,
      DISCORD_API_BASE_URL: discord.baseUrl,
    },
    now: () => new Date(Date.now() + clockOffsetMs),
  });
});
afterAll(async () => {
  await ctx.close();
  await discord.stop();
});

const discordUser = (overrides: Partial<FakeDiscordUser> = {}): FakeDiscordUser => {
  nextDiscordId += 1;
  return {
    id: String(nextDiscordId),
    username: `pip.${nextDiscordId}`,
    email: `pip-${nextDiscordId}@discord.example`,
    verified: true,
    ...overrides,
  };
};

/** The state cookie the start call set, as the browser would send it back. */
function stateCookie(response: LightMyRequestResponse): string {
  const header = response.headers['set-cookie'];
  const value = (Array.isArray(header) ? header : [header]).find((c) =>
    c?.startsWith(`${OAUTH_STATE_COOKIE}=`),
  );
  if (!value) throw new Error('no state cookie');
  return value.split(';')[0] ?? '';
}

async function start(mode: 'login' | 'link', user?: SignedInUser) {
  const response = await ctx.app.inject({
    method: 'POST',
    url: '/api/v1/auth/discord/start',
    payload: { mode },
    ...(user ? { headers: user.auth } : {}),
  });
  return { response, cookie: response.statusCode === 200 ? stateCookie(response) : '' };
}

function callback(payload: { code: string; state: string }, cookie: string | undefined, user?: SignedInUser) {
  return ctx.app.inject({
    method: 'POST',
    url: '/api/v1/auth/discord/callback',
    payload,
    headers: { ...(cookie ? { cookie } : {}), ...(user ? user.auth : {}) },
  });
}

/** The whole round trip: start, consent on (the stand-in of) Discord, come back to the callback. */
async function signInWithDiscord(
  who: FakeDiscordUser,
  mode: 'login' | 'link' = 'login',
  user?: SignedInUser,
) {
  const started = await start(mode, user);
  expect(started.response.statusCode).toBe(200);
  const consent = discord.consent(body(started.response).data.authorization_url, who);
  return callback(consent, started.cookie, user);
}

const asUser = (session: { token: string }) => ({ auth: { authorization: `Bearer ${session.token}` } });

describe('GET /auth/providers', () => {
  it('says Discord sign-in is on when the client id and secret are set', async () => {
    const response = await callApi(ctx, 'GET', '/auth/providers');
    expect(response.statusCode).toBe(200);
    expect(body(response).data.discord).toMatchObject({ sign_in: true, interactions: false });
    expect(body(response).data.discord.invite_url).toContain(`client_id=${discord.clientId}`);
  });

  it('says it is off, and refuses to start, on a server without them', async () => {
    const bare = await buildTestApp();
    try {
      const providers = await callApi(bare, 'GET', '/auth/providers');
      expect(body(providers).data.discord).toMatchObject({ sign_in: false, invite_url: null });
      const started = await callApi(bare, 'POST', '/auth/discord/start', undefined, { mode: 'login' });
      expect(started.statusCode).toBe(404);
      expect(body(started).error.message).toBe(discordMessages.notConfigured);
      const redirected = await bare.app.inject({ method: 'GET', url: '/api/v1/auth/discord/start' });
      expect(redirected.statusCode).toBe(302);
      expect(redirected.headers.location).toBe(
        'http://haversack.test/auth/discord/callback?error=not_configured',
      );
    } finally {
      await bare.close();
    }
  });
});

describe('starting a Discord sign-in', () => {
  it("sends the browser to Discord's authorize URL with state, PKCE (S256) and scopes identify email", async () => {
    const { response, cookie } = await start('login');
    const url = new URL(body(response).data.authorization_url);
    expect(`${url.origin}${url.pathname}`).toBe(`${discord.baseUrl}/oauth2/authorize`);
    expect(url.searchParams.get('client_id')).toBe(discord.clientId);
    expect(url.searchParams.get('response_type')).toBe('code');
    expect(url.searchParams.get('redirect_uri')).toBe('http://haversack.test/auth/discord/callback');
    expect(url.searchParams.get('scope')).toBe('identify email');
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(url.searchParams.get('state')).toBeTruthy();
    const setCookie = String(response.headers['set-cookie']);
    expect(setCookie).toContain('HttpOnly');
    expect(setCookie).toContain('SameSite=Lax');
    expect(setCookie).toContain('Path=/api/v1/auth/discord');
    expect(cookie.length).toBeGreaterThan(40);
  });

  it('answers a plain link with a redirect to Discord and the cookie', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/v1/auth/discord/start?mode=login' });
    expect(response.statusCode).toBe(302);
    expect(String(response.headers.location)).toContain(`${discord.baseUrl}/oauth2/authorize?`);
    expect(stateCookie(response)).toContain(`${OAUTH_STATE_COOKIE}=`);
  });

  it('refuses to start linking without a signed-in user', async () => {
    const { response } = await start('link');
    expect(response.statusCode).toBe(401);
  });
});

describe('signing in with Discord', () => {
  it('creates an account the first time (verified email, username from Discord) and signs in to it after', async () => {
    const who = discordUser({ username: 'Pip.the.Bold' });
    const first = await signInWithDiscord(who);
    expect(first.statusCode).toBe(200);
    const { session, created, mode } = body(first).data;
    expect(mode).toBe('login');
    expect(created).toBe(true);
    expect(session.user.email).toBe(who.email);
    expect(session.user.email_verified).toBe(true);
    expect(session.user.username).toBe('Pip_the_Bold');
    expect(String(first.headers['set-cookie'])).toContain('Max-Age=0');

    // The session is an ordinary one: the access token works and the refresh token rotates.
    const me = await callApi(ctx, 'GET', '/auth/me', asUser(session));
    expect(me.statusCode).toBe(200);
    const refreshed = await callApi(ctx, 'POST', '/auth/refresh', undefined, {
      refresh_token: session.refresh_token,
    });
    expect(refreshed.statusCode).toBe(200);

    const again = await signInWithDiscord(who);
    expect(again.statusCode).toBe(200);
    expect(body(again).data.created).toBe(false);
    expect(body(again).data.session.user.id).toBe(session.user.id);
  });

  it('makes the username unique when it is taken', async () => {
    const taken = await createUser(ctx);
    const response = await signInWithDiscord(discordUser({ username: taken.user.username }));
    expect(response.statusCode).toBe(200);
    const username = body(response).data.session.user.username;
    expect(username).not.toBe(taken.user.username);
    expect(username.startsWith(`${taken.user.username}_`)).toBe(true);
  });

  it('gives a Discord user named like staff ("Admin") a player’s name instead', async () => {
    const response = await signInWithDiscord(discordUser({ username: 'Admin' }));
    expect(response.statusCode).toBe(200);
    expect(body(response).data.session.user.username).toMatch(/^player_Admin/);
  });

  it('keeps an email Discord has not verified unverified, and mails a verification link', async () => {
    const who = discordUser({ verified: false });
    const response = await signInWithDiscord(who);
    expect(response.statusCode).toBe(200);
    expect(body(response).data.session.user.email_verified).toBe(false);
    expect(await linkFromMail(ctx, String(who.email), 'verify-email')).toContain('token=');
  });

  it('never merges into an existing account with the same email', async () => {
    const existing = await createUser(ctx);
    const response = await signInWithDiscord(discordUser({ email: existing.user.email.toUpperCase() }));
    expect(response.statusCode).toBe(409);
    expect(body(response).error.message).toBe(discordMessages.emailTaken);
    const same = await ctx.database.db
      .select()
      .from(users)
      .where(eq(users.email, existing.user.email.toUpperCase()));
    expect(same).toHaveLength(0);
  });

  it('refuses a Discord account without an email address', async () => {
    const response = await signInWithDiscord(discordUser({ email: null }));
    expect(response.statusCode).toBe(400);
    expect(body(response).error.message).toBe(discordMessages.noEmail);
  });

  it('gives an account made through Discord no password: email and password sign-in fails', async () => {
    const who = discordUser();
    expect((await signInWithDiscord(who)).statusCode).toBe(200);
    const login = await callApi(ctx, 'POST', '/auth/login', undefined, {
      email: who.email,
      password: 'Adventure1',
    });
    expect(login.statusCode).toBe(401);
    expect(body(login).error.code).toBe('INVALID_CREDENTIALS');
  });
});

describe('coming back to where the sign-in started', () => {
  /** A sign-in started from /login?redirect=…: the web client passes the page the person was going to. */
  async function startTowards(redirect: string) {
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/auth/discord/start',
      payload: { mode: 'login', redirect },
    });
    return { response, cookie: response.statusCode === 200 ? stateCookie(response) : '' };
  }

  it('answers the page a party invite link asked for once the round trip through Discord is done', async () => {
    const started = await startTowards('/parties/join?code=AB12CD34');
    expect(started.response.statusCode).toBe(200);
    const consent = discord.consent(body(started.response).data.authorization_url, discordUser());
    const finished = await callback(consent, started.cookie);
    expect(finished.statusCode).toBe(200);
    expect(body(finished).data.mode).toBe('login');
    expect(body(finished).data.redirect).toBe('/parties/join?code=AB12CD34');
  });

  it('answers no page for a sign-in started without one', async () => {
    const finished = await signInWithDiscord(discordUser());
    expect(finished.statusCode).toBe(200);
    expect(body(finished).data).not.toHaveProperty('redirect');
  });

  it.each([
    'https://evil.example/parties/join',
    '//evil.example/parties/join',
    '/\\evil.example',
    '/%2F%2Fevil.example',
    '/\t/evil.example',
    'javascript:alert(1)',
    'parties/join',
  ])('refuses %j as the page to come back to: only a path of this site', async (redirect) => {
    const started = await startTowards(redirect);
    expect(started.response.statusCode).toBe(422);
    expect(body(started.response).error.details).toEqual([
      { field: 'redirect', message: 'The return address must be a page of this app.' },
    ]);
    expect(started.response.headers['set-cookie']).toBeUndefined();
  });
});

describe('a suspended account', () => {
  it('cannot sign in with Discord, and can again once the suspension is lifted', async () => {
    const who = discordUser();
    const first = await signInWithDiscord(who);
    expect(first.statusCode).toBe(200);
    const userId = body(first).data.session.user.id;
    await ctx.database.db
      .update(users)
      .set({ suspendedAt: new Date(), suspendedReason: 'test' })
      .where(eq(users.id, userId));
    const refused = await signInWithDiscord(who);
    expect(refused.statusCode).toBe(403);
    expect(body(refused).error.code).toBe('ACCOUNT_SUSPENDED');
    await ctx.database.db
      .update(users)
      .set({ suspendedAt: null, suspendedReason: null })
      .where(eq(users.id, userId));
    expect((await signInWithDiscord(who)).statusCode).toBe(200);
  });
});

describe('every failure of the flow ends on a clear message', () => {
  it('refuses a state that does not match the cookie', async () => {
    const started = await start('login');
    const { code } = discord.consent(body(started.response).data.authorization_url, discordUser());
    const response = await callback({ code, state: 'not-the-state' }, started.cookie);
    expect(response.statusCode).toBe(400);
    expect(body(response).error.message).toBe(discordMessages.stateInvalid);
  });

  it('refuses a callback without the cookie of the browser that started it', async () => {
    const started = await start('login');
    const consent = discord.consent(body(started.response).data.authorization_url, discordUser());
    const response = await callback(consent, undefined);
    expect(response.statusCode).toBe(400);
    expect(body(response).error.message).toBe(discordMessages.stateInvalid);
  });

  it('refuses a tampered cookie', async () => {
    const started = await start('login');
    const consent = discord.consent(body(started.response).data.authorization_url, discordUser());
    const response = await callback(consent, `${started.cookie.slice(0, -3)}abc`);
    expect(response.statusCode).toBe(400);
    expect(body(response).error.message).toBe(discordMessages.stateInvalid);
  });

  it('refuses a sign-in that started too long ago', async () => {
    const started = await start('login');
    const consent = discord.consent(body(started.response).data.authorization_url, discordUser());
    clockOffsetMs = (OAUTH_STATE_TTL_S + 5) * 1000;
    try {
      const response = await callback(consent, started.cookie);
      expect(response.statusCode).toBe(400);
      expect(body(response).error.message).toBe(discordMessages.stateInvalid);
    } finally {
      clockOffsetMs = 0;
    }
  });

  it('says so when Discord refuses the code (expired or used: invalid_grant)', async () => {
    const started = await start('login');
    const { state } = discord.consent(body(started.response).data.authorization_url, discordUser());
    const response = await callback({ code: 'expired-code', state }, started.cookie);
    expect(response.statusCode).toBe(400);
    expect(body(response).error.message).toBe(discordMessages.codeRejected);
  });

  it('says so when a code is used twice', async () => {
    const started = await start('login');
    const consent = discord.consent(body(started.response).data.authorization_url, discordUser());
    expect((await callback(consent, started.cookie)).statusCode).toBe(200);
    const replay = await callback(consent, started.cookie);
    expect(replay.statusCode).toBe(400);
    expect(body(replay).error.message).toBe(discordMessages.codeRejected);
  });

  it('says Discord is unreachable when nothing answers at its address', async () => {
    const offline = await buildTestApp({
      env: {
        DISCORD_CLIENT_ID: discord.clientId,
        DISCORD_CLIENT_SECRET: discord.clientSecret,
        DISCORD_API_BASE_URL: await closedBaseUrl(),
      },
    });
    try {
      const started = await offline.app.inject({
        method: 'POST',
        url: '/api/v1/auth/discord/start',
        payload: { mode: 'login' },
      });
      const state = new URL(body(started).data.authorization_url).searchParams.get('state') ?? '';
      const response = await offline.app.inject({
        method: 'POST',
        url: '/api/v1/auth/discord/callback',
        payload: { code: 'any-code', state },
        headers: { cookie: stateCookie(started) },
      });
      expect(response.statusCode).toBe(503);
      expect(body(response).error.message).toBe(discordMessages.unreachable);
    } finally {
      await offline.close();
    }
  });

  it('answers 422 for a callback without code or state', async () => {
    const response = await callback({ code: '', state: '' }, undefined);
    expect(response.statusCode).toBe(422);
  });
});

describe('linking and unlinking Discord from the profile', () => {
  it('links the signed-in account, which then signs in with Discord', async () => {
    const player = await createUser(ctx);
    const who = discordUser({ global_name: 'Pip the Bold' });
    const linked = await signInWithDiscord(who, 'link', player);
    expect(linked.statusCode).toBe(200);
    expect(body(linked).data).toMatchObject({
      mode: 'link',
      account: { discord_user_id: who.id, username: 'Pip the Bold' },
    });

    const status = await callApi(ctx, 'GET', '/users/me/discord', player);
    expect(body(status).data).toMatchObject({ account: { discord_user_id: who.id }, has_password: true });

    const signedIn = await signInWithDiscord(who);
    expect(body(signedIn).data).toMatchObject({ created: false, session: { user: { id: player.user.id } } });
  });

  it('refuses a Discord account already linked to another account', async () => {
    const first = await createUser(ctx);
    const second = await createUser(ctx);
    const who = discordUser();
    expect((await signInWithDiscord(who, 'link', first)).statusCode).toBe(200);
    const response = await signInWithDiscord(who, 'link', second);
    expect(response.statusCode).toBe(409);
    expect(body(response).error.message).toBe(discordMessages.linkedElsewhere);
    expect(body(await callApi(ctx, 'GET', '/users/me/discord', second)).data.account).toBeNull();
  });

  it('refuses to finish a link signed out, or signed in as someone else', async () => {
    const player = await createUser(ctx);
    const other = await createUser(ctx);
    const started = await start('link', player);
    const consent = discord.consent(body(started.response).data.authorization_url, discordUser());
    const signedOut = await callback(consent, started.cookie);
    expect(signedOut.statusCode).toBe(401);
    const wrongUser = await callback(consent, started.cookie, other);
    expect(wrongUser.statusCode).toBe(400);
    expect(body(wrongUser).error.message).toBe(discordMessages.linkWrongUser);
  });

  it('unlinks an account that has a password', async () => {
    const player = await createUser(ctx);
    const who = discordUser();
    await signInWithDiscord(who, 'link', player);
    const response = await callApi(ctx, 'DELETE', '/users/me/discord', player);
    expect(response.statusCode).toBe(204);
    expect(body(await callApi(ctx, 'GET', '/users/me/discord', player)).data.account).toBeNull();
    const again = await callApi(ctx, 'DELETE', '/users/me/discord', player);
    expect(again.statusCode).toBe(404);
    // The Discord account is free again: signing in with it now makes a new account.
    expect(body(await signInWithDiscord(who)).data.created).toBe(true);
  });

  it('refuses to unlink an account made through Discord until it has a password', async () => {
    const who = discordUser();
    const { session } = body(await signInWithDiscord(who)).data;
    const refused = await callApi(ctx, 'DELETE', '/users/me/discord', asUser(session));
    expect(refused.statusCode).toBe(409);
    expect(body(refused).error.message).toBe(discordMessages.unlinkNeedsPassword);
    expect(body(await callApi(ctx, 'GET', '/users/me/discord', asUser(session))).data.has_password).toBe(
      false,
    );

    // A password reset gives it a password (and ends its sessions); then unlinking is allowed.
    await callApi(ctx, 'POST', '/auth/forgot_password', undefined, { email: who.email });
    const link = await linkFromMail(ctx, String(who.email), 'reset-password');
    const token = decodeURIComponent(link.split('/reset-password/')[1] ?? '');
    const reset = await callApi(ctx, 'POST', '/auth/reset_password', undefined, {
      token,
      password: 'Adventure2',
      password_confirmation: 'Adventure2',
    });
    expect(body(reset).data).toMatchObject({ message: authMessages.passwordReset });
    const login = await callApi(ctx, 'POST', '/auth/login', undefined, {
      email: who.email,
      password: 'Adventure2',
    });
    expect(login.statusCode).toBe(200);
    const passwordSession = login.json() as { data: { token: string } };
    const unlinked = await callApi(ctx, 'DELETE', '/users/me/discord', asUser(passwordSession.data));
    expect(unlinked.statusCode).toBe(204);
    expect(await readMails(ctx)).not.toHaveLength(0);
  });
});
