import { type ApiTokenCreated, apiTokenMessages } from '@haversack/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, createParty, createUser, type SignedInUser, upgrade } from '../test/factories.js';
import { buildTestApp, callApi, json, type TestContext } from '../test/helper.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await buildTestApp();
});
afterAll(async () => ctx.close());

async function tokenOf(user: SignedInUser, scope: 'read' | 'read_write'): Promise<string> {
  const response = await callApi(ctx, 'POST', '/users/me/api_tokens', user, {
    api_token: { name: 'Script', scope, expires_in_days: 30 },
  });
  expect(response.statusCode, response.body).toBe(201);
  return json<{ data: ApiTokenCreated }>(response).data.token;
}

async function payingUser(): Promise<SignedInUser> {
  const user = await createUser(ctx);
  await upgrade(ctx, user, 'tier_2');
  return user;
}

const bearer = (token: string) => ({ auth: { authorization: `Bearer ${token}` } });
const errorOf = (response: { json(): unknown }) =>
  (response.json() as { error: { code: string; message: string } }).error;

describe('what a read-only API token may call (issue 16 §5, outside review)', () => {
  it('asks the plan questions that take a body: check_feature and check_limit', async () => {
    const token = await tokenOf(await payingUser(), 'read');
    const feature = await callApi(ctx, 'POST', '/subscription/check_feature', bearer(token), {
      feature: 'api_access',
    });
    expect(feature.statusCode, feature.body).toBe(200);
    expect(json(feature)).toMatchObject({
      status: 'success',
      data: { allowed: true, feature: 'api_access' },
    });
    const limit = await callApi(ctx, 'POST', '/subscription/check_limit', bearer(token), {
      resource: 'characters',
      count: 1,
    });
    expect(limit.statusCode, limit.body).toBe(200);
    expect(json(limit)).toMatchObject({ status: 'success', data: { allowed: true, resource: 'characters' } });
    // Their own validation still answers.
    const unknown = await callApi(ctx, 'POST', '/subscription/check_limit', bearer(token), {
      resource: 'dragons',
      count: 1,
    });
    expect(unknown.statusCode).toBe(422);
  });

  it('is still refused every other call that is not GET, with 403', async () => {
    const user = await payingUser();
    const token = await tokenOf(user, 'read');
    const refused = [
      await callApi(ctx, 'POST', '/characters', bearer(token), { character: { name: 'Gimli' } }),
      await callApi(ctx, 'DELETE', '/characters/00000000-0000-4000-8000-000000000000', bearer(token)),
      await callApi(ctx, 'POST', '/parties', bearer(token), { party: { name: 'Fellowship' } }),
    ];
    for (const response of refused) {
      expect(response.statusCode, response.body).toBe(403);
      expect(errorOf(response)).toMatchObject({ code: 'FORBIDDEN', message: apiTokenMessages.readOnly });
    }
    // Billing stays out of reach of every token, read_write included.
    for (const scope of ['read', 'read_write'] as const) {
      const checkout = await callApi(
        ctx,
        'POST',
        '/subscription/checkout',
        bearer(await tokenOf(user, scope)),
        {
          tier_id: 'tier_3',
        },
      );
      expect(checkout.statusCode).toBe(403);
      expect(errorOf(checkout)).toMatchObject({ code: 'FORBIDDEN', message: apiTokenMessages.sessionOnly });
    }
  });

  it('never starts or ends a sponsorship: it hands out a paid plan, as billing does', async () => {
    const patron = await payingUser();
    const party = await createParty(ctx, patron);
    const player = await createMember(ctx, party, 'player');
    const token = bearer(await tokenOf(patron, 'read_write'));
    const grant = { beneficiary_id: player.user.id, party_id: party.id };
    const started = await callApi(ctx, 'POST', '/patronages', token, grant);
    expect(started.statusCode, started.body).toBe(403);
    expect(errorOf(started)).toMatchObject({ code: 'FORBIDDEN', message: apiTokenMessages.sessionOnly });
    expect(json<{ data: unknown[] }>(await callApi(ctx, 'GET', '/patronages', token)).data).toEqual([]);

    // One started in the web app is not ended by a token either, by its patron's or its beneficiary's.
    const running = await callApi(ctx, 'POST', '/patronages', patron, grant);
    expect(running.statusCode).toBe(201);
    const id = json<{ data: { id: string } }>(running).data.id;
    await upgrade(ctx, player, 'tier_2');
    for (const holder of [patron, player]) {
      const ended = await callApi(
        ctx,
        'DELETE',
        `/patronages/${id}`,
        bearer(await tokenOf(holder, 'read_write')),
      );
      expect(ended.statusCode, ended.body).toBe(403);
      expect(errorOf(ended)).toMatchObject({ code: 'FORBIDDEN', message: apiTokenMessages.sessionOnly });
    }
    expect(json<{ data: unknown[] }>(await callApi(ctx, 'GET', '/patronages', token)).data).toHaveLength(1);
  });

  it('is explained in the API document, with the rate limit', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/docs/json' });
    const { description } = (response.json() as { info: { description: string } }).info;
    for (const words of ['subscription/check_feature', 'subscription/check_limit', 'need no token']) {
      expect(description).toContain(words);
    }
    for (const header of ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'Retry-After']) {
      expect(description).toContain(header);
    }
  });

  it('answers 401 to the read-only POSTs without a token', async () => {
    const anonymous = await callApi(ctx, 'POST', '/subscription/check_feature', undefined, {
      feature: 'api_access',
    });
    expect(anonymous.statusCode).toBe(401);
  });
});
