import { ADMIN_SESSION_HEADER } from '@haversack/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../lib/app-error.js';
import { markChangeSource } from '../../lib/change-source.js';
import { requireAuth, requireSession } from '../../plugins/auth.js';
import type { UserRow } from '../accounts/accounts.repository.js';
import type { RefusalAudit } from './admin-refusal-audit.js';
import {
  type ActiveAdminSession,
  AdminSessionRefused,
  type AdminSessionsService,
  type RequestOrigin,
} from './admin-sessions.service.js';
import type { AuditEntry } from './audit-log.js';
import { RefusedAdminAct } from './refused-admin-act.js';

/**
 * What a route under /api/v1/admin demands, in `config.adminAccess` (default `admin_session`):
 * - `signed_in`: any signed-in user (spec/01 §7 POST /admin/audit_logs, a refused attempt of their own);
 * - `admin`: an admin's access token, no admin session yet (starting one);
 * - `admin_session`: an admin with a live admin session, and the call extends it;
 * - `admin_session_check`: the same, without counting as activity (the periodic verify).
 */
export type AdminAccess = 'signed_in' | 'admin' | 'admin_session' | 'admin_session_check';

declare module 'fastify' {
  interface FastifyContextConfig {
    adminAccess?: AdminAccess;
  }
  interface FastifyRequest {
    /** Set by the admin guard on routes that need an admin session. */
    adminSession: ActiveAdminSession | null;
  }
}

export function requestOrigin(request: FastifyRequest): RequestOrigin {
  const userAgent = request.headers['user-agent'];
  return { ip: request.ip ?? null, userAgent: typeof userAgent === 'string' ? userAgent : null };
}

/** The admin making this call, with the live admin session the guard found. */
export interface AdminCaller {
  user: UserRow;
  sessionId: string;
  adminSession: ActiveAdminSession;
  origin: RequestOrigin;
}

/** Inside a route behind the guard (`admin_session`): who is acting. */
export function requireAdmin(request: FastifyRequest): AdminCaller {
  const auth = requireSession(request);
  if (!auth.user.admin || !request.adminSession) throw new AppError('FORBIDDEN');
  return { ...auth, adminSession: request.adminSession, origin: requestOrigin(request) };
}

/**
 * The audit entry's who and where for an admin call: spread it into `AuditLog.record`, e.g.
 * `audit.record(tx, { ...auditActor(caller), action: 'user_suspended', targetType: 'user', ... })`.
 */
export function auditActor(
  caller: AdminCaller,
): Pick<AuditEntry, 'actorId' | 'actorEmail' | 'ip' | 'userAgent'> {
  return {
    actorId: caller.user.id,
    actorEmail: caller.user.email,
    ip: caller.origin.ip,
    userAgent: caller.origin.userAgent,
  };
}

/**
 * DESIGN §10, STYLE "authorise once": one onRequest hook guards every route of the /api/v1/admin prefix.
 * Anonymous: 401. Signed in without the admin flag: 403. Admin without a live admin session (missing,
 * malformed, unknown, expired, ended, another admin's or another sign-in's): 401 ADMIN_SESSION_EXPIRED,
 * which the web app answers with the "Admin Session Expired" card. Both refusals are audited, de-duplicated
 * (admin-refusal-audit.ts). Past the guard the request's changes come from 'admin'.
 */
export function createAdminGuard(
  app: FastifyInstance,
  deps: { sessions: AdminSessionsService; refusals: RefusalAudit },
) {
  return async function adminGuard(request: FastifyRequest): Promise<void> {
    const access = request.routeOptions.config.adminAccess ?? 'admin_session';
    await app.authenticate(request);
    const auth = requireAuth(request);
    if (access === 'signed_in') return;
    // A personal API token never acts as an admin (plugins/api-token-access.ts refuses it first as well).
    if (auth.apiToken) throw new AppError('FORBIDDEN');
    if (!auth.user.admin) {
      await deps.refusals.notAdmin(request);
      throw new AppError('FORBIDDEN');
    }
    markChangeSource('admin');
    if (access === 'admin') return;
    const header = request.headers[ADMIN_SESSION_HEADER.toLowerCase()];
    try {
      request.adminSession = await deps.sessions.resolve(
        auth,
        typeof header === 'string' ? header : undefined,
        { extend: access === 'admin_session' },
      );
    } catch (error) {
      if (error instanceof AdminSessionRefused) await deps.refusals.session(request, error);
      throw error;
    }
  };
}

/** The admin plugin's onError hook: a service's RefusedAdminAct is audited as it goes back to the caller. */
export function createRefusedActAudit(refusals: RefusalAudit) {
  return async function auditRefusedAct(request: FastifyRequest, _reply: FastifyReply, error: Error) {
    if (error instanceof RefusedAdminAct) await refusals.act(request, error.refusal);
  };
}
