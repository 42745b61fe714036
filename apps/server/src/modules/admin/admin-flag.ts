import type { Database } from '../../db/client.js';
import { adminSessionsRepository } from './admin-sessions.repository.js';
import { adminUsersRepository } from './admin-users.repository.js';
import { AuditLog } from './audit-log.js';

/**
 * DESIGN §10: the admin flag is set only here, by the project's own command (`npm run admin`). No HTTP
 * route writes it: the profile update builds its changes field by field and never names `admin`.
 */

export interface AdminAccount {
  id: string;
  email: string;
  username: string;
  createdAt: Date;
}

export class UnknownAccountError extends Error {}

export async function setAdminFlag(
  db: Database,
  email: string,
  admin: boolean,
  now: Date = new Date(),
): Promise<{ account: AdminAccount; changed: boolean }> {
  return db.transaction(async (tx) => {
    const found = await adminUsersRepository.lockUserByEmail(tx, email.trim());
    if (!found) throw new UnknownAccountError(`No account has the e-mail ${email.trim()}.`);
    const account = {
      id: found.id,
      email: found.email,
      username: found.username,
      createdAt: found.createdAt,
    };
    if (found.admin === admin) return { account, changed: false };
    await adminUsersRepository.setAdmin(tx, found.id, admin, now);
    // Losing the flag ends any admin session at once rather than when it would have expired.
    if (!admin) await adminSessionsRepository.endAllOfUser(tx, found.id, 'admin_revoked', now);
    await new AuditLog().record(tx, {
      actorId: null,
      action: admin ? 'admin_granted' : 'admin_revoked',
      targetType: 'user',
      targetId: found.id,
      before: { admin: found.admin },
      after: { admin },
      details: { via: 'command', email: found.email },
    });
    return { account, changed: true };
  });
}

export function listAdmins(db: Database): Promise<AdminAccount[]> {
  return adminUsersRepository.listAdmins(db);
}
