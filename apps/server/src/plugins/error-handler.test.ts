import { errorEnvelopeSchema } from '@haversack/contracts';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../lib/app-error.js';
import { errorHandlerPlugin } from './error-handler.js';

/** What PostgreSQL's driver throws, wrapped as drizzle wraps it (the SQLSTATE on the cause). */
function databaseError(code: string, message = 'driver error') {
  return new Error('Failed query', { cause: Object.assign(new Error(message), { code }) });
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
  // As node-postgres fails while PostgreSQL is down or goes away, under drizzle's wrapper.
  app.get('/refused', async () => {
    const refused = Object.assign(new AggregateError([], ''), { code: 'ECONNREFUSED' });
    throw new Error('Failed query: select 1', { cause: refused });
  });
  app.get('/terminated', async () => {
    throw new Error('Failed query', { cause: new Error('Connection terminated unexpectedly') });
  });
  app.get('/pool-timeout', async () => {
    throw new Error('timeout exceeded when trying to connect');
  });
  app.get('/admin-shutdown', async () => {
    throw databaseError('57P01');
  });
  // What PostgreSQL answers a new connection with once the database is closed to connections, dropped, or
  // its role is gone.
  app.get('/not-accepting', async () => {
    throw databaseError('55000', 'database "haversack" is not currently accepting connections');
  });
  app.get('/database-gone', async () => {
    throw databaseError('3D000', 'database "haversack" does not exist');
  });
  app.get('/role-gone', async () => {
    throw databaseError('28000', 'role "haversack" does not exist');
  });
  app.get('/other-55000', async () => {
    throw databaseError('55000', 'currval of sequence "s" is not yet defined in this session');
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

  it('answers a database it cannot reach as a 503 to try again, on every route', async () => {
    for (const url of [
      '/refused',
      '/terminated',
      '/pool-timeout',
      '/admin-shutdown',
      '/not-accepting',
      '/database-gone',
      '/role-gone',
    ]) {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(503);
      expect(errorEnvelopeSchema.parse(response.json()).error, url).toMatchObject({
        code: 'SERVICE_UNAVAILABLE',
        message: 'The database is not answering. Try again in a moment.',
        status: 503,
      });
    }
  });

  it('logs a 503 (a request refused while closing) as a warning without a stack', async () => {
    const lines: Record<string, unknown>[] = [];
    const logged = Fastify({
      logger: { level: 'info', stream: { write: (line: string) => lines.push(JSON.parse(line)) } },
    });
    await logged.register(errorHandlerPlugin);
    logged.get('/closing', async () => {
      throw new AppError('SERVICE_UNAVAILABLE');
    });
    try {
      expect((await logged.inject({ method: 'GET', url: '/closing' })).statusCode).toBe(503);
    } finally {
      await logged.close();
    }
    const line = lines.find((entry) => entry.msg === 'unavailable');
    expect(line).toMatchObject({ level: 40, code: 'SERVICE_UNAVAILABLE' });
    expect(JSON.stringify(lines)).not.toContain('"stack"');
    expect(lines.filter((entry) => Number(entry.level) >= 50)).toEqual([]);
  });

  it('answers any other database error as the generic 500, saying nothing of the database', async () => {
    for (const url of ['/other', '/other-55000']) {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(500);
      expect(response.body).not.toContain('driver error');
      expect(response.body).not.toContain('currval');
      expect(errorEnvelopeSchema.parse(response.json()).error.code).toBe('INTERNAL_SERVER_ERROR');
    }
  });
});
