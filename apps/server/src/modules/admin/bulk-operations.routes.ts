import {
  adminOperationSchema,
  type BulkOperationBody,
  bulkOperationBodySchema,
  bulkPreviewSchema,
  successEnvelope,
} from '@haversack/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAdmin } from './admin-guard.js';
import type { AdminOperationsService, OperationParams } from './admin-operations.service.js';

function paramsOf(body: BulkOperationBody): OperationParams {
  switch (body.action) {
    case 'change_tier':
      return { kind: 'bulk_users', filter: body.filter, action: body.action, tier: body.tier };
    case 'suspend':
      return { kind: 'bulk_users', filter: body.filter, action: body.action, reason: body.reason };
    case 'unpublish':
      return { kind: 'bulk_templates', filter: body.filter, action: body.action };
  }
}

/** The Bulk Operations page: a dry-run count, then a background job with progress (under /api/v1/admin). */
export async function bulkOperationsRoutes(
  app: FastifyInstance,
  options: { operations: AdminOperationsService },
) {
  const { operations } = options;
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/bulk_operations/preview',
    {
      schema: {
        tags: ['admin'],
        summary: 'Dry run: how many users or templates the operation would act on; changes nothing',
        body: bulkOperationBodySchema,
        response: { 200: successEnvelope(bulkPreviewSchema) },
      },
    },
    async (request) => {
      requireAdmin(request);
      return {
        status: 'success' as const,
        data: { count: await operations.preview(paramsOf(request.body)) },
      };
    },
  );

  r.post(
    '/bulk_operations',
    {
      schema: {
        tags: ['admin'],
        summary:
          'Run the operation in the background, one audit entry per change; poll GET /admin/operations/:id. 409 while the same operation is queued or running',
        body: bulkOperationBodySchema,
        response: { 202: successEnvelope(adminOperationSchema) },
      },
    },
    async (request, reply) => {
      const operation = await operations.start(requireAdmin(request), paramsOf(request.body));
      return reply.status(202).send({ status: 'success', data: operation });
    },
  );

  r.get(
    '/bulk_operations',
    {
      schema: {
        tags: ['admin'],
        summary: 'Recent bulk operations with their progress',
        response: { 200: successEnvelope(z.array(adminOperationSchema)) },
      },
    },
    async (request) => {
      requireAdmin(request);
      return { status: 'success' as const, data: await operations.recent(['bulk_users', 'bulk_templates']) };
    },
  );
}
