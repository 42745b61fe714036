import type { Executor } from '../../db/client.js';
import { accountsRepository } from '../accounts/accounts.repository.js';
import { adminSessionsRepository } from './admin-sessions.repository.js';
import { adminUserListRepository, type UserRow } from './admin-users.repository.js';
import type { AuditEntry, AuditLog } from './audit-log.js';

/**
 * Suspends a user locked by the caller, inside its transaction: sign-in refused, every session and admin
 * session ended, one `user_suspended` audit entry. Answers the ended session ids, whose sockets the
 * caller closes after the commit (`sessionsEnded`). Used by the Users page and by bulk suspension.
 */
export async function suspendLockedUser(
  tx: Executor,
  audit: AuditLog,
  input: {
    actor: Pick<AuditEntry, 'actorId' | 'actorEmail' | 'ip' | 'userAgent'>;
    user: UserRow;
    reason: string;
    now: Date;
    details?: Record<string, unknown>;
  },
): Promise<string[]> {
  const { user, reason, now } = input;
  await adminUserListRepository.setSuspension(tx, user.id, { suspendedAt: now, suspendedReason: reason });
  const sessionIds = await accountsRepository.revokeUserSessions(tx, user.id, 'suspended');
  await adminSessionsRepository.endAllOfUser(tx, user.id, 'suspended', now);
  await audit.record(tx, {
    ...input.actor,
    action: 'user_suspended',
    targetType: 'user',
    targetId: user.id,
    before: { suspended_at: null },
    after: { suspended_at: now.toISOString(), suspended_reason: reason },
    details: { email: user.email, sessions_ended: sessionIds.length, ...input.details },
  });
  return sessionIds;
}
