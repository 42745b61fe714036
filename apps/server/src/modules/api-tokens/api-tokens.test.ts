import { createHash } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { API_TOKEN_PREFIX, apiTokenMessages } from '@haversack/contracts';
import { eq } from 'drizzle-orm';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { apiTokens } from '../../db/schema/api-tokens.js';
import { transactions } from '../../db/schema/inventory.js';
import { authPlugin } from '../../plugins/auth.js';
import { errorHandlerPlugin } from '../../plugins/error-handler.js';
import { createAdmin } from '../../test/admin.js';
import {
  createCharacter,
  createTemplate,
  createUser,
  type SignedInUser,
  upgrade,
} from '../../test/factories.js';
import { buildTestApp, callApi, json, linkFromMail, type TestContext } from '../../test/helper.js';

let ctx: TestContext;
let clock = Date.now();
const advance = (ms: number) => {
  clock += ms;
};
const DAY = 24 * 60 * 60 * 1000;

beforeAll(async () => {
  ctx = await buildTestApp({ now: () => new Date(clock) });
});
afterAll(async () => ctx.close());

interface Created {
  id: string;
  token: string;
  hint: string;
  scope: string;
  expires_at: string | null;
  last_used_at: string | null;
}

async function payingUser(): Promise<SignedInUser> {
  const user = await createUser(ctx);
  await upgrade(ctx, user, 'tier_2');
  return user;
}

async function createToken(
  user: SignedInUser,
  form: { name?: string; scope?: 'read' | 'read_write'; expires_in_days?: number | null } = {},
): Promise<Created> {
  const response = await callApi(ctx, 'POST', '/users/me/api_tokens', user, {
    api_token: { name: 'Script', scope: 'read_write', expires_in_days: 30, ...form },
  });
  expect(response.statusCode, response.body).toBe(201);
  return json<{ data: Created }>(response).data;
}

const bearer = (token: string) => ({ auth: { authorization: `Bearer ${token}` } });
const errorOf = (response: { json(): unknown }) =>
  (response.json() as { error: { code: string; message: string } }).error;

describe('personal API tokens (issue 16 §5)', () => {
  it('needs a plan with API access to create one, and lists none for a free user', async () => {
    const free = await createUser(ctx);
    const refused = await callApi(ctx, 'POST', '/users/me/api_tokens', free, {
      api_token: { name: 'Script', scope: 'read', expires_in_days: 30 },
    });
    expect(refused.statusCode).toBe(403);
    expect(errorOf(refused).code).toBe('FEATURE_NOT_AVAILABLE');
    const listed = await callApi(ctx, 'GET', '/users/me/api_tokens', free);
    expect(json(listed)).toMatchObject({ status: 'success', data: [] });
    // Adventurer (tier_1) has no API access either (DESIGN §5).
    await upgrade(ctx, free, 'tier_1');
    const stillRefused = await callApi(ctx, 'POST', '/users/me/api_tokens', free, {
      api_token: { name: 'Script', scope: 'read', expires_in_days: 30 },
    });
    expect(errorOf(stillRefused).code).toBe('FEATURE_NOT_AVAILABLE');
  });

  it('shows the secret once and stores only its sha256', async () => {
    const user = await payingUser();
    const created = await createToken(user, { name: 'Inventory sync', scope: 'read', expires_in_days: 7 });
    expect(created.token.startsWith(API_TOKEN_PREFIX)).toBe(true);
    expect(created.token.length).toBeGreaterThanOrEqual(API_TOKEN_PREFIX.length + 43);
    expect(created.hint).toBe(created.token.slice(0, 8));
    expect(Date.parse(created.expires_at ?? '') - clock).toBe(7 * DAY);

    const [row] = await ctx.database.db.select().from(apiTokens).where(eq(apiTokens.id, created.id));
    expect(row?.tokenHash).toBe(createHash('sha256').update(created.token).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(created.token);

    const listed = json<{ data: Record<string, unknown>[] }>(
      await callApi(ctx, 'GET', '/users/me/api_tokens', user),
    );
    expect(listed.data).toHaveLength(1);
    expect(listed.data[0]).toMatchObject({
      id: created.id,
      name: 'Inventory sync',
      scope: 'read',
      expired: false,
    });
    expect(listed.data[0]).not.toHaveProperty('token');
    expect(JSON.stringify(listed)).not.toContain(created.token);
  });

  it('refuses bad input with 422 and creates nothing', async () => {
    const user = await payingUser();
    for (const api_token of [
      { name: '', scope: 'read', expires_in_days: 30 },
      { name: 'x', scope: 'admin', expires_in_days: 30 },
      { name: 'x', scope: 'read', expires_in_days: 5 },
      { name: 'x'.repeat(61), scope: 'read', expires_in_days: null },
    ]) {
      const response = await callApi(ctx, 'POST', '/users/me/api_tokens', user, { api_token });
      expect(response.statusCode, JSON.stringify(api_token)).toBe(422);
    }
    expect(json<{ data: unknown[] }>(await callApi(ctx, 'GET', '/users/me/api_tokens', user)).data).toEqual(
      [],
    );
  });

  it('lets a read token read and refuses every other method with 403', async () => {
    const user = await payingUser();
    await createCharacter(ctx, user, { name: 'Thorin' });
    const { token } = await createToken(user, { scope: 'read' });
    const read = await callApi(ctx, 'GET', '/characters', bearer(token));
    expect(read.statusCode, read.body).toBe(200);
    expect(JSON.stringify(read.json())).toContain('Thorin');
    const write = await callApi(ctx, 'POST', '/characters', bearer(token), { character: { name: 'Gimli' } });
    expect(write.statusCode).toBe(403);
    expect(errorOf(write)).toMatchObject({ code: 'FORBIDDEN', message: apiTokenMessages.readOnly });
  });

  it('writes with a read_write token, and marks the ledger rows as coming from the API', async () => {
    const user = await payingUser();
    const hero = await createCharacter(ctx, user);
    const rope = await createTemplate(ctx, { name: 'Rope' });
    const { token } = await createToken(user, { scope: 'read_write' });
    const response = await callApi(ctx, 'POST', '/item_instances', bearer(token), {
      item_template_id: rope.id,
      container_id: String(hero.primary_container_id),
      quantity: 3,
    });
    expect(response.statusCode, response.body).toBe(201);
    const rows = await ctx.database.db
      .select()
      .from(transactions)
      .where(eq(transactions.itemTemplateId, rope.id));
    expect(rows.map((row) => [row.source, row.actorId])).toEqual([['api', user.user.id]]);
    // The same call from the web session is still 'web'.
    await callApi(ctx, 'POST', '/item_instances', user, {
      item_template_id: rope.id,
      container_id: String(hero.primary_container_id),
      quantity: 1,
    });
    const after = await ctx.database.db
      .select()
      .from(transactions)
      .where(eq(transactions.itemTemplateId, rope.id));
    expect(after.map((row) => row.source).sort()).toEqual(['api', 'web']);
  });

  it('never manages tokens, the account or the session, whatever its scope', async () => {
    const user = await payingUser();
    const { token, id } = await createToken(user, { scope: 'read_write' });
    const calls: [Parameters<typeof callApi>[1], string, unknown?][] = [
      ['GET', '/users/me/api_tokens'],
      [
        'POST',
        '/users/me/api_tokens',
        { api_token: { name: 'Child', scope: 'read_write', expires_in_days: null } },
      ],
      ['DELETE', `/users/me/api_tokens/${id}`],
      [
        'PUT',
        '/users/me/password',
        { current_password: user.password, password: 'NewPass123', password_confirmation: 'NewPass123' },
      ],
      ['PATCH', '/users/me', { user: { email: 'thief@example.com', current_password: user.password } }],
      ['DELETE', '/auth/logout'],
      ['POST', '/subscription/cancel', {}],
      ['GET', '/users/me/export'],
      ['DELETE', '/users/me', { current_password: user.password }],
      ['POST', '/auth/discord/start', { mode: 'link' }],
      ['POST', '/auth/resend_verification', {}],
    ];
    for (const [method, url, payload] of calls) {
      const response = await callApi(ctx, method, url, bearer(token), payload);
      expect(response.statusCode, `${method} ${url}: ${response.body}`).toBe(403);
      expect(errorOf(response).message).toBe(apiTokenMessages.sessionOnly);
    }
    // Nothing happened: the token still works, no second token was minted, the email is unchanged.
    expect((await callApi(ctx, 'GET', '/auth/me', bearer(token))).json()).toMatchObject({
      data: { user: { email: user.user.email } },
    });
    expect(
      json<{ data: unknown[] }>(await callApi(ctx, 'GET', '/users/me/api_tokens', user)).data,
    ).toHaveLength(1);
  });

  it('never reaches an admin route', async () => {
    // The admin area is another module; a route under /api/v1/admin guarded by the same plugin stands in.
    const user = await payingUser();
    const { token } = await createToken(user, { scope: 'read_write' });
    const probe = Fastify();
    await probe.register(errorHandlerPlugin);
    const { accessTokens, accounts, apiTokens: apiTokensService } = ctx.app.services;
    await probe.register(authPlugin, { accessTokens, accounts, apiTokens: apiTokensService });
    probe.get('/api/v1/admin/users', { onRequest: probe.authenticate }, async () => ({ ok: true }));
    probe.get(
      '/api/v1/elsewhere',
      { onRequest: probe.authenticate, config: { sessionOnly: true } },
      async () => ({
        ok: true,
      }),
    );
    await probe.ready();
    for (const url of ['/api/v1/admin/users', '/api/v1/elsewhere']) {
      const response = await probe.inject({
        method: 'GET',
        url,
        headers: { authorization: `Bearer ${token}` },
      });
      expect(response.statusCode, url).toBe(403);
      const session = await probe.inject({ method: 'GET', url, headers: user.auth });
      expect(session.statusCode, url).toBe(200);
    }
    await probe.close();
  });

  it('answers 401 for an unknown, expired or revoked token', async () => {
    const user = await payingUser();
    const unknown = await callApi(ctx, 'GET', '/characters', bearer(`${API_TOKEN_PREFIX}nope`));
    expect(unknown.statusCode).toBe(401);
    expect(errorOf(unknown).code).toBe('INVALID_TOKEN');

    const weekly = await createToken(user, { expires_in_days: 7 });
    const forever = await createToken(user, { expires_in_days: null });
    expect(forever.expires_at).toBeNull();
    const doomed = await createToken(user, { expires_in_days: 30 });

    advance(7 * DAY + 1000);
    const expired = await callApi(ctx, 'GET', '/characters', bearer(weekly.token));
    expect(expired.statusCode).toBe(401);
    expect(errorOf(expired)).toMatchObject({ code: 'EXPIRED_TOKEN', message: apiTokenMessages.expired });
    expect((await callApi(ctx, 'GET', '/characters', bearer(forever.token))).statusCode).toBe(200);
    const listed = json<{ data: { id: string; expired: boolean }[] }>(
      await callApi(ctx, 'GET', '/users/me/api_tokens', user),
    );
    expect(listed.data.find((t) => t.id === weekly.id)?.expired).toBe(true);

    const revoke = await callApi(ctx, 'DELETE', `/users/me/api_tokens/${doomed.id}`, user);
    expect(revoke.statusCode).toBe(204);
    const revoked = await callApi(ctx, 'GET', '/characters', bearer(doomed.token));
    expect(revoked.statusCode).toBe(401);
    expect(errorOf(revoked)).toMatchObject({ code: 'REVOKED_TOKEN', message: apiTokenMessages.revoked });
    const ids = json<{ data: { id: string }[] }>(
      await callApi(ctx, 'GET', '/users/me/api_tokens', user),
    ).data.map((t) => t.id);
    expect(ids).not.toContain(doomed.id);
    expect((await callApi(ctx, 'DELETE', `/users/me/api_tokens/${doomed.id}`, user)).statusCode).toBe(404);
  });

  it('is refused while its owner is suspended, and works again once the suspension is lifted', async () => {
    const admin = await createAdmin(ctx);
    const user = await payingUser();
    const { token } = await createToken(user, { scope: 'read_write' });
    expect((await callApi(ctx, 'GET', '/auth/me', bearer(token))).statusCode).toBe(200);
    const suspend = await callApi(ctx, 'POST', `/admin/users/${user.user.id}/suspend`, admin.adminAuth, {
      reason: 'spam',
    });
    expect(suspend.statusCode).toBe(200);
    for (const [method, url, payload] of [
      ['GET', '/auth/me', undefined],
      ['POST', '/characters', { character: { name: 'After suspension' } }],
    ] as const) {
      const refused = await callApi(ctx, method, url, bearer(token), payload);
      expect(refused.statusCode, url).toBe(403);
      expect(errorOf(refused).code).toBe('ACCOUNT_SUSPENDED');
    }
    const characters = await callApi(ctx, 'GET', '/characters', user);
    expect(characters.statusCode).toBe(401);
    const lift = await callApi(ctx, 'POST', `/admin/users/${user.user.id}/unsuspend`, admin.adminAuth, {});
    expect(lift.statusCode).toBe(200);
    expect((await callApi(ctx, 'GET', '/auth/me', bearer(token))).statusCode).toBe(200);
  });

  // A token minted with a stolen session would otherwise outlive every way the owner takes the account
  // back: a password changed or reset ends the sessions and the tokens alike.
  it('is revoked when the password is changed or reset', async () => {
    const user = await payingUser();
    const { token } = await createToken(user, { expires_in_days: null });
    const changed = await callApi(ctx, 'PUT', '/users/me/password', user, {
      current_password: user.password,
      password: 'Changed123',
      password_confirmation: 'Changed123',
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const afterChange = await callApi(ctx, 'POST', '/characters', bearer(token), {
      character: { name: 'Backdoor' },
    });
    expect(afterChange.statusCode).toBe(401);
    expect(errorOf(afterChange).code).toBe('REVOKED_TOKEN');

    const second = await createToken(user);
    await callApi(ctx, 'POST', '/auth/forgot_password', undefined, { email: user.user.email });
    const resetToken = (await linkFromMail(ctx, user.user.email, 'reset-password')).split('/').at(-1);
    const reset = await callApi(ctx, 'POST', '/auth/reset_password', undefined, {
      token: resetToken,
      password: 'ResetAgain9',
      password_confirmation: 'ResetAgain9',
    });
    expect(reset.statusCode, reset.body).toBe(200);
    expect((await callApi(ctx, 'GET', '/auth/me', bearer(second.token))).statusCode).toBe(401);
  });

  it("cannot revoke someone else's token", async () => {
    const owner = await payingUser();
    const other = await payingUser();
    const { id, token } = await createToken(owner);
    expect((await callApi(ctx, 'DELETE', `/users/me/api_tokens/${id}`, other)).statusCode).toBe(404);
    expect((await callApi(ctx, 'GET', '/characters', bearer(token))).statusCode).toBe(200);
  });

  it('answers 403 FEATURE_NOT_AVAILABLE once the plan loses API access, and works again after an upgrade', async () => {
    const user = await payingUser();
    const { token } = await createToken(user, { expires_in_days: null });
    await upgrade(ctx, user, 'tier_1');
    const refused = await callApi(ctx, 'GET', '/characters', bearer(token));
    expect(refused.statusCode, refused.body).toBe(403);
    expect(errorOf(refused).code).toBe('FEATURE_NOT_AVAILABLE');
    // The web session of the same user is unaffected.
    expect((await callApi(ctx, 'GET', '/characters', user)).statusCode).toBe(200);
    await upgrade(ctx, user, 'tier_3');
    expect((await callApi(ctx, 'GET', '/characters', bearer(token))).statusCode).toBe(200);
  });

  it('records the last use at most once a minute', async () => {
    const user = await payingUser();
    const { id, token, last_used_at } = await createToken(user);
    expect(last_used_at).toBeNull();
    const lastUsed = async () =>
      (await ctx.database.db.select().from(apiTokens).where(eq(apiTokens.id, id)))[0]?.lastUsedAt?.getTime();
    await callApi(ctx, 'GET', '/characters', bearer(token));
    const first = await lastUsed();
    expect(first).toBe(clock);
    advance(30_000);
    await callApi(ctx, 'GET', '/characters', bearer(token));
    expect(await lastUsed()).toBe(first);
    advance(31_000);
    await callApi(ctx, 'GET', '/characters', bearer(token));
    expect(await lastUsed()).toBe(clock);
    const listed = json<{ data: { id: string; last_used_at: string }[] }>(
      await callApi(ctx, 'GET', '/users/me/api_tokens', user),
    );
    expect(listed.data.find((t) => t.id === id)?.last_used_at).toBe(new Date(clock).toISOString());
  });

  it('caps the tokens a user holds, even under concurrent creations', async () => {
    const user = await payingUser();
    const responses = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        callApi(ctx, 'POST', '/users/me/api_tokens', user, {
          api_token: { name: `t${i}`, scope: 'read', expires_in_days: 7 },
        }),
      ),
    );
    const statuses = responses.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 201)).toHaveLength(20);
    expect(statuses.filter((s) => s === 403)).toHaveLength(4);
    const refused = responses.find((r) => r.statusCode === 403);
    expect(refused && errorOf(refused).code).toBe('LIMIT_EXCEEDED');
  });

  it('is not accepted by the real-time socket', async () => {
    const user = await payingUser();
    const { token } = await createToken(user);
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (ctx.app.server.address() as AddressInfo).port;
    const socket = new WebSocket(`ws://127.0.0.1:${port}/cable?token=${token}`, ['actioncable-v1-json']);
    const frame = await new Promise<Record<string, unknown>>((resolve, reject) => {
      socket.on('message', (data: Buffer) => {
        const parsed = JSON.parse(data.toString()) as Record<string, unknown>;
        if (parsed.type === 'disconnect') resolve(parsed);
      });
      socket.on('error', reject);
    });
    expect(frame).toMatchObject({ type: 'disconnect', reason: 'unauthorized' });
    socket.close();
  });

  it('is explained in the API documentation', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/docs/json' });
    const document = response.json() as {
      info: { description: string };
      components: { securitySchemes: Record<string, { scheme: string; description: string }> };
    };
    expect(document.components.securitySchemes.apiToken).toMatchObject({ scheme: 'bearer' });
    expect(document.info.description).toContain('Authorization: Bearer hvk_');
  });

  it('offers only a session in the documentation of the calls a token may not make', async () => {
    const document = (await ctx.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as {
      security: unknown;
      paths: Record<string, Record<string, { security?: unknown }>>;
    };
    expect(document.security).toEqual([{ bearerAuth: [] }, { apiToken: [] }]);
    const sessionOnly = [
      ['/api/v1/users/me/api_tokens', 'post'],
      ['/api/v1/users/me/password', 'put'],
      ['/api/v1/users/me', 'delete'],
      ['/api/v1/users/me/export', 'get'],
      ['/api/v1/subscription/checkout', 'post'],
      ['/api/v1/admin/users', 'get'],
    ] as const;
    for (const [path, method] of sessionOnly) {
      expect(document.paths[path]?.[method]?.security, `${method} ${path}`).toEqual([{ bearerAuth: [] }]);
    }
    // A call a token may make keeps the document's default; a public one its own.
    expect(document.paths['/api/v1/characters']?.get?.security).toBeUndefined();
    expect(document.paths['/api/v1/auth/login']?.post?.security).toEqual([]);
  });

  it('lasts 90 days when the creation names no lifetime', async () => {
    const user = await payingUser();
    const response = await callApi(ctx, 'POST', '/users/me/api_tokens', user, {
      api_token: { name: 'Default', scope: 'read' },
    });
    expect(response.statusCode, response.body).toBe(201);
    const created = json<{ data: Created & { created_at: string } }>(response).data;
    const days = (Date.parse(String(created.expires_at)) - Date.parse(created.created_at)) / 86_400_000;
    expect(days).toBeCloseTo(90, 3);
  });
});
