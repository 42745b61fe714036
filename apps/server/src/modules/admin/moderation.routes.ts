import {
  adminReportQuerySchema,
  adminReportSchema,
  createReportBodySchema,
  entityId,
  listEnvelope,
  reportSchema,
  successEnvelope,
} from '@haversack/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../plugins/auth.js';
import { requireAdmin } from './admin-guard.js';
import type { ModerationService } from './moderation.service.js';

/** A person reports now and then; more than this an hour is spam. */
const REPORTS_PER_HOUR = 20;
const HOUR_MS = 60 * 60_000;
const reportParams = z.object({ id: entityId() });

/** POST /api/v1/reports: any signed-in user reports public content (registered outside the admin prefix). */
export async function reportsRoutes(app: FastifyInstance, options: { moderation: ModerationService }) {
  app.addHook('onRequest', app.authenticate);
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post(
    '/reports',
    {
      preHandler: [app.limitByKey('content-report', REPORTS_PER_HOUR, (req) => req.auth?.user.id, HOUR_MS)],
      schema: {
        tags: ['moderation'],
        summary: 'Report a public item, shop or loot template or a public party to the staff',
        body: createReportBodySchema,
        response: { 201: successEnvelope(reportSchema) },
      },
    },
    async (request, reply) => {
      const report = await options.moderation.report(requireAuth(request), request.body);
      return reply.status(201).send({ status: 'success', data: report });
    },
  );
}

/** The Moderation page: the report queue, dismiss, unpublish (under /api/v1/admin). */
export async function moderationAdminRoutes(
  app: FastifyInstance,
  options: { moderation: ModerationService },
) {
  const { moderation } = options;
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/reports',
    {
      schema: {
        tags: ['admin'],
        summary: 'Reports by status (open first), newest first, with the content they name',
        querystring: adminReportQuerySchema,
        response: { 200: listEnvelope(adminReportSchema) },
      },
    },
    async (request) => {
      requireAdmin(request);
      const { status, page, per_page } = request.query;
      const { reports, meta } = await moderation.list(status, page, per_page);
      return { status: 'success' as const, data: reports, meta };
    },
  );

  r.post(
    '/reports/:id/dismiss',
    {
      schema: {
        tags: ['admin'],
        summary: 'Close a report without acting on the content (audited)',
        params: reportParams,
        response: { 200: successEnvelope(reportSchema) },
      },
    },
    async (request) => ({
      status: 'success' as const,
      data: await moderation.dismiss(requireAdmin(request), request.params.id),
    }),
  );

  r.post(
    '/reports/:id/unpublish',
    {
      schema: {
        tags: ['admin'],
        summary:
          'Make the reported content private (the owner keeps it) and close its open reports (audited)',
        params: reportParams,
        response: { 200: successEnvelope(reportSchema) },
      },
    },
    async (request) => ({
      status: 'success' as const,
      data: await moderation.unpublish(requireAdmin(request), request.params.id),
    }),
  );
}
