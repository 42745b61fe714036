import { MAX_API_TOKENS } from '@haversack/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, json, type TestContext } from '../test/helper.js';

interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, { requestBody?: unknown; responses?: Record<string, unknown> }>>;
}

// issue 13 §6: the documentation is made on its first request, by an app of its own, and answered through
// the app's hooks as if the app served it itself.
describe('the API documentation, made on its first request', () => {
  let ctx: TestContext;

  beforeAll(async () => {
    ctx = await buildTestApp();
  });
  afterAll(async () => ctx?.close());

  it('describes the routes the app declared, and only those', async () => {
    // Three at once, as a browser opening the page would: one documentation app answers them all.
    const [first, ...others] = await Promise.all(
      [1, 2, 3].map(() => ctx.app.inject({ url: '/api/docs/json' })),
    );
    for (const answer of [first, ...others]) expect(answer?.statusCode).toBe(200);
    expect(others.map((answer) => answer.body)).toEqual([first?.body, first?.body]);
    const doc = json<OpenApiDocument>(first as NonNullable<typeof first>);
    expect(doc.openapi).toBe('3.1.0');
    const transfer = doc.paths['/api/v1/containers/transfer'];
    expect(Object.keys(transfer ?? {})).toEqual(['post']);
    expect(transfer?.post?.requestBody).toBeDefined();
    expect(Object.keys(transfer?.post?.responses ?? {})).toContain('200');
    // GET routes are described once, without the HEAD routes Fastify adds to them.
    expect(Object.keys(doc.paths['/api/v1/health'] ?? {})).toEqual(['get']);
    expect(Object.keys(doc.paths).filter((path) => path.startsWith('/api/docs'))).toEqual([]);
  });

  it('lists the failures of every operation in the error envelope, and a DELETE as 204', async () => {
    const doc = json<
      OpenApiDocument & {
        components: { responses: Record<string, { description: string; content: unknown }> };
      }
    >(await ctx.app.inject({ url: '/api/docs/json' }));
    const transfer = doc.paths['/api/v1/containers/transfer']?.post?.responses ?? {};
    // Transfers fail in their spec shape (spec/02 §8): the envelope with success false and errors.
    expect(transfer['422']).toEqual({ $ref: '#/components/responses/TransferError422' });
    expect(transfer['409']).toEqual({ $ref: '#/components/responses/TransferError409' });
    const character = doc.paths['/api/v1/characters/{id}'] ?? {};
    expect(character.get?.responses?.['404']).toEqual({ $ref: '#/components/responses/Error404' });
    expect(character.get?.responses?.['409']).toBeUndefined();
    expect(Object.keys(character.delete?.responses ?? {})).toContain('204');
    expect(Object.keys(character.delete?.responses ?? {})).not.toContain('200');
    const { responses } = doc.components;
    expect(responses.Error403?.description).toMatch(/FORBIDDEN.*LIMIT_EXCEEDED.*FEATURE_NOT_AVAILABLE/);
    expect(responses.Error409?.description).toMatch(/CONFLICT.*ITEM_OUT_OF_STOCK.*SHOP_CLOSED/);
    expect(responses.Error415?.description).toMatch(/Content-Type application\/json/);
    // The browsable page's examples: a 404 reads as one, and no integer offers -9007199254740991.
    expect(responses.Error404?.content).toMatchObject({
      'application/json': { example: { error: { code: 'RESOURCE_NOT_FOUND', status: 404 } } },
    });
    expect(JSON.stringify(doc)).not.toContain('9007199254740991');
    // Every success says what it holds, and the document cites none of our own specification's sections.
    const successes = Object.values(doc.paths).flatMap((operations) =>
      Object.values(operations).flatMap((operation) =>
        Object.entries(operation.responses ?? {})
          .filter(([status]) => status.startsWith('2'))
          .map(([, answer]) => (answer as { description?: string }).description),
      ),
    );
    expect(successes.filter((description) => description === 'Default Response')).toEqual([]);
    expect(transfer['200']).toMatchObject({ description: expect.stringMatching(/^Done: ./) });
    expect(JSON.stringify(doc)).not.toMatch(/spec\/0\d|\(issue \d+\)/);
    // The CSV export has no pages, and says it answers CSV.
    const csv = doc.paths['/api/v1/transactions/party/{partyId}/export.csv']?.get as
      | { parameters?: { name: string }[]; responses?: Record<string, { content?: Record<string, unknown> }> }
      | undefined;
    expect(csv?.parameters?.map((parameter) => parameter.name)).not.toContain('per_page');
    expect(Object.keys(csv?.responses?.['200']?.content ?? {})).toEqual(['text/csv']);
    // Sign-up and sign-in need no token; everything else says which it takes.
    const register = doc.paths['/api/v1/auth/register']?.post as { security?: unknown } | undefined;
    expect(register?.security).toEqual([]);
  });

  it('documents as 204 the POSTs that answer no content (declining an invitation, closing an announcement)', async () => {
    const doc = json<OpenApiDocument>(await ctx.app.inject({ url: '/api/docs/json' }));
    for (const path of ['/api/v1/invitations/{invitationId}/decline', '/api/v1/announcements/{id}/dismiss']) {
      const answers = Object.keys(doc.paths[path]?.post?.responses ?? {});
      expect(answers, path).toContain('204');
      expect(answers, path).not.toContain('200');
    }
  });

  it('declares Idempotency-Key where it is honoured, and the headers of rate limits and replays', async () => {
    type Parameter = { in: string; name: string; required?: boolean };
    type Answer = { headers?: Record<string, unknown>; $ref?: string };
    type Operation = { parameters?: Parameter[]; responses?: Record<string, Answer> };
    const doc = json<{
      paths: Record<string, Record<string, Operation>>;
      components: { responses: Record<string, Answer>; headers: Record<string, unknown> };
    }>(await ctx.app.inject({ url: '/api/docs/json' }));
    const operation = (path: string, method: string) => doc.paths[path]?.[method] ?? {};
    const keyOf = (op: Operation) => op.parameters?.find((parameter) => parameter.name === 'Idempotency-Key');
    const headersOf = (op: Operation, status: string) => Object.keys(op.responses?.[status]?.headers ?? {});
    const rateLimit = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'];

    // A signed-in caller's change honours the key (plugins/idempotency.ts): optional, in the header.
    const create = operation('/api/v1/item_instances', 'post');
    expect(keyOf(create)).toMatchObject({ in: 'header', name: 'Idempotency-Key', required: false });
    expect(headersOf(create, '201')).toEqual(expect.arrayContaining([...rateLimit, 'Idempotent-Replayed']));
    expect(keyOf(operation('/api/v1/characters/{id}', 'delete'))).toBeDefined();
    // A read, a public call and a module that keeps no answers (its answers carry secrets) do not.
    const read = operation('/api/v1/characters/{id}', 'get');
    expect(keyOf(read)).toBeUndefined();
    expect(headersOf(read, '200')).toEqual(expect.arrayContaining(rateLimit));
    expect(headersOf(read, '200')).not.toContain('Idempotent-Replayed');
    const register = operation('/api/v1/auth/register', 'post');
    expect(keyOf(register)).toBeUndefined();
    expect(headersOf(register, '201')).not.toContain('X-RateLimit-Limit');
    const mint = operation('/api/v1/users/me/api_tokens', 'post');
    expect(keyOf(mint)).toBeUndefined();
    // A session-only call is never made with a token, so it tells no token budget on success.
    expect(headersOf(mint, '201')).not.toContain('X-RateLimit-Limit');

    // Every 429 says when to retry; the failures a token call or a replay can meet say so too.
    const { responses } = doc.components;
    expect(Object.keys(responses.Error429?.headers ?? {})).toEqual(
      expect.arrayContaining(['Retry-After', ...rateLimit]),
    );
    expect(Object.keys(responses.TransferError429?.headers ?? {})).toContain('Retry-After');
    // Only answers below 400 are kept for a key, so no failure is ever a replay.
    expect(Object.keys(responses.Error422?.headers ?? {})).not.toContain('Idempotent-Replayed');
    expect(Object.keys(responses.Error429?.headers ?? {})).not.toContain('Idempotent-Replayed');
    expect(Object.keys(responses.Error500?.headers ?? {})).not.toContain('Idempotent-Replayed');
    expect(doc.components.headers['Retry-After']).toBeDefined();
  });

  it('says in its introduction how many tokens a user may hold', async () => {
    const doc = json<{ info: { description: string } }>(await ctx.app.inject({ url: '/api/docs/json' }));
    expect(doc.info.description.replace(/\s+/g, ' ')).toContain(
      `A user may hold at most ${MAX_API_TOKENS} tokens that are not revoked (expired ones count until revoked)`,
    );
  });

  it('says what a copy sent while the first is still running gets, as plugins/idempotency.ts answers it', async () => {
    const doc = json<{ info: { description: string } }>(await ctx.app.inject({ url: '/api/docs/json' }));
    const text = doc.info.description.replace(/\s+/g, ' ');
    // Not always a 409: a copy checked once the first has answered gets that answer replayed.
    expect(text).not.toContain('one sent while the first is still running is 409');
    expect(text).toContain(
      'A copy sent while the first is still being handled gets 409 `CONFLICT` with `Retry-After: 1` if it is checked before the first has answered (send it again to get that answer), or the first answer replayed if it is checked after: either way the change is made once.',
    );
  });

  it('serves the browsable page with the security headers of the app, its CSP included', async () => {
    const page = await ctx.app.inject({ url: '/api/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.body).toContain('swagger-initializer.js');
    // The app's policy: swagger-ui's own asked for https everywhere (a blank page over http on a LAN).
    const policy = String(page.headers['content-security-policy']);
    expect(policy).toContain("style-src 'self' 'unsafe-inline'");
    expect(policy).not.toContain('upgrade-insecure-requests');
    expect(policy).toBe((await ctx.app.inject({ url: '/login' })).headers['content-security-policy']);
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);

    const redirect = await ctx.app.inject({ url: '/api/docs/static/index.html' });
    expect(redirect.statusCode).toBe(302);
    expect(redirect.headers.location).toBe('/api/docs/');
    expect(redirect.headers['content-type']).toBeUndefined();
    expect(redirect.body).toBe('');
  });

  it('answers a conditional request for a file it has not changed with 304', async () => {
    const first = await ctx.app.inject({ url: '/api/docs/static/swagger-ui.css' });
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toBe('text/css; charset=utf-8');
    const etag = first.headers.etag;
    expect(etag).toEqual(expect.any(String));
    const again = await ctx.app.inject({
      url: '/api/docs/static/swagger-ui.css',
      headers: { 'if-none-match': String(etag) },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });

  it('answers HEAD without a body, and a path it does not know with the app’s own 404', async () => {
    const head = await ctx.app.inject({ method: 'HEAD', url: '/api/docs/json' });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(head.body).toBe('');

    const unknown = await ctx.app.inject({ url: '/api/docs/no-such-page' });
    expect(unknown.statusCode).toBe(404);
    expect(json<{ status: string; error: { code: string } }>(unknown)).toMatchObject({
      status: 'error',
      error: { code: 'RESOURCE_NOT_FOUND' },
    });

    const posted = await ctx.app.inject({ method: 'POST', url: '/api/docs/json' });
    expect(posted.statusCode).toBe(404);
  });
});
