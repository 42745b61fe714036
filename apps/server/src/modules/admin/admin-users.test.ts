import type { AdminUserDetail } from '@haversack/contracts';
import { ADMIN_SESSION_HEADER, signedInSessionMessages } from '@haversack/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createAdmin, type SignedInAdmin } from '../../test/admin.js';
import {
  createCharacter,
  createMember,
  createParty,
  createUser,
  type SignedInUser,
  upgrade,
} from '../../test/factories.js';
import { buildTestApp, callApi, json, linkFromMail, readMails, type TestContext } from '../../test/helper.js';
import { auditLogRepository } from './audit-log.repository.js';

let ctx: TestContext;
let admin: SignedInAdmin;
let baseUrl: string;

beforeAll(async () => {
  ctx = await buildTestApp();
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  const address = ctx.app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  baseUrl = `http://127.0.0.1:${address.port}`;
  admin = await createAdmin(ctx);
});
afterAll(async () => ctx.close());

const codeOf = (response: { json(): unknown }) => (response.json() as { error: { code: string } }).error.code;
const errorBody = (code: string, message: string) => ({
  status: 'error',
  error: expect.objectContaining({ code, message }),
});
const asAdmin = (method: 'GET' | 'POST', url: string, body?: unknown) =>
  callApi(ctx, method, url, admin.adminAuth, body);

async function login(user: SignedInUser) {
  return callApi(ctx, 'POST', '/auth/login', undefined, { email: user.user.email, password: user.password });
}

/** A raw /cable socket that records its frames, as a browser tab of the user would hold it open. */
function openCable(token: string) {
  const frames: Record<string, unknown>[] = [];
  const socket = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/cable?token=${encodeURIComponent(token)}`, [
    'actioncable-v1-json',
  ]);
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  const welcomed = new Promise<void>((resolve) =>
    socket.on('message', (data) => {
      const frame = JSON.parse(String(data)) as Record<string, unknown>;
      frames.push(frame);
      if (frame.type === 'welcome') resolve();
    }),
  );
  return { frames, closed, welcomed, socket };
}

describe('admin users: list and detail', () => {
  it('searches by email or username and filters by plan, status and admin flag', async () => {
    const marker = `finder${Date.now()}`;
    const alice = await createUser(ctx, { email: `${marker}-alice@example.com` });
    await createUser(ctx, { username: `${marker}_bob` });
    await asAdmin('POST', `/admin/users/${alice.user.id}/tier`, {
      tier_id: 'tier_2',
      reason: 'contest prize',
    });

    const found = json<{ data: { email: string; tier: string }[]; meta: { total_count: number } }>(
      await asAdmin('GET', `/admin/users?search=${marker}`),
    );
    expect(found.meta.total_count).toBe(2);
    const onTier2 = json<{ data: { id: string }[] }>(
      await asAdmin('GET', `/admin/users?search=${marker}&tier=tier_2`),
    );
    expect(onTier2.data.map((u) => u.id)).toEqual([alice.user.id]);
    const admins = json<{ data: { id: string }[] }>(await asAdmin('GET', '/admin/users?admin=true'));
    expect(admins.data.map((u) => u.id)).toContain(admin.user.id);
    expect(admins.data.map((u) => u.id)).not.toContain(alice.user.id);
    expect((await asAdmin('GET', '/admin/users?tier=tier_9')).statusCode).toBe(422);
  });

  it("shows a user's parties, characters, subscription, sessions and recent ledger", async () => {
    const gm = await createUser(ctx);
    const party = await createParty(ctx, gm, { name: 'The Lantern Bearers' });
    await createCharacter(ctx, gm, { name: 'Orla' });
    const response = await asAdmin('GET', `/admin/users/${gm.user.id}`);
    expect(response.statusCode).toBe(200);
    const detail = json<{ data: Record<string, unknown> }>(response).data;
    expect(detail).toMatchObject({
      user: { id: gm.user.id, email: gm.user.email, suspended_at: null },
      subscription: { tier: 'tier_free' },
      parties: [{ id: party.id, name: 'The Lantern Bearers', role: 'gm' }],
      characters: [{ name: 'Orla' }],
    });
    expect((detail.sessions as unknown[]).length).toBeGreaterThan(0);
    expect((await asAdmin('GET', '/admin/users/00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
  });

  // Review: dave's page did not say he sponsors erin in Mistwood, and erin's said only "FREE".
  it('lists the sponsorships a user gives and receives, running ones only', async () => {
    const dave = await createUser(ctx, { username: `dave${Date.now()}` });
    await upgrade(ctx, dave, 'tier_2');
    const party = await createParty(ctx, dave, { name: 'Mistwood' });
    const erin = await createMember(ctx, party, 'player', { username: `erin${Date.now()}` });
    const fred = await createMember(ctx, party, 'player');
    const sponsor = (beneficiary: SignedInUser) =>
      callApi(ctx, 'POST', '/patronages', dave, { beneficiary_id: beneficiary.user.id, party_id: party.id });
    const toErin = json<{ data: { id: string; created_at: string } }>(await sponsor(erin)).data;
    const toFred = json<{ data: { id: string } }>(await sponsor(fred)).data;
    expect((await callApi(ctx, 'DELETE', `/patronages/${toFred.id}`, dave)).statusCode).toBe(204);

    const detailOf = async (user: SignedInUser) =>
      json<{ data: AdminUserDetail }>(await asAdmin('GET', `/admin/users/${user.user.id}`)).data.sponsorships;
    const given = {
      id: toErin.id,
      party_id: party.id,
      party_name: 'Mistwood',
      tier: 'tier_2',
      since: toErin.created_at,
      paused: false,
    };
    expect(await detailOf(dave)).toEqual({
      given: [{ ...given, user_id: erin.user.id, username: erin.user.username }],
      received: [],
    });
    expect(await detailOf(erin)).toEqual({
      given: [],
      received: [{ ...given, user_id: dave.user.id, username: dave.user.username }],
    });
    expect(await detailOf(fred)).toEqual({ given: [], received: [] });
    // Staff only, as the rest of the page.
    expect((await callApi(ctx, 'GET', `/admin/users/${erin.user.id}`, dave)).statusCode).toBe(403);
    // What the Delete dialog says: the sponsorships dave gives end with his account.
    const deleted = await callApi(ctx, 'DELETE', `/admin/users/${dave.user.id}`, admin.adminAuth, {
      confirm_email: dave.user.email,
    });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(await detailOf(erin)).toEqual({ given: [], received: [] });
  });

  it('names each session’s device in words, as the owner’s own Devices list does', async () => {
    const player = await createUser(ctx);
    const signIn = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      headers: {
        'user-agent': 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0',
      },
      payload: { email: player.user.email, password: player.password },
    });
    expect(signIn.statusCode).toBe(200);
    const detail = json<{ data: { sessions: { user_agent: string | null; device: string }[] } }>(
      await asAdmin('GET', `/admin/users/${player.user.id}`),
    ).data;
    const firefox = detail.sessions.find((s) => s.user_agent?.includes('Firefox'));
    expect(firefox?.device).toBe('Firefox on Windows');
    const agentless = detail.sessions.find((s) => s.user_agent === null);
    if (agentless) expect(agentless.device).toBe(signedInSessionMessages.unknownDevice);
  });
});

describe('suspending a user', () => {
  it('refuses their sign-in, ends their sessions and their open cable connection at once, and is audited', async () => {
    const player = await createUser(ctx);
    const other = json<{ data: { token: string; refresh_token: string } }>(await login(player)).data;
    const cable = openCable(player.token);
    await cable.welcomed;

    const suspended = await asAdmin('POST', `/admin/users/${player.user.id}/suspend`, { reason: 'spam' });
    expect(suspended.statusCode).toBe(200);
    expect(
      json<{ data: { user: { suspended_at: string | null } } }>(suspended).data.user.suspended_at,
    ).not.toBeNull();

    await cable.closed;
    expect(cable.frames).toContainEqual(
      expect.objectContaining({ type: 'disconnect', reason: 'unauthorized' }),
    );

    const me = await callApi(ctx, 'GET', '/auth/me', player);
    expect([me.statusCode, codeOf(me)]).toEqual([401, 'REVOKED_TOKEN']);
    const refreshed = await callApi(ctx, 'POST', '/auth/refresh', undefined, {
      refresh_token: other.refresh_token,
    });
    expect(refreshed.statusCode).toBe(401);
    // The other device, renewing its session, is told why, not that its session expired.
    expect((refreshed.json() as { error: { message: string } }).error.message).toBe(
      'This account has been suspended. Contact support if you think this is a mistake.',
    );
    const signIn = await login(player);
    expect([signIn.statusCode, codeOf(signIn)]).toEqual([403, 'ACCOUNT_SUSPENDED']);
    expect((signIn.json() as { error: { message: string } }).error.message).toBe(
      'This account has been suspended. Contact support if you think this is a mistake.',
    );
    // A wrong password still says only that the credentials are wrong.
    const guess = await callApi(ctx, 'POST', '/auth/login', undefined, {
      email: player.user.email,
      password: 'Wrong1234',
    });
    expect(codeOf(guess)).toBe('INVALID_CREDENTIALS');

    const [entry] = (await auditLogRepository.forSubject(ctx.database.db, player.user.id)).filter(
      (e) => e.action === 'user_suspended',
    );
    expect(entry).toMatchObject({
      actorId: admin.user.id,
      targetType: 'user',
      targetId: player.user.id,
      before: { suspended_at: null },
      after: { suspended_reason: 'spam' },
    });
    expect(entry?.details).toMatchObject({ sessions_ended: 2 });

    const again = await asAdmin('POST', `/admin/users/${player.user.id}/suspend`, { reason: 'spam' });
    expect(again.statusCode).toBe(409);

    const lifted = await asAdmin('POST', `/admin/users/${player.user.id}/unsuspend`);
    expect(lifted.statusCode).toBe(200);
    expect((await login(player)).statusCode).toBe(200);
  });

  it('refuses an admin suspending themselves, and a suspension without a reason', async () => {
    const self = await asAdmin('POST', `/admin/users/${admin.user.id}/suspend`, { reason: 'oops' });
    expect([self.statusCode, codeOf(self)]).toEqual([403, 'FORBIDDEN']);
    const player = await createUser(ctx);
    const noReason = await asAdmin('POST', `/admin/users/${player.user.id}/suspend`, { reason: ' ' });
    expect(noReason.statusCode).toBe(422);
    expect((await callApi(ctx, 'GET', '/auth/me', player)).statusCode).toBe(200);
  });

  it('refuses suspending an admin, as deleting one: their admin session and sign-in go on', async () => {
    const otherAdmin = await createAdmin(ctx);
    const refused = await asAdmin('POST', `/admin/users/${otherAdmin.user.id}/suspend`, {
      reason: 'compromised',
    });
    expect([refused.statusCode, refused.json()]).toEqual([
      403,
      {
        status: 'error',
        error: expect.objectContaining({
          code: 'FORBIDDEN',
          message: 'Admins cannot be suspended: revoke their admin flag first.',
        }),
      },
    ]);
    const verify = await ctx.app.inject({
      method: 'GET',
      url: '/api/v1/admin/sessions/verify',
      headers: { ...otherAdmin.auth, [ADMIN_SESSION_HEADER]: otherAdmin.adminSessionToken },
    });
    expect(verify.statusCode).toBe(200);
    const entries = await auditLogRepository.forSubject(ctx.database.db, otherAdmin.user.id);
    expect(entries.map((entry) => entry.action)).not.toContain('user_suspended');
  });

  it('refuses both of two admins suspending each other at the same moment', async () => {
    const [first, second] = await Promise.all([createAdmin(ctx), createAdmin(ctx)]);
    const both = await Promise.all([
      callApi(ctx, 'POST', `/admin/users/${second.user.id}/suspend`, first.adminAuth, { reason: 'rogue' }),
      callApi(ctx, 'POST', `/admin/users/${first.user.id}/suspend`, second.adminAuth, { reason: 'rogue' }),
    ]);
    expect(both.map((response) => [response.statusCode, codeOf(response)])).toEqual([
      [403, 'FORBIDDEN'],
      [403, 'FORBIDDEN'],
    ]);
    for (const still of [first, second]) {
      const me = await callApi(ctx, 'GET', '/admin/sessions/verify', still.adminAuth);
      expect(me.statusCode).toBe(200);
    }
  });
});

describe('refused acts (DESIGN §10: every refused attempt is audited)', () => {
  it('audits each with its target and reason, once per route, reason and target a window', async () => {
    const acting = await createAdmin(ctx);
    const otherAdmin = await createAdmin(ctx);
    const player = await createUser(ctx);
    const act = (method: 'POST' | 'DELETE', url: string, body: unknown) =>
      callApi(ctx, method, url, acting.adminAuth, body);
    for (let round = 0; round < 3; round += 1) {
      const answers = [
        await act('POST', `/admin/users/${acting.user.id}/suspend`, { reason: 'oops' }),
        await act('POST', `/admin/users/${otherAdmin.user.id}/suspend`, { reason: 'rogue' }),
        await act('DELETE', `/admin/users/${acting.user.id}`, { confirm_email: acting.user.email }),
        await act('DELETE', `/admin/users/${otherAdmin.user.id}`, { confirm_email: otherAdmin.user.email }),
        await act('DELETE', `/admin/users/${player.user.id}`, { confirm_email: 'someone@example.com' }),
      ];
      // The answers are as they were: the audit entry changes nothing the caller sees.
      expect(answers.map((answer) => [answer.statusCode, answer.json()])).toEqual([
        [403, errorBody('FORBIDDEN', 'You cannot suspend your own account.')],
        [403, errorBody('FORBIDDEN', 'Admins cannot be suspended: revoke their admin flag first.')],
        [403, errorBody('FORBIDDEN', 'You cannot delete your own account here.')],
        [403, errorBody('FORBIDDEN', 'Admins cannot be deleted: revoke their admin flag first.')],
        [
          422,
          {
            status: 'error',
            error: expect.objectContaining({
              code: 'VALIDATION_ERROR',
              details: [{ field: 'confirm_email', message: 'This is not the user’s email.' }],
            }),
          },
        ],
      ]);
    }
    const refused = (await auditLogRepository.forSubject(ctx.database.db, acting.user.id)).filter(
      (entry) => entry.action === 'admin_action_refused',
    );
    expect(
      refused
        .map((entry) => [entry.details.attempted, entry.details.reason, entry.targetType, entry.targetId])
        .sort(),
    ).toEqual(
      [
        ['user_deleted', 'own_account', 'user', acting.user.id],
        ['user_deleted', 'target_is_admin', 'user', otherAdmin.user.id],
        ['user_deleted', 'wrong_confirmation', 'user', player.user.id],
        ['user_suspended', 'own_account', 'user', acting.user.id],
        ['user_suspended', 'target_is_admin', 'user', otherAdmin.user.id],
      ].sort(),
    );
    for (const entry of refused) {
      expect(entry).toMatchObject({ actorId: acting.user.id, actorEmail: acting.user.email });
      expect(entry.details.path).toMatch(/^\/api\/v1\/admin\/users\//);
    }
    // Nothing was done to them.
    for (const target of [otherAdmin.user.id, player.user.id]) {
      const actions = (await auditLogRepository.forSubject(ctx.database.db, target)).map((e) => e.action);
      expect(actions).not.toContain('user_suspended');
      expect(actions).not.toContain('user_deleted');
    }
  });
});

describe('helping a user', () => {
  it('revokes every session of theirs', async () => {
    const player = await createUser(ctx);
    const response = await asAdmin('POST', `/admin/users/${player.user.id}/revoke_sessions`);
    expect(response.statusCode).toBe(200);
    expect((await callApi(ctx, 'GET', '/auth/me', player)).statusCode).toBe(401);
    const refreshed = await callApi(ctx, 'POST', '/auth/refresh', undefined, {
      refresh_token: player.refresh_token,
    });
    expect((refreshed.json() as { error: { message: string } }).error.message).toBe(
      signedInSessionMessages.revokedByAdmin,
    );
    expect((await login(player)).statusCode).toBe(200);
    const actions = (await auditLogRepository.forSubject(ctx.database.db, player.user.id)).map(
      (e) => e.action,
    );
    expect(actions).toContain('user_sessions_revoked');
  });

  // A compromised account: a token minted with the stolen session is another way in, so it goes too.
  it('revokes every API token of theirs with the sessions, and records how many', async () => {
    const player = await createUser(ctx);
    await upgrade(ctx, player, 'tier_2');
    const tokens: string[] = [];
    for (const scope of ['read', 'read_write'] as const) {
      const created = await callApi(ctx, 'POST', '/users/me/api_tokens', player, {
        api_token: { name: `Script ${scope}`, scope, expires_in_days: 30 },
      });
      expect(created.statusCode, created.body).toBe(201);
      tokens.push(json<{ data: { token: string } }>(created).data.token);
    }
    const bearer = (token: string) => ({ auth: { authorization: `Bearer ${token}` } });
    for (const token of tokens)
      expect((await callApi(ctx, 'GET', '/characters', bearer(token))).statusCode).toBe(200);

    const response = await asAdmin('POST', `/admin/users/${player.user.id}/revoke_sessions`);
    expect(response.statusCode, response.body).toBe(200);
    for (const token of tokens) {
      const refused = await callApi(ctx, 'GET', '/characters', bearer(token));
      expect(refused.statusCode).toBe(401);
      expect(codeOf(refused)).toBe('REVOKED_TOKEN');
    }
    // Signing in again works, and the token list is empty.
    const signedIn = json<{ data: { token: string } }>(await login(player)).data;
    const listed = await callApi(ctx, 'GET', '/users/me/api_tokens', bearer(signedIn.token));
    expect(json<{ data: unknown[] }>(listed).data).toEqual([]);
    const [entry] = (await auditLogRepository.forSubject(ctx.database.db, player.user.id)).filter(
      (e) => e.action === 'user_sessions_revoked',
    );
    expect(entry).toMatchObject({
      before: { api_tokens: 2 },
      after: { api_tokens: 0 },
      details: { api_tokens_revoked: 2 },
    });
  });

  it("keeps the admin's own session when they revoke their sessions, and records it so", async () => {
    const self = await createAdmin(ctx);
    expect((await login(self)).statusCode).toBe(200);
    const response = await callApi(
      ctx,
      'POST',
      `/admin/users/${self.user.id}/revoke_sessions`,
      self.adminAuth,
    );
    expect(response.statusCode, response.body).toBe(200);
    expect((await callApi(ctx, 'GET', '/auth/me', self.adminAuth)).statusCode).toBe(200);
    const [entry] = (await auditLogRepository.forSubject(ctx.database.db, self.user.id)).filter(
      (e) => e.action === 'user_sessions_revoked',
    );
    expect(entry).toMatchObject({ before: { open_sessions: 2 }, after: { open_sessions: 1 } });
  });

  it('grants a plan without payment, recorded in the subscription and the audit log', async () => {
    const player = await createUser(ctx);
    const granted = await asAdmin('POST', `/admin/users/${player.user.id}/tier`, {
      tier_id: 'tier_3',
      reason: 'community moderator',
    });
    expect(granted.statusCode).toBe(200);
    expect(json<{ data: { subscription: unknown } }>(granted).data.subscription).toMatchObject({
      tier: 'tier_3',
      status: 'active',
      provider: null,
      current_period_end: null,
    });
    const current = await callApi(ctx, 'GET', '/subscription/current', player);
    expect(JSON.stringify(current.json())).toContain('tier_3');
    const [entry] = (await auditLogRepository.forSubject(ctx.database.db, player.user.id)).filter(
      (e) => e.action === 'user_tier_granted',
    );
    expect(entry).toMatchObject({
      before: { tier: 'tier_free' },
      after: { tier: 'tier_3', status: 'active' },
      details: expect.objectContaining({ reason: 'community moderator', payment: 'none' }),
    });
  });

  it('says a grant of Free as the removal of the plan the user had, not as a plan granted', async () => {
    const player = await createUser(ctx);
    const grant = (tier_id: string) =>
      asAdmin('POST', `/admin/users/${player.user.id}/tier`, { tier_id, reason: 'support case' });
    expect(json<{ message: string }>(await grant('tier_2')).message).toBe('The plan is granted.');
    const removed = await grant('tier_free');
    expect(removed.statusCode).toBe(200);
    expect(json<{ message: string }>(removed).message).toBe(
      'The Hero plan is removed: the user is on the Free plan.',
    );
    expect(json<{ data: { subscription: unknown } }>(removed).data.subscription).toMatchObject({
      tier: 'tier_free',
      provider: null,
    });
    expect(json<{ message: string }>(await grant('tier_free')).message).toBe(
      'The user is already on the Free plan.',
    );
  });

  it('mails a password reset link', async () => {
    const player = await createUser(ctx);
    const response = await asAdmin('POST', `/admin/users/${player.user.id}/password_reset`);
    expect(response.statusCode).toBe(200);
    expect(await linkFromMail(ctx, player.user.email, 'reset-password')).toMatch(/reset-password\//);
  });

  // Mail review: the mail said "Someone asked to reset the password" and "If it was not you, ignore this
  // mail", as to a stranger's request, when the site's administrator had sent it.
  it('says in the reset mail that an administrator sent it, and a reset asked for by the user does not', async () => {
    const player = await createUser(ctx);
    expect((await asAdmin('POST', `/admin/users/${player.user.id}/password_reset`)).statusCode).toBe(200);
    await readMails(ctx); // sent before the next link supersedes it
    const forgot = await callApi(ctx, 'POST', '/auth/forgot_password', undefined, {
      email: player.user.email,
    });
    expect(forgot.statusCode, forgot.body).toBe(200);
    const [bySupport, byOwner] = (await readMails(ctx)).filter(
      (m) => m.to.toLowerCase() === player.user.email.toLowerCase() && /password/i.test(m.subject),
    );
    expect(bySupport?.subject).toBe('Reset your Haversack password');
    const [text = '', html = ''] = bySupport?.raw.split(/Content-Type: text\/html/) ?? [];
    for (const part of [text, html]) {
      expect(part).toContain(
        'A Haversack administrator sent you this link to reset the password of your account.',
      );
      expect(part).not.toContain('Someone asked');
      expect(part).toContain('Use the link below within 60 minutes; it works once.');
    }
    expect(byOwner?.raw).toContain('Someone asked to reset the password of your Haversack account.');
    expect(byOwner?.raw).not.toContain('administrator');
  });
});
