import { createHash, createHmac, randomUUID } from 'node:crypto';
import { idempotencyMessages } from '@haversack/contracts';
import { eq } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { processName } from '../db/claim-commits.js';
import { idempotencyKeys } from '../db/schema/idempotency-keys.js';
import { transactions } from '../db/schema/inventory.js';
import { itemInstances } from '../db/schema/items.js';
import {
  createCharacter,
  createTemplate,
  createUser,
  type SignedInUser,
  upgrade,
} from '../test/factories.js';
import { buildTestApp, callApi, type TestContext } from '../test/helper.js';
import { IDEMPOTENCY_CLAIM_HOLD_MS, IDEMPOTENCY_TTL_MS } from './idempotency.js';

let ctx: TestContext;
let baseUrl: string;
let clockOffsetMs = 0;

beforeAll(async () => {
  ctx = await buildTestApp({
    now: () => new Date(Date.now() + clockOffsetMs),
    rateLimits: { joinCodePerUser: 2 },
  });
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  const address = ctx.app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  baseUrl = `http://127.0.0.1:${address.port}/api/v1`;
});
afterAll(async () => ctx.close());

/** A player with 20 arrows in the backpack and an empty quiver. */
async function archer() {
  const user = await createUser(ctx);
  const hero = await createCharacter(ctx, user, { maxWeight: null, maxSlots: null });
  const backpack = String(hero.primary_container_id);
  const quiver = (
    (
      await callApi(ctx, 'POST', `/characters/${hero.id}/containers`, user, { container: { name: 'Quiver' } })
    ).json() as {
      data: { id: string };
    }
  ).data.id;
  const arrow = await createTemplate(ctx, { name: 'Arrow', stackSize: 0 });
  const added = await callApi(ctx, 'POST', '/item_instances', user, {
    item_template_id: arrow.id,
    container_id: backpack,
    quantity: 20,
  });
  const stack = (added.json() as { data: { id: string }[] }).data[0]?.id ?? '';
  return { user, backpack, quiver, stack };
}

function transfer(
  user: SignedInUser,
  body: { stack: string; from: string; to: string; quantity: number },
  key?: string,
) {
  return fetch(`${baseUrl}/containers/transfer`, {
    method: 'POST',
    headers: {
      ...user.auth,
      'content-type': 'application/json',
      ...(key === undefined ? {} : { 'idempotency-key': key }),
    },
    body: JSON.stringify({
      item_instance_id: body.stack,
      source_container_id: body.from,
      target_container_id: body.to,
      quantity: body.quantity,
    }),
  });
}

async function held(containerId: string) {
  const rows = await ctx.database.db
    .select()
    .from(itemInstances)
    .where(eq(itemInstances.containerId, containerId));
  return rows.reduce((sum, row) => sum + row.quantity, 0);
}

async function moves(containerId: string) {
  const rows = await ctx.database.db
    .select()
    .from(transactions)
    .where(eq(transactions.destinationContainerId, containerId));
  // Rows that moved items in (the quiver's own creation row names it too).
  return rows.filter((row) => row.itemTemplateId !== null).length;
}

describe('Idempotency-Key', () => {
  it('makes a change once however often it is sent, and answers every repeat the same', async () => {
    const a = await archer();
    const move = { stack: a.stack, from: a.backpack, to: a.quiver, quantity: 3 };
    const first = await transfer(a.user, move, 'move-arrows-1');
    expect(first.status).toBe(200);
    const firstBody = await first.text();
    for (let i = 0; i < 3; i += 1) {
      const again = await transfer(a.user, move, 'move-arrows-1');
      expect(again.status).toBe(200);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(await again.text()).toBe(firstBody);
    }
    expect(await held(a.quiver)).toBe(3);
    expect(await moves(a.quiver)).toBe(1);
    // Without a key, each request is a change of its own.
    await transfer(a.user, move);
    await transfer(a.user, move);
    expect(await held(a.quiver)).toBe(9);
  });

  it('makes a change once when the same key arrives ten times at once', async () => {
    const a = await archer();
    const move = { stack: a.stack, from: a.backpack, to: a.quiver, quantity: 2 };
    const answers = await Promise.all(Array.from({ length: 10 }, () => transfer(a.user, move, 'burst-1')));
    const statuses = answers.map((answer) => answer.status);
    // Each is the change's own answer, its replay, or "still being handled": never a second change.
    expect(statuses.every((status) => status === 200 || status === 409)).toBe(true);
    expect(statuses).toContain(200);
    const busy = answers.find((answer) => answer.status === 409);
    if (busy) expect(busy.headers.get('retry-after')).toBe('1');
    if (busy)
      expect(((await busy.json()) as { error: { message: string } }).error.message).toBe(
        idempotencyMessages.inProgress,
      );
    expect(await held(a.quiver)).toBe(2);
    expect(await held(a.backpack)).toBe(18);
    expect(await moves(a.quiver)).toBe(1);
  });

  it('refuses the key for another request, keeps no refusal, and holds keys per user', async () => {
    const a = await archer();
    const move = { stack: a.stack, from: a.backpack, to: a.quiver, quantity: 1 };
    expect((await transfer(a.user, move, 'k-1')).status).toBe(200);
    const other = await transfer(a.user, { ...move, quantity: 2 }, 'k-1');
    expect(other.status).toBe(422);
    expect(((await other.json()) as { error: { message: string } }).error.message).toBe(
      idempotencyMessages.reused,
    );
    expect(await held(a.quiver)).toBe(1);

    const tooMany = { ...move, quantity: 500 };
    const refused = await transfer(a.user, tooMany, 'k-2');
    expect(refused.status).toBe(422);
    // A refusal changed nothing, so it is not kept: the same key is answered afresh, and is free for a
    // corrected request.
    const again = await transfer(a.user, tooMany, 'k-2');
    expect(again.status).toBe(422);
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    expect((await transfer(a.user, move, 'k-2')).status).toBe(200);
    expect(await held(a.quiver)).toBe(2);

    const b = await archer();
    expect(
      (await transfer(b.user, { stack: b.stack, from: b.backpack, to: b.quiver, quantity: 1 }, 'k-1')).status,
    ).toBe(200);
    expect(await held(b.quiver)).toBe(1);

    const bad = await transfer(a.user, move, 'x'.repeat(256));
    expect(bad.status).toBe(422);
    expect(((await bad.json()) as { error: { details: unknown[] } }).error.details).toEqual([
      { field: 'Idempotency-Key', message: idempotencyMessages.invalidKey },
    ]);
    expect(await held(a.quiver)).toBe(2);
  });

  it('keeps no answer that carries a secret, and no trace of a password in a fingerprint', async () => {
    const a = await archer();
    await upgrade(ctx, a.user, 'tier_3'); // API tokens come with Hero and Legend
    const keyed = (path: string, body: unknown, key: string) =>
      fetch(`${baseUrl}${path}`, {
        method: 'POST',
        headers: { ...a.user.auth, 'content-type': 'application/json', 'idempotency-key': key },
        body: JSON.stringify(body),
      });
    const rows = async () =>
      ctx.database.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.userId, a.user.user.id));
    const before = (await rows()).length;
    // An API token's secret is in its answer: the route ignores the key, and each request is a token.
    const token = { api_token: { name: 'Foundry', scope: 'read', expires_in_days: 30 } };
    const first = await keyed('/users/me/api_tokens', token, 'token-1');
    const second = await keyed('/users/me/api_tokens', token, 'token-1');
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(second.headers.get('idempotent-replayed')).toBeNull();
    expect(((await first.json()) as { data: { token: string } }).data.token).not.toBe(
      ((await second.json()) as { data: { token: string } }).data.token,
    );
    expect(await rows()).toHaveLength(before);

    // A kept request is known by a keyed digest of its body, not a plain hash someone could guess against.
    const body = {
      item_instance_id: a.stack,
      source_container_id: a.backpack,
      target_container_id: a.quiver,
      quantity: 1,
    };
    expect((await keyed('/containers/transfer', body, 'digest-1')).status).toBe(200);
    const [row] = (await rows()).filter((r) => r.key === 'digest-1');
    const plain = createHash('sha256').update(JSON.stringify(body)).digest('base64url');
    expect(row?.fingerprint).toMatch(/^POST \/api\/v1\/containers\/transfer \S+$/);
    expect(row?.fingerprint).not.toContain(plain);
  });

  // A 4xx changed nothing, so keeping it would only replay a stale refusal once its cause is fixed.
  it('keeps no 4xx: after an upgrade the same key goes through, and a 404 is answered afresh', async () => {
    const a = await archer(); // on Free, with the one character Free allows
    const keyed = (path: string, body: unknown, key: string) =>
      fetch(`${baseUrl}${path}`, {
        method: 'POST',
        headers: { ...a.user.auth, 'content-type': 'application/json', 'idempotency-key': key },
        body: JSON.stringify(body),
      });
    const second = { character: { name: 'Second' } };
    const limited = await keyed('/characters', second, 'limit-replay-1');
    expect(limited.status).toBe(403);
    expect(((await limited.json()) as { error: { code: string } }).error.code).toBe('LIMIT_EXCEEDED');
    await upgrade(ctx, a.user, 'tier_2');
    const created = await keyed('/characters', second, 'limit-replay-1');
    expect(created.status, await created.clone().text()).toBe(201);
    expect(created.headers.get('idempotent-replayed')).toBeNull();
    // The answer that changed something is kept and replayed as before.
    const replayed = await keyed('/characters', second, 'limit-replay-1');
    expect(replayed.status).toBe(201);
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');

    const template = await createTemplate(ctx, { name: 'Rope' });
    const nowhere = { item_template_id: template.id, container_id: crypto.randomUUID(), quantity: 1 };
    expect((await keyed('/item_instances', nowhere, 'missing-1')).status).toBe(404);
    const stillMissing = await keyed('/item_instances', nowhere, 'missing-1');
    expect(stillMissing.status).toBe(404);
    expect(stillMissing.headers.get('idempotent-replayed')).toBeNull();
    const kept = await ctx.database.db
      .select()
      .from(idempotencyKeys)
      .where(eq(idempotencyKeys.userId, a.user.user.id));
    expect(kept.map((row) => [row.key, row.status])).toEqual([['limit-replay-1', 201]]);
  });

  it('keeps no rate limit: once the limit has passed, the same key goes through', async () => {
    const a = await archer();
    const join = (key?: string) =>
      fetch(`${baseUrl}/parties/join`, {
        method: 'POST',
        headers: {
          ...a.user.auth,
          'content-type': 'application/json',
          ...(key ? { 'idempotency-key': key } : {}),
        },
        body: JSON.stringify({ join_code: 'ZZZZZZ', role_request: 'player' }),
      });
    await join();
    await join();
    const limited = await join('join-1');
    expect(limited.status).toBe(429);
    const again = await join('join-1');
    expect(again.status).toBe(429);
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    expect(again.headers.get('retry-after')).not.toBeNull();
  });

  it('takes a key a day old as a new one', async () => {
    const a = await archer();
    const move = { stack: a.stack, from: a.backpack, to: a.quiver, quantity: 1 };
    expect((await transfer(a.user, move, 'daily')).status).toBe(200);
    clockOffsetMs = IDEMPOTENCY_TTL_MS + 60_000;
    try {
      const later = await transfer(a.user, move, 'daily');
      expect(later.status).toBe(200);
      expect(later.headers.get('idempotent-replayed')).toBeNull();
    } finally {
      clockOffsetMs = 0;
    }
    expect(await held(a.quiver)).toBe(2);
  });
});

describe('Idempotency-Key after its process died', () => {
  type Move = { stack: string; from: string; to: string; quantity: number };
  /** The fingerprint the server gives a transfer (plugins/idempotency.ts: method, path, HMAC of the body). */
  const fingerprintOf = (move: Move) => {
    const body = JSON.stringify({
      item_instance_id: move.stack,
      source_container_id: move.from,
      target_container_id: move.to,
      quantity: move.quantity,
    });
    return `POST /api/v1/containers/transfer ${createHmac('sha256', ctx.jwtSecret ?? '')
      .update(body)
      .digest('base64url')}`;
  };
  /** The claim a process left when it was killed while its request ran: no answer kept. */
  const leaveClaim = (
    user: SignedInUser,
    key: string,
    move: Move,
    claim: { claimedBy?: string; at?: Date },
  ) =>
    ctx.database.db.insert(idempotencyKeys).values({
      userId: user.user.id,
      key,
      fingerprint: fingerprintOf(move),
      ...(claim.claimedBy ? { claimedBy: claim.claimedBy } : {}),
      createdAt: claim.at ?? new Date(),
    });

  it('makes a change whose process died before it committed, once, when the same key comes again', async () => {
    const a = await archer();
    const move = { stack: a.stack, from: a.backpack, to: a.quiver, quantity: 3 };
    // Another process, gone now (a kill -9): its claim was never marked, so its transaction rolled back.
    await leaveClaim(a.user, 'crashed-1', move, { claimedBy: randomUUID() });
    const retry = await transfer(a.user, move, 'crashed-1');
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
    const again = await transfer(a.user, move, 'crashed-1');
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await held(a.quiver)).toBe(3);
    expect(await held(a.backpack)).toBe(17);
    expect(await moves(a.quiver)).toBe(1);
  });

  it('waits for a claim of another process that still runs (PostgreSQL)', async () => {
    if (ctx.database.kind !== 'postgres') return;
    const a = await archer();
    const move = { stack: a.stack, from: a.backpack, to: a.quiver, quantity: 1 };
    const other = randomUUID();
    // Another server process on the same database: its connections carry its name.
    const url = inject('postgresTemplate')?.url ?? '';
    const connection = new pg.Client({ connectionString: url, application_name: processName(other) });
    await connection.connect();
    try {
      await leaveClaim(a.user, 'elsewhere-1', move, { claimedBy: other });
      const retry = await transfer(a.user, move, 'elsewhere-1');
      expect(retry.status).toBe(409);
      expect(retry.headers.get('retry-after')).toBe('1');
    } finally {
      await connection.end();
    }
    // Gone now: its claim, never marked, is taken over.
    const later = await transfer(a.user, move, 'elsewhere-1');
    expect(later.status).toBe(200);
    expect(await held(a.quiver)).toBe(1);
  });

  it('takes over a claim held past the longest a request runs, and the change is made once', async () => {
    const a = await archer();
    const move = { stack: a.stack, from: a.backpack, to: a.quiver, quantity: 4 };
    await leaveClaim(a.user, 'stuck-1', move, {
      at: new Date(Date.now() - IDEMPOTENCY_CLAIM_HOLD_MS - 5_000),
    });
    const [first, second] = await Promise.all([
      transfer(a.user, move, 'stuck-1'),
      transfer(a.user, move, 'stuck-1'),
    ]);
    // One makes the change; the other is its replay, or waits while it runs: never a second change.
    const statuses = [first?.status, second?.status];
    expect(statuses).toContain(200);
    expect(statuses.every((status) => status === 200 || status === 409)).toBe(true);
    expect(await held(a.quiver)).toBe(4);
    expect(await moves(a.quiver)).toBe(1);
  });

  it('never makes again a change that committed when its answer was lost, and says so', async () => {
    const a = await archer();
    const move = { stack: a.stack, from: a.backpack, to: a.quiver, quantity: 2 };
    expect((await transfer(a.user, move, 'lost-1')).status).toBe(200);
    const [row] = await ctx.database.db
      .select()
      .from(idempotencyKeys)
      .where(eq(idempotencyKeys.key, 'lost-1'));
    // The transfer's own transaction marked its claim before it committed.
    expect(row?.committed).toBe(true);
    // The process died after the commit, before it kept the answer.
    await ctx.database.db
      .update(idempotencyKeys)
      .set({ status: null, body: null, contentType: null, claimedBy: randomUUID() })
      .where(eq(idempotencyKeys.key, 'lost-1'));
    for (let i = 0; i < 2; i += 1) {
      const retry = await transfer(a.user, move, 'lost-1');
      expect(retry.status).toBe(409);
      expect(retry.headers.get('retry-after')).toBeNull();
      expect(((await retry.json()) as { error: { code: string; message: string } }).error).toMatchObject({
        code: 'CONFLICT',
        message: idempotencyMessages.answerLost,
      });
    }
    expect(await held(a.quiver)).toBe(2);
    expect(await moves(a.quiver)).toBe(1);
  });

  it('marks nothing for a refused change: its key is free again at once', async () => {
    const a = await archer();
    const tooMany = { stack: a.stack, from: a.backpack, to: a.quiver, quantity: 50 };
    expect((await transfer(a.user, tooMany, 'refused-1')).status).toBe(422);
    const rows = await ctx.database.db
      .select()
      .from(idempotencyKeys)
      .where(eq(idempotencyKeys.key, 'refused-1'));
    expect(rows).toEqual([]);
  });
});
