import { ADMIN_SESSION_HEADER, UNAUTHORIZED_ADMIN_ACCESS_ATTEMPT } from '@haversack/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Database } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import { markChangeSource } from '../../lib/change-source.js';
import { requireAuth, requireSession } from '../../plugins/auth.js';
import type { UserRow } from '../accounts/accounts.repository.js';
import type { ActiveAdminSession, AdminSessionsService, RequestOrigin } from './admin-sessions.service.js';
import type { AuditEntry, AuditLog } from './audit-log.js';

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

const MAX_AUDITED_PATH = 2000;

/**
 * Refusals audited per user, route and rate-limit window (AuthRateLimits.windowMs, 15 minutes by default):
 * one. Every refused call still answers 403, but a script hammering /admin cannot fill the append-only log
 * (an outside review): at most one row per admin route per window and user. The key is the route's
 * pattern, not the URL, which the caller could vary (ids, query strings) to get a row per call.
 */
const AUDITED_REFUSALS_PER_WINDOW = 1;

/**
 * DESIGN §10, STYLE "authorise once": one onRequest hook guards every route of the /api/v1/admin prefix.
 * Anonymous: 401. Signed in without the admin flag: 403, and the refusal is audited (once per user, route
 * and window: AUDITED_REFUSALS_PER_WINDOW). Admin without a live
 * admin session (missing, expired, ended, another sign-in's): 401 ADMIN_SESSION_EXPIRED, which the web app
 * answers with the "Admin Session Expired" card. Past the guard the request's changes come from 'admin'.
 */
export function createAdminGuard(
  app: FastifyInstance,
  deps: { db: Database; audit: AuditLog; sessions: AdminSessionsService },
) {
  // The shared rate-limit counters (in Redis with REDIS_URL), so the bound holds across processes.
  const refusalAudit = app.limitByKey('admin-refusal-audit', AUDITED_REFUSALS_PER_WINDOW, (request) =>
    request.auth ? `${request.auth.user.id}:${request.method} ${request.routeOptions.url ?? ''}` : undefined,
  );
  /** Whether this refusal is the first of its user and route in the window (else it goes unrecorded). */
  const firstRefusalInWindow = async (request: FastifyRequest, reply: FastifyReply): Promise<boolean> => {
    try {
      await refusalAudit.call(app, request, reply);
      return true;
    } catch (error) {
      if (error instanceof AppError && error.code === 'RATE_LIMITED') return false;
      throw error;
    }
  };

  return async function adminGuard(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const access = request.routeOptions.config.adminAccess ?? 'admin_session';
    await app.authenticate(request);
    const auth = requireAuth(request);
    if (access === 'signed_in') return;
    // A personal API token never acts as an admin (plugins/api-token-access.ts refuses it first as well).
    if (auth.apiToken) throw new AppError('FORBIDDEN');
    if (!auth.user.admin) {
      if (!(await firstRefusalInWindow(request, reply))) throw new AppError('FORBIDDEN');
      const origin = requestOrigin(request);
      await deps.audit.record(deps.db, {
        actorId: auth.user.id,
        actorEmail: auth.user.email,
        action: UNAUTHORIZED_ADMIN_ACCESS_ATTEMPT,
        details: { method: request.method, path: request.url.slice(0, MAX_AUDITED_PATH), via: 'api' },
        ip: origin.ip,
        userAgent: origin.userAgent,
      });
      throw new AppError('FORBIDDEN');
    }
    markChangeSource('admin');
    if (access === 'admin') return;
    const header = request.headers[ADMIN_SESSION_HEADER.toLowerCase()];
    request.adminSession = await deps.sessions.resolve(
      auth,
      typeof header === 'string' ? header : undefined,
      {
        extend: access === 'admin_session',
      },
    );
  };
}
