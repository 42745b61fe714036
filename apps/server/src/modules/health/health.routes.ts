import { healthSchema, successEnvelope } from '@haversack/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { DatabaseHandle } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import { noSignIn } from '../../lib/openapi-security.js';

/** DESIGN §3: readiness; answers 503 in the envelope while the database does not answer. */
export async function healthRoutes(
  app: FastifyInstance,
  options: { database: DatabaseHandle; redis?: { readonly connected: boolean } },
) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/health',
    {
      schema: {
        ...noSignIn,
        tags: ['health'],
        summary: 'Readiness',
        response: { 200: successEnvelope(healthSchema) },
      },
    },
    async () => {
      try {
        await options.database.ping();
      } catch {
        throw new AppError('SERVICE_UNAVAILABLE', 'The database is not answering.');
      }
      const { redis } = options;
      return {
        status: 'success' as const,
        data: {
          status: 'ok' as const,
          database: 'ok' as const,
          ...(redis ? { redis: redis.connected ? ('ok' as const) : ('unreachable' as const) } : {}),
        },
      };
    },
  );
}
