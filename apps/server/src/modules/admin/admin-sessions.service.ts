import { ADMIN_SESSION_TTL_S, type AdminSession, type AdminSessionRefusalReason } from '@haversack/contracts';
import type { Database } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import { hashToken, randomToken } from '../../lib/secrets.js';
import type { SessionUser } from '../accounts/accounts.service.js';
import { adminSessionsRepository } from './admin-sessions.repository.js';
import type { AuditLog } from './audit-log.js';

/** Where an admin call came from, for the audit log. */
export interface RequestOrigin {
  ip: string | null;
  userAgent: string | null;
}

export interface ActiveAdminSession {
  id: string;
  expiresAt: Date;
}

/**
 * An admin call refused for its admin session: 401 ADMIN_SESSION_EXPIRED whatever the reason (the web app
 * shows one "Admin Session Expired" card), and the reason and the session, when the token named one, for
 * the audit entry the guard writes.
 */
export class AdminSessionRefused extends AppError {
  readonly reason: AdminSessionRefusalReason;
  readonly session: { id: string; userId: string } | null;

  constructor(reason: AdminSessionRefusalReason, session: { id: string; userId: string } | null = null) {
    super('ADMIN_SESSION_EXPIRED');
    this.reason = reason;
    this.session = session;
  }
}

/** randomToken()'s shape: 32 bytes in base64url. Anything else was never a session token. */
const sessionTokenShape = /^[A-Za-z0-9_-]{43}$/;

/**
 * DESIGN §10: an admin session is a short-lived token on top of one sign-in. It is valid only with an
 * access token of that same sign-in, only until it expires (each admin call pushes the expiry out), and
 * only until Exit Admin Mode ends it.
 */
export class AdminSessionsService {
  readonly #db: Database;
  readonly #audit: AuditLog;
  readonly #now: () => Date;

  constructor(deps: { db: Database; audit: AuditLog; now: () => Date }) {
    this.#db = deps.db;
    this.#audit = deps.audit;
    this.#now = deps.now;
  }

  /** The caller must already be known as an admin (the guard checks the flag). */
  async start(auth: SessionUser, origin: RequestOrigin): Promise<AdminSession> {
    const now = this.#now();
    const token = randomToken();
    const expiresAt = new Date(now.getTime() + ADMIN_SESSION_TTL_S * 1000);
    await this.#db.transaction(async (tx) => {
      const session = await adminSessionsRepository.insert(tx, {
        userId: auth.user.id,
        authSessionId: auth.sessionId,
        tokenHash: hashToken(token),
        expiresAt,
        createdAt: now,
      });
      await this.#audit.record(tx, {
        actorId: auth.user.id,
        actorEmail: auth.user.email,
        action: 'admin_session_started',
        targetType: 'admin_session',
        targetId: session.id,
        ip: origin.ip,
        userAgent: origin.userAgent,
      });
    });
    return { token, expires_at: expiresAt.toISOString() };
  }

  /**
   * The live admin session named by `token` for this caller, or AdminSessionRefused (401
   * ADMIN_SESSION_EXPIRED) saying why. With `extend` the call counts as activity; the periodic verify does
   * not, so an idle tab still expires.
   */
  async resolve(
    auth: SessionUser,
    token: string | undefined,
    options: { extend: boolean },
  ): Promise<ActiveAdminSession> {
    if (!token) throw new AdminSessionRefused('missing');
    if (!sessionTokenShape.test(token)) throw new AdminSessionRefused('malformed');
    const now = this.#now();
    const session = await adminSessionsRepository.findByTokenHash(this.#db, hashToken(token));
    if (!session) throw new AdminSessionRefused('unknown');
    // The most telling reason first: someone else's session says more than that it has also ended.
    const refusal: AdminSessionRefusalReason | null =
      session.userId !== auth.user.id
        ? 'other_user'
        : // Another sign-in's admin session (a token copied from elsewhere) is not this caller's.
          session.authSessionId !== auth.sessionId
          ? 'other_sign_in'
          : session.endedAt
            ? 'ended'
            : session.expiresAt <= now
              ? 'expired'
              : null;
    if (refusal) throw new AdminSessionRefused(refusal, { id: session.id, userId: session.userId });
    if (!options.extend) return { id: session.id, expiresAt: session.expiresAt };
    const expiresAt = new Date(now.getTime() + ADMIN_SESSION_TTL_S * 1000);
    await adminSessionsRepository.extend(this.#db, session.id, now, expiresAt);
    return { id: session.id, expiresAt };
  }

  /** Exit Admin Mode. */
  async end(auth: SessionUser, session: ActiveAdminSession, origin: RequestOrigin): Promise<void> {
    await this.#db.transaction(async (tx) => {
      const ended = await adminSessionsRepository.end(tx, session.id, 'exit', this.#now());
      if (!ended) return;
      await this.#audit.record(tx, {
        actorId: auth.user.id,
        actorEmail: auth.user.email,
        action: 'admin_session_ended',
        targetType: 'admin_session',
        targetId: session.id,
        ip: origin.ip,
        userAgent: origin.userAgent,
      });
    });
  }
}
