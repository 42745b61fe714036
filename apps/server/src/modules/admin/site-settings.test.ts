import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdmin, type SignedInAdmin } from '../../test/admin.js';
import { createUser } from '../../test/factories.js';
import { buildTestApp, callApi, json, type TestContext } from '../../test/helper.js';
import { auditLogRepository } from './audit-log.repository.js';

let ctx: TestContext;
let admin: SignedInAdmin;

beforeAll(async () => {
  ctx = await buildTestApp();
  admin = await createAdmin(ctx);
});
afterAll(async () => ctx.close());

const errorOf = (response: { json(): unknown }) =>
  (response.json() as { error: { code: string; message: string } }).error;
const setSettings = (settings: Record<string, boolean>) =>
  callApi(ctx, 'PUT', '/admin/settings', admin.adminAuth, { settings });

describe('maintenance mode', () => {
  it('refuses writes from non-admins with 503 while reads, sign-in and admins still work', async () => {
    const player = await createUser(ctx);
    expect((await setSettings({ maintenance_mode: true })).statusCode).toBe(200);
    expect(json<{ data: unknown }>(await callApi(ctx, 'GET', '/site_settings')).data).toEqual({
      maintenance_mode: true,
      registration_open: true,
    });

    const write = await callApi(ctx, 'POST', '/parties', player, { party: { name: 'Late Night' } });
    expect([write.statusCode, errorOf(write)]).toEqual([
      503,
      expect.objectContaining({ code: 'MAINTENANCE_MODE', message: 'System is in maintenance mode.' }),
    ]);
    expect((await callApi(ctx, 'GET', '/parties', player)).statusCode).toBe(200);
    const signIn = await callApi(ctx, 'POST', '/auth/login', undefined, {
      email: player.user.email,
      password: player.password,
    });
    expect(signIn.statusCode).toBe(200);
    const adminWrite = await callApi(ctx, 'POST', '/parties', admin, { party: { name: 'Staff Table' } });
    expect(adminWrite.statusCode).toBe(201);

    expect((await setSettings({ maintenance_mode: false })).statusCode).toBe(200);
    expect(
      (await callApi(ctx, 'POST', '/parties', player, { party: { name: 'Back Again' } })).statusCode,
    ).toBe(201);
    const changes = (await auditLogRepository.forSubject(ctx.database.db, admin.user.id)).filter(
      (e) => e.action === 'setting_changed',
    );
    expect(changes.map((e) => [e.targetId, e.before, e.after])).toEqual([
      ['maintenance_mode', { maintenance_mode: true }, { maintenance_mode: false }],
      ['maintenance_mode', { maintenance_mode: false }, { maintenance_mode: true }],
    ]);
  });
});

describe('closed registration', () => {
  it('refuses new accounts with a clear message until it opens again', async () => {
    expect((await setSettings({ registration_open: false })).statusCode).toBe(200);
    const body = {
      user: {
        email: `late-${Date.now()}@example.com`,
        username: `late_${Date.now()}`,
        password: 'Adventure1',
        password_confirmation: 'Adventure1',
      },
    };
    const refused = await callApi(ctx, 'POST', '/auth/register', undefined, body);
    expect([refused.statusCode, errorOf(refused).code]).toEqual([403, 'REGISTRATION_CLOSED']);
    expect(errorOf(refused).message).toBe(
      'Registration is closed: new accounts cannot be created right now.',
    );
    expect((await setSettings({ registration_open: true })).statusCode).toBe(200);
    expect((await callApi(ctx, 'POST', '/auth/register', undefined, body)).statusCode).toBe(201);
  });

  it('refuses a change naming no setting with 422, changing nothing', async () => {
    // Nothing named, or only a name the schema does not know (and drops).
    const namingNothing: Record<string, boolean>[] = [{}, { maintenance: true }];
    for (const settings of namingNothing) {
      const empty = await setSettings(settings);
      expect([empty.statusCode, errorOf(empty)]).toEqual([
        422,
        expect.objectContaining({
          code: 'VALIDATION_ERROR',
          message: 'No setting to change: name at least one of maintenance_mode and registration_open.',
        }),
      ]);
    }
    expect(json<{ data: unknown }>(await callApi(ctx, 'GET', '/site_settings')).data).toEqual({
      maintenance_mode: false,
      registration_open: true,
    });
  });

  it('is changed by admins only', async () => {
    const player = await createUser(ctx);
    const refused = await callApi(ctx, 'PUT', '/admin/settings', player, {
      settings: { registration_open: false },
    });
    expect(refused.statusCode).toBe(403);
  });
});
