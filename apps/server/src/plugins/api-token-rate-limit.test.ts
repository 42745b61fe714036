import type { ApiTokenCreated } from '@haversack/contracts';
import { afterEach, describe, expect, it } from 'vitest';
import { createUser, type SignedInUser, upgrade } from '../test/factories.js';
import { buildTestApp, callApi, fileDatabase, json, type TestContext } from '../test/helper.js';
import { defaultAuthRateLimits, scaleRateLimits } from './rate-limit.js';

// The limits are counted in each app's memory: every test builds its own app, with its own limits, on the
// file's one database, and makes users of its own there: none depends on what another wrote.
const database = fileDatabase();

let ctx: TestContext | undefined;
const current = () => {
  if (!ctx) throw new Error('no app built yet');
  return ctx;
};
afterEach(async () => {
  await ctx?.close();
  ctx = undefined;
});

async function tokenOf(user: SignedInUser, scope: 'read' | 'read_write' = 'read_write'): Promise<string> {
  const response = await callApi(current(), 'POST', '/users/me/api_tokens', user, {
    api_token: { name: 'Script', scope, expires_in_days: 30 },
  });
  expect(response.statusCode, response.body).toBe(201);
  return json<{ data: ApiTokenCreated }>(response).data.token;
}

async function payingUser(): Promise<SignedInUser> {
  const user = await createUser(current());
  await upgrade(current(), user, 'tier_2');
  return user;
}

const bearer = (token: string) => ({ auth: { authorization: `Bearer ${token}` } });
const budgetOf = (response: { headers: Record<string, unknown> }) => ({
  limit: Number(response.headers['x-ratelimit-limit']),
  remaining: Number(response.headers['x-ratelimit-remaining']),
  reset: Number(response.headers['x-ratelimit-reset']),
});

describe('the API-token budget (issue 16 §5, outside review)', () => {
  it('tells the budget on every answer and refuses past it with 429, for all of a user’s tokens together', async () => {
    ctx = await buildTestApp({
      database: database(),
      rateLimits: { apiTokenPerUser: 3, apiTokenWindowMs: 60_000 },
    });
    const user = await payingUser();
    const first = await tokenOf(user);
    const second = await tokenOf(user);

    const answers = [
      await callApi(ctx, 'GET', '/characters', bearer(first)),
      await callApi(ctx, 'GET', '/auth/me', bearer(second)),
      await callApi(ctx, 'GET', '/characters', bearer(first)),
    ];
    expect(answers.map((response) => response.statusCode)).toEqual([200, 200, 200]);
    expect(answers.map((response) => budgetOf(response).remaining)).toEqual([2, 1, 0]);
    for (const response of answers) {
      const { limit, reset } = budgetOf(response);
      expect(limit).toBe(3);
      expect(reset).toBeGreaterThan(0);
      expect(reset).toBeLessThanOrEqual(60);
    }

    const refused = await callApi(ctx, 'GET', '/characters', bearer(second));
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ status: 'error', error: { code: 'RATE_LIMITED', status: 429 } });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(budgetOf(refused)).toMatchObject({ limit: 3, remaining: 0 });

    // The web session of the same user is not limited by it, and says nothing about it.
    const session = await callApi(ctx, 'GET', '/characters', user);
    expect(session.statusCode).toBe(200);
    expect(session.headers['x-ratelimit-limit']).toBeUndefined();
    expect(session.headers['x-ratelimit-remaining']).toBeUndefined();

    // Another user's tokens have their own budget.
    const other = await payingUser();
    const theirs = await callApi(ctx, 'GET', '/characters', bearer(await tokenOf(other)));
    expect(theirs.statusCode).toBe(200);
    expect(budgetOf(theirs)).toMatchObject({ limit: 3, remaining: 2 });
  });

  it('counts and tells the budget on a refused call too', async () => {
    ctx = await buildTestApp({ database: database(), rateLimits: { apiTokenPerUser: 2 } });
    const user = await payingUser();
    const token = await tokenOf(user, 'read');
    const write = await callApi(ctx, 'POST', '/characters', bearer(token), { character: { name: 'Gimli' } });
    expect(write.statusCode).toBe(403);
    expect(budgetOf(write)).toMatchObject({ limit: 2, remaining: 1 });
    const notFound = await callApi(
      ctx,
      'GET',
      '/characters/00000000-0000-4000-8000-000000000000',
      bearer(token),
    );
    expect(notFound.statusCode).toBe(404);
    expect(budgetOf(notFound)).toMatchObject({ limit: 2, remaining: 0 });
    expect((await callApi(ctx, 'GET', '/characters', bearer(token))).statusCode).toBe(429);
  });

  it('allows 600 calls a minute per user by default, multiplied by RATE_LIMIT_SCALE', async () => {
    const scaled = scaleRateLimits(defaultAuthRateLimits, 2.5);
    expect(scaled).toMatchObject({ apiTokenPerUser: 1500, apiTokenWindowMs: 60_000 });
    ctx = await buildTestApp({ database: database() });
    const user = await payingUser();
    const response = await callApi(ctx, 'GET', '/characters', bearer(await tokenOf(user)));
    expect(response.statusCode).toBe(200);
    expect(budgetOf(response)).toMatchObject({ limit: 600, remaining: 599 });
    expect(budgetOf(response).reset).toBeGreaterThan(55);
  });

  it('refuses the 601st of 700 parallel calls with one token', async () => {
    ctx = await buildTestApp({ database: database() });
    const token = await tokenOf(await payingUser(), 'read');
    const statuses = await Promise.all(
      Array.from({ length: 700 }, () => callApi(current(), 'GET', '/auth/me', bearer(token))),
    ).then((responses) => responses.map((response) => response.statusCode));
    expect(statuses.filter((status) => status === 200)).toHaveLength(600);
    expect(statuses.filter((status) => status === 429)).toHaveLength(100);
  }, 60_000);
});
