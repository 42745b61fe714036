import type { Database, Executor } from '../../db/client.js';
import { accountsRepository } from '../accounts/accounts.repository.js';
import { hashPassword } from '../accounts/passwords.js';
import { adminSessionsRepository } from './admin-sessions.repository.js';
import { adminUserListRepository, adminUsersRepository } from './admin-users.repository.js';
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

/** An admin as `list` shows it: a suspended admin cannot sign in, and `unsuspend` lets them back. */
export interface ListedAdmin extends AdminAccount {
  suspendedAt: Date | null;
}

/** A refusal the command explains in one line (no such account, address taken). */
export class UnknownAccountError extends Error {}

/** The account the command names, locked for the change, or one line saying there is none. */
async function lockAccount(tx: Executor, email: string) {
  const found = await adminUsersRepository.lockUserByEmail(tx, email.trim());
  if (!found) throw new UnknownAccountError(`No account has the email ${email.trim()}.`);
  const account: AdminAccount = {
    id: found.id,
    email: found.email,
    username: found.username,
    createdAt: found.createdAt,
  };
  return { found, account };
}

export async function setAdminFlag(
  db: Database,
  email: string,
  admin: boolean,
  now: Date = new Date(),
): Promise<{ account: AdminAccount; changed: boolean }> {
  return db.transaction(async (tx) => {
    const { found, account } = await lockAccount(tx, email);
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

export function listAdmins(db: Database): Promise<ListedAdmin[]> {
  return adminUsersRepository.listAdmins(db);
}

/**
 * Lifts a suspension from the command line (`unsuspend EMAIL`): the way back for an admin locked out of
 * the web app, e.g. when admins were suspended before that was refused. Audited as the Users page's
 * `user_unsuspended`, with no actor (the operator at the server) and `via: 'command'`.
 */
export async function liftSuspension(
  db: Database,
  email: string,
): Promise<{ account: AdminAccount; changed: boolean }> {
  return db.transaction(async (tx) => {
    const { found, account } = await lockAccount(tx, email);
    if (!found.suspendedAt) return { account, changed: false };
    await adminUserListRepository.setSuspension(tx, found.id, { suspendedAt: null, suspendedReason: null });
    await new AuditLog().record(tx, {
      actorId: null,
      action: 'user_unsuspended',
      targetType: 'user',
      targetId: found.id,
      before: { suspended_at: found.suspendedAt.toISOString(), suspended_reason: found.suspendedReason },
      after: { suspended_at: null },
      details: { via: 'command', email: found.email },
    });
    return { account, changed: true };
  });
}

/**
 * Bootstraps a site (or a test run): a new, verified account that is an admin from the start, as
 * `tootctl accounts create --role Owner` does for Mastodon. The operator vouches for the address.
 */
export async function createAdminAccount(
  db: Database,
  input: { email: string; username: string; password: string },
  now: Date = new Date(),
): Promise<AdminAccount> {
  const passwordHash = await hashPassword(input.password);
  return db.transaction(async (tx) => {
    const taken = await accountsRepository.emailOrUsernameTaken(tx, input);
    if (taken.email) throw new UnknownAccountError(`An account already has the email ${input.email}.`);
    if (taken.username)
      throw new UnknownAccountError(`An account already has the username ${input.username}.`);
    const user = await accountsRepository.insertUser(tx, {
      email: input.email,
      username: input.username,
      passwordHash,
      admin: true,
      emailVerifiedAt: now,
    });
    await new AuditLog().record(tx, {
      actorId: null,
      action: 'admin_granted',
      targetType: 'user',
      targetId: user.id,
      before: null,
      after: { admin: true },
      details: { via: 'command', email: user.email, created: true },
    });
    return { id: user.id, email: user.email, username: user.username, createdAt: user.createdAt };
  });
}
