import {
  auditAttemptBodySchema,
  auditLogActionsSchema,
  auditLogEntrySchema,
  auditLogFilterSchema,
  auditLogQuerySchema,
  listEnvelope,
  successEnvelope,
} from '@haversack/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requireAuth } from '../../plugins/auth.js';
import { auditActor, requestOrigin, requireAdmin } from './admin-guard.js';
import type { AuditLogsService } from './audit-logs.service.js';

/** A person turned away from /admin posts once per visit; more than this a minute is not a person. */
const ATTEMPTS_PER_USER = 30;

/** spec/01 §7 POST /admin/audit_logs, and the Audit Logs page's list and CSV export. */
export async function auditLogsRoutes(app: FastifyInstance, options: { auditLogs: AuditLogsService }) {
  const { auditLogs } = options;
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/audit_logs',
    {
      config: { adminAccess: 'signed_in' },
      preHandler: [app.limitByKey('admin-access-attempt', ATTEMPTS_PER_USER, (req) => req.auth?.user.id)],
      schema: {
        tags: ['admin'],
        summary:
          'Record a refused visit to the admin area (any signed-in user, for themselves; action unauthorized_admin_access_attempt only; once per admin page and 15 minutes, 200 with the standing entry after that)',
        body: auditAttemptBodySchema,
        // 200: the user's report of this page is already in the log for this window; the entry is that one.
        response: { 200: successEnvelope(auditLogEntrySchema), 201: successEnvelope(auditLogEntrySchema) },
      },
    },
    async (request, reply) => {
      const { entry, created } = await auditLogs.recordAttempt(
        requireAuth(request),
        request.body.path,
        requestOrigin(request),
      );
      return reply.status(created ? 201 : 200).send({ status: 'success', data: entry });
    },
  );

  r.get(
    '/audit_logs',
    {
      schema: {
        tags: ['admin'],
        summary: 'Audit log entries, newest first, filtered by actor, action, target and dates',
        querystring: auditLogQuerySchema,
        response: { 200: listEnvelope(auditLogEntrySchema) },
      },
    },
    async (request) => {
      requireAdmin(request);
      const { entries, meta } = await auditLogs.list(request.query);
      return { status: 'success' as const, data: entries, meta };
    },
  );

  r.get(
    '/audit_logs/actions',
    {
      schema: {
        tags: ['admin'],
        summary: 'The actions found in the audit log, for the filter',
        response: { 200: successEnvelope(auditLogActionsSchema) },
      },
    },
    async (request) => {
      requireAdmin(request);
      return { status: 'success' as const, data: { actions: await auditLogs.actions() } };
    },
  );

  r.get(
    '/audit_logs/export',
    {
      schema: {
        tags: ['admin'],
        summary:
          'The filtered audit log as CSV (at most 10,000 rows; X-Export-Truncated says when more matched)',
        querystring: auditLogFilterSchema,
      },
    },
    async (request, reply) => {
      const caller = requireAdmin(request);
      const { csv, truncated } = await auditLogs.exportCsv(request.query, auditActor(caller));
      const day = new Date().toISOString().slice(0, 10);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="haversack-audit-log-${day}.csv"`)
        .header('x-export-truncated', String(truncated))
        .send(csv);
    },
  );
}
