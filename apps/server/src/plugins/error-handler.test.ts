import { errorEnvelopeSchema } from '@haversack/contracts';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorHandlerPlugin } from './error-handler.js';

/** What PostgreSQL's driver throws, wrapped as drizzle wraps it (the SQLSTATE on the cause). */
function databaseError(code: string) {
  return new Error('Failed query', { cause: Object.assign(new Error('driver error'), { code }) });
}

let app: FastifyInstance;
beforeAll(async () => {
  app = Fastify({ logger: false });
  await app.register(errorHandlerPlugin);
  app.get('/deadlock', async () => {
    throw databaseError('40P01');
  });
  app.get('/serialization', async () => {
    throw databaseError('40001');
  });
  app.get('/other', async () => {
    throw databaseError('23503');
  });
  await app.ready();
});
afterAll(async () => app.close());

describe('the error handler', () => {
  it('answers a transaction PostgreSQL ended (deadlock, serialisation) as a 409 to try again', async () => {
    for (const url of ['/deadlock', '/serialization']) {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(409);
      expect(errorEnvelopeSchema.parse(response.json()).error).toMatchObject({
        code: 'CONFLICT',
        message: 'This conflicts with the current state. Refresh and try again.',
      });
    }
  });

  it('answers any other database error as the generic 500, saying nothing of the database', async () => {
    const response = await app.inject({ method: 'GET', url: '/other' });
    expect(response.statusCode).toBe(500);
    expect(response.body).not.toContain('driver error');
    expect(errorEnvelopeSchema.parse(response.json()).error.code).toBe('INTERNAL_SERVER_ERROR');
  });
});
