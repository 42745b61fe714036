import { ADMIN_SESSION_TTL_S, type AdminSession } from '@haversack/contracts';
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

const expired = () => new AppError('ADMIN_SESSION_EXPIRED');

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
   * The live admin session named by `token` for this caller, or ADMIN_SESSION_EXPIRED. With `extend`
   * the call counts as activity; the periodic verify does not, so an idle tab still expires.
   */
  async resolve(
    auth: SessionUser,
    token: string | undefined,
    options: { extend: boolean },
  ): Promise<ActiveAdminSession> {
    if (!token) throw expired();
    const now = this.#now();
    const session = await adminSessionsRepository.findByTokenHash(this.#db, hashToken(token));
    if (
      !session ||
      session.endedAt ||
      session.expiresAt <= now ||
      session.userId !== auth.user.id ||
      // Another sign-in's admin session (a token copied from elsewhere) is not this caller's.
      session.authSessionId !== auth.sessionId
    )
      throw expired();
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
