import { defaultPreferences } from '@haversack/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../test/factories.js';
import { buildTestApp, type TestContext } from '../../test/helper.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await buildTestApp();
});
afterAll(async () => ctx.close());

describe('/users/preferences', () => {
  it('starts from the defaults of spec/01 §3', async () => {
    const user = await createUser(ctx);
    const response = await ctx.app.inject({ url: '/users/preferences', headers: user.auth });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'success', data: { preferences: defaultPreferences } });
  });

  it('updates any subset and keeps the rest', async () => {
    const user = await createUser(ctx);
    const put = (preferences: unknown) =>
      ctx.app.inject({
        method: 'PUT',
        url: '/users/preferences',
        headers: user.auth,
        payload: { preferences } as object,
      });
    await put({ theme: 'dark', unknownKey: 1 });
    const response = await put({ soundEffects: true });
    expect(response.json()).toEqual({
      status: 'success',
      data: { preferences: { ...defaultPreferences, theme: 'dark', soundEffects: true } },
    });
    const read = await ctx.app.inject({ url: '/users/preferences', headers: user.auth });
    expect(read.json()).not.toHaveProperty('data.preferences.unknownKey');
  });

  it('no longer has dice animation (issue 12): a value sent is dropped', async () => {
    const user = await createUser(ctx);
    const response = await ctx.app.inject({
      method: 'PUT',
      url: '/users/preferences',
      headers: user.auth,
      payload: { preferences: { diceRollAnimation: false, compactView: true } },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      status: 'success',
      data: { preferences: { ...defaultPreferences, compactView: true } },
    });
    expect(Object.keys(defaultPreferences)).not.toContain('diceRollAnimation');
    expect(defaultPreferences.soundEffects).toBe(false);
  });

  it('refuses wrong types and changes nothing', async () => {
    const user = await createUser(ctx);
    const response = await ctx.app.inject({
      method: 'PUT',
      url: '/users/preferences',
      headers: user.auth,
      payload: { preferences: { theme: 'purple', compactView: 'yes' } },
    });
    expect(response.statusCode).toBe(422);
    const fields = (response.json() as { error: { details: { field: string }[] } }).error.details.map(
      (d) => d.field,
    );
    expect(fields).toEqual(expect.arrayContaining(['preferences.theme', 'preferences.compactView']));
    const read = await ctx.app.inject({ url: '/users/preferences', headers: user.auth });
    expect(read.json()).toEqual({ status: 'success', data: { preferences: defaultPreferences } });
  });

  it('requires sign-in', async () => {
    const response = await ctx.app.inject({ url: '/users/preferences' });
    expect(response.statusCode).toBe(401);
    const put = await ctx.app.inject({
      method: 'PUT',
      url: '/users/preferences',
      payload: { preferences: {} },
    });
    expect(put.statusCode).toBe(401);
  });
});
