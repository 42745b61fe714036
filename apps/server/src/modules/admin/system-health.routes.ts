import {
  adminJobQuerySchema,
  adminJobSchema,
  entityId,
  listEnvelope,
  successEnvelope,
  systemHealthSchema,
} from '@haversack/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAdmin } from './admin-guard.js';
import type { SystemHealthService } from './system-health.service.js';

const jobParams = z.object({ id: entityId() });

/** System Health and Background Jobs (under /api/v1/admin). */
export async function systemHealthAdminRoutes(
  app: FastifyInstance,
  options: { systemHealth: SystemHealthService },
) {
  const { systemHealth } = options;
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/system_health',
    {
      schema: {
        tags: ['admin'],
        summary:
          'Database, Redis, mail, billing, real-time, job queue and process figures, each with a status',
        response: { 200: successEnvelope(systemHealthSchema) },
      },
    },
    async (request) => {
      requireAdmin(request);
      return { status: 'success' as const, data: await systemHealth.health() };
    },
  );

  r.get(
    '/jobs',
    {
      schema: {
        tags: ['admin'],
        summary: 'Background jobs by status (queued, scheduled or failed), oldest run time first',
        querystring: adminJobQuerySchema,
        response: { 200: listEnvelope(adminJobSchema) },
      },
    },
    async (request) => {
      requireAdmin(request);
      const { status, page, per_page } = request.query;
      const { jobs, meta } = await systemHealth.listJobs(status, page, per_page);
      return { status: 'success' as const, data: jobs, meta };
    },
  );

  r.post(
    '/jobs/:id/retry',
    {
      schema: {
        tags: ['admin'],
        summary: 'Run a job at the next poll (run_at becomes now; audited)',
        params: jobParams,
        response: { 200: successEnvelope(adminJobSchema) },
      },
    },
    async (request) => ({
      status: 'success' as const,
      data: await systemHealth.retryJob(requireAdmin(request), request.params.id),
    }),
  );
}
