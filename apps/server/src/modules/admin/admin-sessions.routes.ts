import { adminSessionSchema, adminSessionVerificationSchema, successEnvelope } from '@haversack/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requireSession } from '../../plugins/auth.js';
import { keepNoAnswers } from '../../plugins/idempotency.js';
import { requestOrigin, requireAdmin } from './admin-guard.js';
import type { AdminSessionsService } from './admin-sessions.service.js';

/** DESIGN §10 admin sessions; spec/01 §7 GET /admin/sessions/verify. Registered behind the admin guard. */
export async function adminSessionsRoutes(app: FastifyInstance, options: { sessions: AdminSessionsService }) {
  // Its answers carry secrets or its requests passwords: none is kept for Idempotency-Key.
  keepNoAnswers(app);
  const { sessions } = options;
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/sessions',
    {
      config: { adminAccess: 'admin' },
      schema: {
        tags: ['admin'],
        summary: 'Enter admin mode: start an admin session (an admin access token is required)',
        response: { 201: successEnvelope(adminSessionSchema) },
      },
    },
    async (request, reply) => {
      const session = await sessions.start(requireSession(request), requestOrigin(request));
      return reply.status(201).send({ status: 'success', data: session });
    },
  );

  r.get(
    '/sessions/verify',
    {
      config: { adminAccess: 'admin_session_check' },
      schema: {
        tags: ['admin'],
        summary:
          'Is the admin session in X-Admin-Session still valid? (401 ADMIN_SESSION_EXPIRED when not; does not extend it)',
        response: { 200: successEnvelope(adminSessionVerificationSchema) },
      },
    },
    async (request) => {
      const caller = requireAdmin(request);
      return {
        status: 'success' as const,
        data: { valid: true as const, expires_at: caller.adminSession.expiresAt.toISOString() },
      };
    },
  );

  r.delete(
    '/sessions/current',
    {
      schema: { tags: ['admin'], summary: 'Exit admin mode: end the admin session in X-Admin-Session' },
    },
    async (request, reply) => {
      const caller = requireAdmin(request);
      await sessions.end(requireSession(request), caller.adminSession, caller.origin);
      return reply.status(204).send();
    },
  );
}
