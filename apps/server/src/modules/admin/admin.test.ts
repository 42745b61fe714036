import { ADMIN_SESSION_HEADER, ADMIN_SESSION_TTL_S } from '@haversack/contracts';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminSessions } from '../../db/schema/admin.js';
import { createAdmin, enterAdminMode, grantAdmin } from '../../test/admin.js';
import { createUser, type SignedInUser } from '../../test/factories.js';
import { buildTestApp, callApi, json, type TestContext } from '../../test/helper.js';
import { setAdminFlag } from './admin-flag.js';
import { auditLogRepository } from './audit-log.repository.js';
import { csvField } from './audit-logs.service.js';

let ctx: TestContext;
let clockOffsetMs = 0;

beforeAll(async () => {
  ctx = await buildTestApp({ now: () => new Date(Date.now() + clockOffsetMs) });
});
afterAll(async () => ctx.close());

interface ErrorBody {
  error: { code: string; status: number };
}
const codeOf = (response: { json(): unknown }) => (response.json() as ErrorBody).error.code;

/** Entries naming this user as actor or target, newest first. */
const auditOf = (userId: string) => auditLogRepository.forSubject(ctx.database.db, userId);

const adminGet = (url: string, headers: Record<string, string>) =>
  ctx.app.inject({ method: 'GET', url: `/api/v1${url}`, headers });

describe('the admin guard, on every route under /api/v1/admin', () => {
  it('knows the admin routes it guards', () => {
    const urls = ctx.app.services.adminRoutes.map((route) => `${route.method} ${route.url}`);
    expect(urls).toEqual(
      expect.arrayContaining([
        'POST /api/v1/admin/sessions',
        'GET /api/v1/admin/sessions/verify',
        'DELETE /api/v1/admin/sessions/current',
        'POST /api/v1/admin/audit_logs',
        'GET /api/v1/admin/audit_logs',
        'GET /api/v1/admin/audit_logs/export',
      ]),
    );
  });

  // Walks the registry, so a route added by a later admin module is covered without touching this test.
  const concrete = (url: string) => url.replace(/:[A-Za-z_]+/g, '00000000-0000-4000-8000-000000000000');

  it('refuses anonymous callers with 401 on each route', async () => {
    for (const route of ctx.app.services.adminRoutes) {
      const response = await ctx.app.inject({
        method: route.method as 'GET',
        url: concrete(route.url),
        payload: route.method === 'GET' || route.method === 'DELETE' ? undefined : {},
      });
      expect([route.url, response.statusCode, codeOf(response)]).toEqual([route.url, 401, 'UNAUTHORIZED']);
    }
  });

  it('refuses a signed-in non-admin with 403 on each route but the attempt post, and audits each refusal', async () => {
    const player = await createUser(ctx);
    const guarded = ctx.app.services.adminRoutes.filter((route) => route.access !== 'signed_in');
    for (const route of guarded) {
      const response = await ctx.app.inject({
        method: route.method as 'GET',
        url: concrete(route.url),
        headers: { ...player.auth, [ADMIN_SESSION_HEADER]: 'forged' },
        payload: route.method === 'GET' || route.method === 'DELETE' ? undefined : {},
      });
      expect([route.url, response.statusCode, codeOf(response)]).toEqual([route.url, 403, 'FORBIDDEN']);
    }
    const refusals = (await auditOf(player.user.id)).filter(
      (entry) => entry.action === 'unauthorized_admin_access_attempt',
    );
    expect(refusals).toHaveLength(guarded.length);
    expect(refusals.map((entry) => `${entry.details.method} ${entry.details.path}`).sort()).toEqual(
      guarded.map((route) => `${route.method} ${concrete(route.url)}`).sort(),
    );
    expect(refusals[0]).toMatchObject({ actorId: player.user.id, actorEmail: player.user.email });
  });

  it('answers 403 to every one of 50 refused calls but audits them once per route and window', async () => {
    const player = await createUser(ctx);
    const responses = [];
    for (let i = 0; i < 50; i += 1) {
      // Varied ids and query strings are still the same route: they must not buy a row each.
      const url =
        i % 2 === 0
          ? `/api/v1/admin/users?page=${i}`
          : `/api/v1/admin/users/00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
      responses.push(await ctx.app.inject({ method: 'GET', url, headers: player.auth }));
    }
    expect(responses.map((r) => [r.statusCode, codeOf(r)])).toEqual(
      Array.from({ length: 50 }, () => [403, 'FORBIDDEN']),
    );
    const refusals = (await auditOf(player.user.id)).filter(
      (entry) => entry.action === 'unauthorized_admin_access_attempt',
    );
    // GET /admin/users and GET /admin/users/:id: one row each.
    expect(refusals.map((entry) => entry.details.path).sort()).toEqual([
      '/api/v1/admin/users/00000000-0000-4000-8000-000000000001',
      '/api/v1/admin/users?page=0',
    ]);
    // Parallel calls too.
    const parallel = await Promise.all(
      Array.from({ length: 20 }, () =>
        ctx.app.inject({ method: 'GET', url: '/api/v1/admin/financial', headers: player.auth }),
      ),
    );
    expect(parallel.every((r) => r.statusCode === 403)).toBe(true);
    const after = (await auditOf(player.user.id)).filter(
      (entry) => entry.action === 'unauthorized_admin_access_attempt',
    );
    expect(after).toHaveLength(3);
  });

  it('refuses an admin without a live admin session with 401 ADMIN_SESSION_EXPIRED on each session route', async () => {
    const admin = await createUser(ctx);
    await grantAdmin(ctx, admin);
    const sessionRoutes = ctx.app.services.adminRoutes.filter((route) =>
      route.access.startsWith('admin_session'),
    );
    expect(sessionRoutes.length).toBeGreaterThan(3);
    for (const headers of [admin.auth, { ...admin.auth, [ADMIN_SESSION_HEADER]: 'not-a-session' }]) {
      for (const route of sessionRoutes) {
        const response = await ctx.app.inject({
          method: route.method as 'GET',
          url: concrete(route.url),
          headers,
          payload: route.method === 'GET' || route.method === 'DELETE' ? undefined : {},
        });
        expect([route.url, response.statusCode, codeOf(response)]).toEqual([
          route.url,
          401,
          'ADMIN_SESSION_EXPIRED',
        ]);
      }
    }
  });

  it('refuses an expired admin session on each session route', async () => {
    const admin = await createAdmin(ctx);
    clockOffsetMs += (ADMIN_SESSION_TTL_S + 1) * 1000;
    try {
      for (const route of ctx.app.services.adminRoutes.filter((r) => r.access.startsWith('admin_session'))) {
        const response = await ctx.app.inject({
          method: route.method as 'GET',
          url: concrete(route.url),
          headers: admin.adminAuth.auth,
          payload: route.method === 'GET' || route.method === 'DELETE' ? undefined : {},
        });
        expect([route.url, response.statusCode, codeOf(response)]).toEqual([
          route.url,
          401,
          'ADMIN_SESSION_EXPIRED',
        ]);
      }
    } finally {
      clockOffsetMs = 0;
    }
  });
});

describe('caching of admin answers', () => {
  // The Reports page's five files come from these three answers (users; subscriptions, monthly revenue and
  // cancellations from the financial page's; the audit log's own export): email addresses, IPs, user
  // agents. Like the ledger's and the account's exports, no browser or proxy may keep a copy (attack
  // review 25 L3).
  it('sends Cache-Control: no-store with every report’s data and the audit log export', async () => {
    const admin = await createAdmin(ctx);
    for (const url of ['/admin/users?page=1&per_page=100', '/admin/financial', '/admin/audit_logs/export']) {
      const response = await callApi(ctx, 'GET', url, admin.adminAuth);
      expect([url, response.statusCode, response.headers['cache-control']]).toEqual([url, 200, 'no-store']);
    }
  });

  it('sends it on every admin route, refusals included', async () => {
    for (const route of ctx.app.services.adminRoutes) {
      const response = await ctx.app.inject({
        method: route.method as 'GET',
        url: route.url.replace(/:[A-Za-z_]+/g, '00000000-0000-4000-8000-000000000000'),
        payload: route.method === 'GET' || route.method === 'DELETE' ? undefined : {},
      });
      expect([route.url, response.headers['cache-control']]).toEqual([route.url, 'no-store']);
    }
  });
});

describe('refused admin sessions (DESIGN §10: every refused attempt is audited)', () => {
  it("audits an admin's refused session with its reason, once per route, reason and window, never the session itself", async () => {
    const admin = await createAdmin(ctx);
    const otherAdmin = await createAdmin(ctx);
    const ended = await enterAdminMode(ctx, admin);
    expect((await callApi(ctx, 'DELETE', '/admin/sessions/current', ended.adminAuth)).statusCode).toBe(204);
    const login = await callApi(ctx, 'POST', '/auth/login', undefined, {
      email: admin.user.email,
      password: admin.password,
    });
    const otherSignIn = { authorization: `Bearer ${json<{ data: { token: string } }>(login).data.token}` };
    const garbage = 'x'.repeat(5000);
    const unknown = 'A'.repeat(43);
    const cases: [string, Record<string, string>][] = [
      ['missing', admin.auth],
      ['malformed', { ...admin.auth, [ADMIN_SESSION_HEADER]: garbage }],
      ['unknown', { ...admin.auth, [ADMIN_SESSION_HEADER]: unknown }],
      ['ended', ended.adminAuth.auth],
      ['other_user', { ...admin.auth, [ADMIN_SESSION_HEADER]: otherAdmin.adminSessionToken }],
      ['other_sign_in', { ...otherSignIn, [ADMIN_SESSION_HEADER]: admin.adminSessionToken }],
    ];
    for (const [reason, headers] of cases) {
      for (const url of [
        '/admin/users?page=1',
        '/admin/users?page=2',
        '/admin/users?page=3',
        '/admin/financial',
      ]) {
        const refused = await adminGet(url, headers);
        expect([reason, url, refused.statusCode, codeOf(refused)]).toEqual([
          reason,
          url,
          401,
          'ADMIN_SESSION_EXPIRED',
        ]);
      }
    }
    const refusals = (await auditOf(admin.user.id)).filter(
      (entry) => entry.action === 'admin_session_refused',
    );
    expect(
      refusals.map((entry) => `${entry.details.reason} ${entry.details.method} ${entry.details.path}`).sort(),
    ).toEqual(
      cases
        .flatMap(([reason]) => [
          `${reason} GET /api/v1/admin/financial`,
          `${reason} GET /api/v1/admin/users?page=1`,
        ])
        .sort(),
    );
    for (const entry of refusals) {
      expect(entry).toMatchObject({ actorId: admin.user.id, actorEmail: admin.user.email });
      const stored = JSON.stringify(entry);
      for (const secret of [
        garbage.slice(0, 40),
        unknown,
        admin.adminSessionToken,
        otherAdmin.adminSessionToken,
      ])
        expect(stored).not.toContain(secret);
    }
    // Another admin's session, found by its token: which session it was says whose was used.
    const borrowed = refusals.find((entry) => entry.details.reason === 'other_user');
    const [otherSession] = await ctx.database.db
      .select()
      .from(adminSessions)
      .where(eq(adminSessions.userId, otherAdmin.user.id));
    expect(borrowed).toMatchObject({
      targetType: 'admin_session',
      targetId: otherSession?.id,
      details: { session_user_id: otherAdmin.user.id },
    });
  });

  it("audits an admin's expired session as expired", async () => {
    const admin = await createAdmin(ctx);
    clockOffsetMs += (ADMIN_SESSION_TTL_S + 1) * 1000;
    try {
      const refused = await callApi(ctx, 'GET', '/admin/users', admin.adminAuth);
      expect([refused.statusCode, codeOf(refused)]).toEqual([401, 'ADMIN_SESSION_EXPIRED']);
    } finally {
      clockOffsetMs = 0;
    }
    const refusals = (await auditOf(admin.user.id)).filter(
      (entry) => entry.action === 'admin_session_refused',
    );
    expect(refusals).toHaveLength(1);
    expect(refusals[0]).toMatchObject({ targetType: 'admin_session', details: { reason: 'expired' } });
  });
});

describe('admin sessions', () => {
  let admin: SignedInUser;
  beforeAll(async () => {
    admin = await createUser(ctx);
    await grantAdmin(ctx, admin);
  });

  it('starts one for an admin, verifies it without extending it, and extends it on activity', async () => {
    const started = await callApi(ctx, 'POST', '/admin/sessions', admin);
    expect(started.statusCode).toBe(201);
    const { token, expires_at } = json<{ data: { token: string; expires_at: string } }>(started).data;
    const headers = { ...admin.auth, [ADMIN_SESSION_HEADER]: token };

    clockOffsetMs = 10 * 60_000;
    try {
      const verified = await adminGet('/admin/sessions/verify', headers);
      expect(verified.statusCode).toBe(200);
      expect(json<{ data: unknown }>(verified).data).toEqual({ valid: true, expires_at });

      expect((await adminGet('/admin/audit_logs', headers)).statusCode).toBe(200);
      const extended = json<{ data: { expires_at: string } }>(
        await adminGet('/admin/sessions/verify', headers),
      );
      expect(Date.parse(extended.data.expires_at)).toBeGreaterThan(Date.parse(expires_at) + 9 * 60_000);

      // 35 minutes after the start but 25 after the last admin call: still valid.
      clockOffsetMs = 35 * 60_000;
      expect((await adminGet('/admin/sessions/verify', headers)).statusCode).toBe(200);
      // Verifying is not activity: 31 minutes after the last admin call it has expired.
      clockOffsetMs = 41 * 60_000 + 1000;
      const expired = await adminGet('/admin/sessions/verify', headers);
      expect([expired.statusCode, codeOf(expired)]).toEqual([401, 'ADMIN_SESSION_EXPIRED']);
    } finally {
      clockOffsetMs = 0;
    }
  });

  it('ends on Exit Admin Mode and is audited', async () => {
    const session = await enterAdminMode(ctx, admin);
    const exit = await callApi(ctx, 'DELETE', '/admin/sessions/current', session.adminAuth);
    expect(exit.statusCode).toBe(204);
    const after = await callApi(ctx, 'GET', '/admin/sessions/verify', session.adminAuth);
    expect([after.statusCode, codeOf(after)]).toEqual([401, 'ADMIN_SESSION_EXPIRED']);
    const actions = (await auditOf(admin.user.id)).map((entry) => entry.action);
    expect(actions).toEqual(expect.arrayContaining(['admin_session_started', 'admin_session_ended']));
  });

  it('ends with the sign-in it belongs to, and does not work with another sign-in', async () => {
    const session = await enterAdminMode(ctx, admin);
    const login = await callApi(ctx, 'POST', '/auth/login', undefined, {
      email: admin.user.email,
      password: admin.password,
    });
    const otherSignIn = { authorization: `Bearer ${json<{ data: { token: string } }>(login).data.token}` };
    const borrowed = await adminGet('/admin/sessions/verify', {
      ...otherSignIn,
      [ADMIN_SESSION_HEADER]: session.adminSessionToken,
    });
    expect([borrowed.statusCode, codeOf(borrowed)]).toEqual([401, 'ADMIN_SESSION_EXPIRED']);

    expect((await callApi(ctx, 'DELETE', '/auth/logout', session)).statusCode).toBe(204);
    const afterLogout = await callApi(ctx, 'GET', '/admin/sessions/verify', session.adminAuth);
    expect(afterLogout.statusCode).toBe(401);
  });

  it('stops working as soon as the admin flag is revoked', async () => {
    const other = await createAdmin(ctx);
    await setAdminFlag(ctx.database.db, other.user.email, false);
    const response = await callApi(ctx, 'GET', '/admin/sessions/verify', other.adminAuth);
    expect([response.statusCode, codeOf(response)]).toEqual([403, 'FORBIDDEN']);
  });
});

describe('POST /admin/audit_logs (spec/01 §7)', () => {
  it('records a refused visit for the caller only, whatever else the body says', async () => {
    const player = await createUser(ctx);
    const victim = await createUser(ctx);
    const response = await callApi(ctx, 'POST', '/admin/audit_logs', player, {
      action: 'unauthorized_admin_access_attempt',
      path: '/admin/users',
      actor_id: victim.user.id,
      user_id: victim.user.id,
    });
    expect(response.statusCode).toBe(201);
    expect(json<{ data: unknown }>(response).data).toMatchObject({
      actor_id: player.user.id,
      actor_email: player.user.email,
      action: 'unauthorized_admin_access_attempt',
      details: { path: '/admin/users', via: 'web' },
    });
    expect(await auditOf(victim.user.id)).toEqual([]);
  });

  // An outside review: 30 permanent rows a minute per account, with any path up to 2,000 characters.
  it('keeps one entry per user and admin page a window, answering every report with the entry that stands for it', async () => {
    const player = await createUser(ctx);
    const report = (path: string) =>
      callApi(ctx, 'POST', '/admin/audit_logs', player, {
        action: 'unauthorized_admin_access_attempt',
        path,
      });
    const answers = [];
    for (let i = 0; i < 5; i += 1) {
      answers.push(await report(`/admin/users/00000000-0000-4000-8000-${String(i).padStart(12, '0')}`));
      answers.push(await report(`/admin/users?page=${i}`));
      // Not a page of the admin area: all such paths are one "page".
      answers.push(await report(`/admin/${'x'.repeat(1500)}${i}`));
    }
    expect(answers.map((answer) => answer.statusCode)).toEqual([201, 201, 201, ...Array(12).fill(200)]);
    const ids = answers.map((answer) => json<{ data: { id: string } }>(answer).data.id);
    expect(new Set(ids).size).toBe(3);
    expect(ids.slice(3)).toEqual([
      ...ids.slice(0, 3),
      ...ids.slice(0, 3),
      ...ids.slice(0, 3),
      ...ids.slice(0, 3),
    ]);

    // Reports at the same moment are one entry too.
    const parallel = await Promise.all(Array.from({ length: 8 }, () => report('/admin/financial')));
    expect(parallel.every((answer) => answer.statusCode === 200 || answer.statusCode === 201)).toBe(true);
    expect(new Set(parallel.map((answer) => json<{ data: { id: string } }>(answer).data.id)).size).toBe(1);

    const refusals = (await auditOf(player.user.id)).filter(
      (entry) => entry.action === 'unauthorized_admin_access_attempt',
    );
    expect(refusals.map((entry) => entry.details.page).sort()).toEqual([
      '/admin/*',
      '/admin/financial',
      '/admin/users',
      '/admin/users/:id',
    ]);
    expect(refusals.find((entry) => entry.details.page === '/admin/users')?.details.path).toBe(
      '/admin/users?page=0',
    );

    // A window later, the page is reported again.
    clockOffsetMs = 15 * 60_000 + 1000;
    try {
      expect((await report('/admin/users?page=9')).statusCode).toBe(201);
    } finally {
      clockOffsetMs = 0;
    }
  });

  it('accepts no other action, and nobody anonymous', async () => {
    const player = await createUser(ctx);
    const other = await callApi(ctx, 'POST', '/admin/audit_logs', player, {
      action: 'user_suspended',
      path: '/admin',
    });
    expect([other.statusCode, codeOf(other)]).toEqual([422, 'VALIDATION_ERROR']);
    const noPath = await callApi(ctx, 'POST', '/admin/audit_logs', player, {
      action: 'unauthorized_admin_access_attempt',
    });
    expect(noPath.statusCode).toBe(422);
    const anonymous = await callApi(ctx, 'POST', '/admin/audit_logs', undefined, {
      action: 'unauthorized_admin_access_attempt',
      path: '/admin',
    });
    expect(anonymous.statusCode).toBe(401);
    expect(await auditOf(player.user.id)).toEqual([]);
  });
});

describe('GET /admin/audit_logs', () => {
  it('filters by actor, action, target and dates, pages, and exports CSV', async () => {
    const admin = await createAdmin(ctx);
    const snooper = await createUser(ctx, { email: `snooper-${Date.now()}@example.com` });
    for (const path of ['/admin', '/admin/users', '=HYPERLINK("http://evil")']) {
      await callApi(ctx, 'POST', '/admin/audit_logs', snooper, {
        action: 'unauthorized_admin_access_attempt',
        path,
      });
    }
    const list = (query: string) =>
      callApi(ctx, 'GET', `/admin/audit_logs?${query}`, admin.adminAuth).then((r) => {
        expect(r.statusCode).toBe(200);
        return json<{
          data: { actor_id: string; action: string; details: { path?: string } }[];
          meta: unknown;
        }>(r);
      });

    const bySnooper = await list(`actor=${encodeURIComponent('snooper-')}`);
    expect(bySnooper.data.map((entry) => entry.details.path)).toEqual([
      '=HYPERLINK("http://evil")',
      '/admin/users',
      '/admin',
    ]);
    expect((await list(`actor=${snooper.user.id}&per_page=2&page=2`)).meta).toEqual({
      current_page: 2,
      per_page: 2,
      total_count: 3,
      total_pages: 2,
    });
    const started = await list(`action=admin_session_started&actor=${admin.user.id}`);
    expect(started.data).toHaveLength(1);
    const target = await list(`target_type=user&target_id=${admin.user.id}`);
    expect(target.data.map((entry) => entry.action)).toEqual(['admin_granted']);

    const today = new Date().toISOString().slice(0, 10);
    expect((await list(`actor=${snooper.user.id}&from=${today}&to=${today}`)).data).toHaveLength(3);
    expect((await list(`actor=${snooper.user.id}&to=2000-01-01`)).data).toHaveLength(0);
    const badDate = await callApi(ctx, 'GET', '/admin/audit_logs?from=yesterday', admin.adminAuth);
    expect(badDate.statusCode).toBe(422);
    // A range that ends before it starts is refused as analytics refuses it, not answered empty.
    for (const url of [
      '/admin/audit_logs?from=2026-12-01&to=2026-01-01',
      '/admin/audit_logs/export?from=2026-12-01&to=2026-01-01',
      '/admin/audit_logs?from=2026-01-02T00:00:00Z&to=2026-01-01T23:59:59Z',
    ]) {
      const backwards = await callApi(ctx, 'GET', url, admin.adminAuth);
      expect([url, backwards.statusCode, backwards.json()]).toEqual([
        url,
        422,
        {
          status: 'error',
          error: expect.objectContaining({
            code: 'VALIDATION_ERROR',
            details: [{ field: 'to', message: 'to must not be before from' }],
          }),
        },
      ]);
    }
    const oneDay = await callApi(
      ctx,
      'GET',
      '/admin/audit_logs?from=2026-01-01&to=2026-01-01',
      admin.adminAuth,
    );
    expect(oneDay.statusCode).toBe(200);

    const csv = await callApi(
      ctx,
      'GET',
      `/admin/audit_logs/export?actor=${snooper.user.id}`,
      admin.adminAuth,
    );
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toMatch(/^attachment; filename="haversack-audit-log-/);
    expect(csv.body.startsWith('\uFEFFcreated_at,')).toBe(true);
    const lines = csv.body.trim().split('\r\n');
    expect(lines[0]).toBe(
      'created_at,actor_email,actor_id,action,target_type,target_id,before,after,details,ip_address,user_agent',
    );
    expect(lines).toHaveLength(4);
    // Every field is quoted and quotes are doubled.
    expect(lines[1]).toContain('""path"":""=HYPERLINK(\\""http://evil\\"")""');
    expect(lines[1]).toContain(
      `"${snooper.user.email}","${snooper.user.id}","unauthorized_admin_access_attempt"`,
    );
    const exported = await list(`action=audit_log_exported&actor=${admin.user.id}`);
    expect(exported.data).toHaveLength(1);
  });

  // Year 0, or a day or a time zone past 9999-12-31, once reached PostgreSQL and failed there as a 500.
  it('refuses dates outside 1000-01-01 to 9998-12-31 with 422 naming the field, and keeps the edges', async () => {
    const admin = await createAdmin(ctx);
    for (const [field, value] of [
      ['from', '0000-01-01'],
      ['to', '0000-01-01'],
      ['to', '9999-12-31'],
      ['from', '0000-01-01T00:00:00+01:00'],
      ['to', '9999-12-31T23:59:59.999Z'],
    ] as const) {
      for (const path of ['/admin/audit_logs', '/admin/audit_logs/export']) {
        const url = `${path}?${field}=${encodeURIComponent(value)}`;
        const refused = await callApi(ctx, 'GET', url, admin.adminAuth);
        expect([url, refused.statusCode, refused.json()]).toEqual([
          url,
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
    }
    for (const query of [
      'from=1000-01-01&to=9998-12-31',
      `from=${encodeURIComponent('1000-01-01T00:00:00+14:00')}&to=${encodeURIComponent('9998-12-31T23:59:59.999-14:00')}`,
    ]) {
      const kept = await callApi(ctx, 'GET', `/admin/audit_logs?${query}`, admin.adminAuth);
      expect([query, kept.statusCode]).toEqual([query, 200]);
    }
  });
});

describe('CSV fields', () => {
  it('defuse what a spreadsheet would run as a formula', () => {
    expect(csvField('=1+1')).toBe(`"'=1+1"`);
    expect(csvField('@SUM(A1)')).toBe(`"'@SUM(A1)"`);
    expect(csvField('-2')).toBe(`"'-2"`);
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField(null)).toBe('""');
    expect(csvField({ a: 1 })).toBe('"{""a"":1}"');
    // Control characters (C1 ones too, which JSON leaves as they are) and override marks show as U+FFFD.
    expect(csvField('Mozilla\u009B31m\u0085x\u0007 \u202Eevil')).toBe(
      '"Mozilla\uFFFD31m\uFFFDx\uFFFD \uFFFDevil"',
    );
    expect(csvField({ a: '\u0085' })).toBe('"{""a"":""\uFFFD""}"');
    expect(csvField('line\r\n\tnext')).toBe('"line\r\n\tnext"');
  });
});

describe('the audit log is append-only in the database', () => {
  it('refuses UPDATE, DELETE and TRUNCATE', async () => {
    const player = await createUser(ctx);
    await callApi(ctx, 'POST', '/admin/audit_logs', player, {
      action: 'unauthorized_admin_access_attempt',
      path: '/admin',
    });
    const db = ctx.database.db;
    await expect(db.execute(sql`update audit_logs set action = 'nothing happened'`)).rejects.toThrow();
    await expect(db.execute(sql`delete from audit_logs`)).rejects.toThrow();
    await expect(db.execute(sql`truncate audit_logs`)).rejects.toThrow();
    const [row] = (await auditOf(player.user.id)).filter(
      (e) => e.action === 'unauthorized_admin_access_attempt',
    );
    expect(row?.details).toMatchObject({ path: '/admin' });
  });
});

describe('the admin flag', () => {
  it('is never taken from a request body', async () => {
    const registered = await callApi(ctx, 'POST', '/auth/register', undefined, {
      user: {
        email: `climber-${Date.now()}@example.com`,
        username: `climber_${Date.now()}`,
        password: 'Adventure1',
        password_confirmation: 'Adventure1',
        admin: true,
      },
    });
    expect(registered.statusCode).toBe(201);
    const session = json<{ data: { token: string; user: { admin: boolean } } }>(registered).data;
    expect(session.user.admin).toBe(false);
    const climber = { auth: { authorization: `Bearer ${session.token}` } };

    const patched = await callApi(ctx, 'PATCH', '/users/me', climber, { user: { admin: true }, admin: true });
    expect(patched.statusCode).toBe(200);
    const me = await callApi(ctx, 'GET', '/auth/me', climber);
    expect(json<{ data: { user: { admin: boolean } } }>(me).data.user.admin).toBe(false);
    const started = await callApi(ctx, 'POST', '/admin/sessions', climber);
    expect(started.statusCode).toBe(403);
  });
});
