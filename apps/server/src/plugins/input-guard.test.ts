import { errorEnvelopeSchema, fieldMessages, MAX_JSON_BODY_DEPTH } from '@haversack/contracts';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorHandlerPlugin } from './error-handler.js';
import { inputGuardPlugin, jsonNestsDeeperThan } from './input-guard.js';

/** A module whose routes declare no schema at all: the guard alone stands between it and the database. */
let app: FastifyInstance;
beforeAll(async () => {
  app = Fastify({ logger: false });
  await app.register(errorHandlerPlugin);
  await app.register(inputGuardPlugin);
  app.post('/echo/:id', async (request) => ({ status: 'success', data: request.body }));
  await app.ready();
});
afterAll(async () => app.close());

const post = (payload: string, url = '/echo/1') =>
  app.inject({ method: 'POST', url, payload, headers: { 'content-type': 'application/json' } });

function refused(response: { statusCode: number; json(): unknown }, status: number) {
  expect(response.statusCode).toBe(status);
  return errorEnvelopeSchema.parse(response.json()).error;
}

describe('the input guard', () => {
  it('lets ordinary JSON through, emoji and all', async () => {
    const response = await post('{"name":"Egg \\ud83d\\udc09","tags":["a"]}');
    expect(response.json()).toEqual({ status: 'success', data: { name: 'Egg 🐉', tags: ['a'] } });
  });

  it('refuses NUL and lone surrogates anywhere in the body, naming the field', async () => {
    expect(refused(await post('{"a":{"b":["ok","x\\u0000"]}}'), 422).details).toEqual([
      { field: 'a.b.1', message: fieldMessages.unsafeText },
    ]);
    expect(refused(await post('{"a":{"\\udfff":1}}'), 422).details?.[0]?.field).toBe('a.\uFFFD');
    expect(refused(await post('"\\ud800"'), 422).details?.[0]?.field).toBe('body');
  });

  it('refuses them in the query and the path too', async () => {
    expect(refused(await post('{}', '/echo/1?search=%00'), 422).details?.[0]?.field).toBe('search');
    expect(refused(await post('{}', '/echo/a%00b'), 422).details?.[0]?.field).toBe('id');
  });

  it('refuses a body nested past the cap before parsing it', async () => {
    const deep = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
    expect((await post(deep(MAX_JSON_BODY_DEPTH))).statusCode).toBe(200);
    expect(refused(await post(deep(MAX_JSON_BODY_DEPTH + 1)), 400).code).toBe('BAD_REQUEST');
    expect(refused(await post(deep(100_000)), 400).code).toBe('BAD_REQUEST');
  });

  it('keeps Fastify’s own protections of the JSON parser', async () => {
    expect(refused(await post('{"a":{"__proto__":{"admin":true}}}'), 400)).toMatchObject({
      code: 'BAD_REQUEST',
      message: 'The request body may not use "__proto__" as a key.',
    });
    expect(refused(await post(''), 400).code).toBe('BAD_REQUEST');
    expect(refused(await post('{"a":'), 400)).toMatchObject({
      code: 'BAD_REQUEST',
      message: 'The request body is not valid JSON.',
    });
  });

  it('counts brackets only outside strings', () => {
    expect(jsonNestsDeeperThan(`{"a":"${'['.repeat(100)}"}`, 2)).toBe(false);
    expect(jsonNestsDeeperThan('{"a":"\\"[[["}', 1)).toBe(false);
    expect(jsonNestsDeeperThan('[[[]]]', 2)).toBe(true);
  });
});
