import {
  ADMIN_ACTION_REFUSED,
  ADMIN_SESSION_REFUSED,
  UNAUTHORIZED_ADMIN_ACCESS_ATTEMPT,
} from '@haversack/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Database } from '../../db/client.js';
import { requireAuth } from '../../plugins/auth.js';
import { requestOrigin } from './admin-guard.js';
import type { AdminSessionRefused } from './admin-sessions.service.js';
import type { AuditEntry, AuditLog } from './audit-log.js';
import type { AdminActRefusal } from './refused-admin-act.js';

const MAX_AUDITED_PATH = 2000;

export type RefusalAudit = ReturnType<typeof createRefusalAudit>;

/**
 * DESIGN §10: every refused attempt lands in the audit log, but a script repeating one cannot fill the
 * append-only table (an outside review). One entry per caller, route, reason (and target, for an act) and
 * rate-limit window (AuthRateLimits.windowMs, 15 minutes by default; shared through Redis); every refused
 * call still gets its refusal. The key is the route's pattern, not the URL, which the caller could vary
 * (ids, query strings) to get an entry per call. An act's target is part of its key: it is always an
 * existing account (an unknown id is a 404 first), so the keys are bounded, and trying the same act on a
 * second admin is a second fact worth its own entry.
 */
export function createRefusalAudit(app: FastifyInstance, deps: { db: Database; audit: AuditLog }) {
  const firstInWindow = app.firstInWindow('admin-refusal-audit');

  async function record(
    request: FastifyRequest,
    key: string[],
    entry: Pick<AuditEntry, 'action' | 'targetType' | 'targetId' | 'details'>,
  ): Promise<void> {
    const { user } = requireAuth(request);
    const route = `${request.method} ${request.routeOptions.url ?? ''}`;
    if (!(await firstInWindow([user.id, route, ...key].join('|')))) return;
    const origin = requestOrigin(request);
    await deps.audit.record(deps.db, {
      ...entry,
      actorId: user.id,
      actorEmail: user.email,
      details: { method: request.method, path: request.url.slice(0, MAX_AUDITED_PATH), ...entry.details },
      ip: origin.ip,
      userAgent: origin.userAgent,
    });
  }

  return {
    /** A signed-in user without the admin flag (spec/01 §6). */
    notAdmin: (request: FastifyRequest) =>
      record(request, ['not_admin'], { action: UNAUTHORIZED_ADMIN_ACCESS_ATTEMPT, details: { via: 'api' } }),

    /** An admin whose admin session was missing, malformed, unknown, expired, ended or not theirs. */
    session: (request: FastifyRequest, refusal: AdminSessionRefused) =>
      record(request, [refusal.reason], {
        action: ADMIN_SESSION_REFUSED,
        // The session the token named, never the token: its id says which one was used, and whose.
        ...(refusal.session ? { targetType: 'admin_session', targetId: refusal.session.id } : {}),
        details: {
          reason: refusal.reason,
          ...(refusal.reason === 'other_user' && refusal.session
            ? { session_user_id: refusal.session.userId }
            : {}),
          via: 'api',
        },
      }),

    /** An admin act its service refused (RefusedAdminAct). */
    act: (request: FastifyRequest, refusal: AdminActRefusal) =>
      record(request, [refusal.reason, refusal.targetId], {
        action: ADMIN_ACTION_REFUSED,
        targetType: refusal.targetType,
        targetId: refusal.targetId,
        details: { attempted: refusal.attempted, reason: refusal.reason },
      }),
  };
}
