import { type SignedInSession, type SignedOutOthers, signedInSessionMessages } from '@haversack/contracts';
import type { Database } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import { accountsRepository as repo } from './accounts.repository.js';
import { type SessionEndListener, type SessionUser, SIGNED_OUT_ELSEWHERE } from './accounts.service.js';
import { deviceLabel } from './device-label.js';

interface Deps {
  db: Database;
  /** Ended sessions close their real-time sockets at once, in every process (DESIGN §6). */
  sessions: SessionEndListener;
  now?: () => Date;
}

/**
 * The profile's signed-in devices: each sign-in the account still has, and signing one or all the others
 * out. Only a signed-in person may do it (an API token is refused by the routes): a token is not a device.
 */
export class SignedInSessionsService {
  readonly #deps: Deps;
  readonly #now: () => Date;

  constructor(deps: Deps) {
    this.#deps = deps;
    this.#now = deps.now ?? (() => new Date());
  }

  /** The current device first, then the others by their latest use. */
  async list(auth: SessionUser): Promise<SignedInSession[]> {
    const rows = await repo.liveSessions(this.#deps.db, auth.user.id, this.#now());
    const sessions = rows.map((row) => ({
      id: row.id,
      device: deviceLabel(row.userAgent),
      user_agent: row.userAgent,
      ip_address: row.ipAddress,
      created_at: row.createdAt.toISOString(),
      last_used_at: row.lastUsedAt.toISOString(),
      current: row.id === auth.sessionId,
    }));
    return [...sessions.filter((s) => s.current), ...sessions.filter((s) => !s.current)];
  }

  /** Signs one device out (the current one too: that is a sign-out). 404 when it is not a live session of the caller's. */
  async signOut(auth: SessionUser, sessionId: string): Promise<void> {
    const ended = await repo.revokeOwnSession(
      this.#deps.db,
      auth.user.id,
      sessionId,
      sessionId === auth.sessionId ? 'logout' : SIGNED_OUT_ELSEWHERE,
      this.#now(),
    );
    if (!ended) throw new AppError('RESOURCE_NOT_FOUND', signedInSessionMessages.notFound);
    this.#deps.sessions.sessionsEnded(auth.user.id, [ended.id]);
  }

  /** Every other sign-in of the account ends; this one stays. */
  async signOutOthers(auth: SessionUser): Promise<SignedOutOthers> {
    const ended = await repo.revokeUserSessions(this.#deps.db, auth.user.id, SIGNED_OUT_ELSEWHERE, {
      except: auth.sessionId,
    });
    if (ended.length > 0) this.#deps.sessions.sessionsEnded(auth.user.id, ended);
    return { ended: ended.length, message: signedInSessionMessages.othersSignedOut(ended.length) };
  }
}
