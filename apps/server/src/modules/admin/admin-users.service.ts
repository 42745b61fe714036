import type {
  AdminActRefusalReason,
  AdminDeletedUser,
  AdminGrantTierBody,
  AdminSponsorship,
  AdminUserDetail,
  AdminUserQuery,
  AdminUserSummary,
  PageMeta,
} from '@haversack/contracts';
import type { Database } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import type { EventBus } from '../../realtime/event-bus.js';
import { accountsRepository } from '../accounts/accounts.repository.js';
import type { AccountsService, SessionEndListener } from '../accounts/accounts.service.js';
import { deviceLabel } from '../accounts/device-label.js';
import type { NoticeBoard } from '../notifications/notices.js';
import type { MemberLeftHook } from '../parties/parties.service.js';
import { patronagesRepository } from '../parties/patronages.repository.js';
import { subscriptionsRepository } from '../subscriptions/subscriptions.repository.js';
import type { SubscriptionsService } from '../subscriptions/subscriptions.service.js';
import { AccountDeletion, type AccountLeavingHook } from './account-deletion.js';
import { type AdminCaller, auditActor } from './admin-guard.js';
import { adminUserListRepository, type UserRow } from './admin-users.repository.js';
import type { AuditLog } from './audit-log.js';
import { RefusedAdminAct } from './refused-admin-act.js';
import { suspendLockedUser } from './user-suspension.js';

interface Deps {
  db: Database;
  audit: AuditLog;
  accounts: AccountsService;
  subscriptions: SubscriptionsService;
  sessions: SessionEndListener;
  /** Tells the parties a deleted account leaves behind who runs them now. */
  events: Pick<EventBus, 'publish'>;
  now: () => Date;
  /** What a deleted account settles before it goes (account-deletion.ts). */
  accountLeaving?: AccountLeavingHook[];
  /** Where the member a deleted GM's party passes to finds it said (absent: nothing kept). */
  notices?: NoticeBoard;
  /** What a deleted account's leaving each party ends there (its sponsorships; account-deletion.ts). */
  partyLeft?: MemberLeftHook[];
}

type SummaryRow = { user: UserRow; tier: string; status: string; lastSeenAt: Date | string | null };

function iso(value: Date | string | null): string | null {
  if (value === null) return null;
  return (typeof value === 'string' ? new Date(value) : value).toISOString();
}

function toSummary(row: SummaryRow): AdminUserSummary {
  return {
    id: row.user.id,
    email: row.user.email,
    username: row.user.username,
    admin: row.user.admin,
    tier: row.tier,
    subscription_status: row.status,
    email_verified: row.user.emailVerifiedAt !== null,
    suspended_at: iso(row.user.suspendedAt),
    suspended_reason: row.user.suspendedReason,
    created_at: row.user.createdAt.toISOString(),
    last_seen_at: iso(row.lastSeenAt),
  };
}

const notFound = () => AppError.notFound('No such user.');

/** A 403 for an act on a user that the rules forbid, audited as refused (refused-admin-act.ts). */
const refused = (
  attempted: 'user_suspended' | 'user_deleted',
  reason: AdminActRefusalReason,
  userId: string,
  message: string,
) =>
  new RefusedAdminAct(
    { attempted, reason, targetType: 'user', targetId: userId },
    new AppError('FORBIDDEN', message),
  );

/** Issue 15, Users: find people, see their whole picture, and help or restrain them; every act audited. */
export class AdminUsersService {
  readonly #deps: Deps;
  readonly #deletion: AccountDeletion;

  constructor(deps: Deps) {
    this.#deps = deps;
    this.#deletion = new AccountDeletion(deps);
  }

  async list(query: AdminUserQuery): Promise<{ users: AdminUserSummary[]; meta: PageMeta }> {
    const { rows, total } = await adminUserListRepository.list(
      this.#deps.db,
      {
        ...(query.search ? { search: query.search } : {}),
        ...(query.tier ? { tier: query.tier } : {}),
        ...(query.status ? { status: query.status } : {}),
        ...(query.admin ? { admin: query.admin === 'true' } : {}),
      },
      { limit: query.per_page, offset: (query.page - 1) * query.per_page },
    );
    return {
      users: rows.map(toSummary),
      meta: {
        current_page: query.page,
        per_page: query.per_page,
        total_count: total,
        total_pages: Math.max(1, Math.ceil(total / query.per_page)),
      },
    };
  }

  async detail(userId: string): Promise<AdminUserDetail> {
    const db = this.#deps.db;
    const summary = await adminUserListRepository.summary(db, userId);
    if (!summary) throw notFound();
    const [subscription, parties, characters, sessions, transactions, given, received] = await Promise.all([
      subscriptionsRepository.findByUser(db, userId),
      adminUserListRepository.parties(db, userId),
      adminUserListRepository.characters(db, userId),
      adminUserListRepository.sessions(db, userId, 20),
      adminUserListRepository.recentTransactions(db, userId, 20),
      patronagesRepository.listDetailed(db, { patronId: userId }),
      patronagesRepository.listDetailed(db, { beneficiaryId: userId }),
    ]);
    type Sponsorship = Awaited<ReturnType<typeof patronagesRepository.listDetailed>>[number];
    // Running ones only (an ended one is history), a suspended sponsor's shown as paused, not hidden.
    const sponsorship = (row: Sponsorship, other: 'patron' | 'beneficiary'): AdminSponsorship => ({
      id: row.patronage.id,
      party_id: row.patronage.partyId,
      party_name: row.partyName,
      user_id: other === 'patron' ? row.patronage.patronId : row.patronage.beneficiaryId,
      username: other === 'patron' ? row.patronName : row.beneficiaryName,
      tier: row.tierIdentifier,
      since: row.patronage.createdAt.toISOString(),
      paused: row.patronSuspendedAt !== null,
    });
    return {
      user: toSummary(summary),
      subscription: {
        tier: subscription?.tier.identifier ?? 'tier_free',
        tier_name: subscription?.tier.name ?? 'Free',
        status: subscription?.subscription.status ?? 'active',
        provider: subscription?.subscription.provider ?? null,
        current_period_end: subscription?.subscription.currentPeriodEnd?.toISOString() ?? null,
        cancel_at_period_end: subscription?.subscription.cancelAtPeriodEnd ?? false,
      },
      parties: parties.map((p) => ({ id: p.id, name: p.name, role: p.role, is_archived: p.isArchived })),
      characters: characters.map((c) => ({ id: c.id, name: c.name, party_id: c.partyId })),
      sponsorships: {
        given: given.filter((r) => r.patronage.active).map((r) => sponsorship(r, 'beneficiary')),
        received: received.filter((r) => r.patronage.active).map((r) => sponsorship(r, 'patron')),
      },
      sessions: sessions.map((s) => ({
        id: s.id,
        created_at: s.createdAt.toISOString(),
        last_used_at: s.lastUsedAt.toISOString(),
        ip_address: s.ipAddress,
        user_agent: s.userAgent,
        device: deviceLabel(s.userAgent),
        revoked_at: s.revokedAt?.toISOString() ?? null,
        revoked_reason: s.revokedReason,
      })),
      recent_transactions: transactions.map((t) => ({
        id: t.id,
        transaction_type: t.transactionType,
        summary: t.summary,
        source: t.source,
        transaction_date: t.transactionDate.toISOString(),
      })),
    };
  }

  /**
   * A suspended user cannot sign in, and every session of theirs ends at once: their tokens stop
   * working and their open sockets close in every process (the same path as logout). Never an admin.
   */
  async suspend(caller: AdminCaller, userId: string, reason: string): Promise<AdminUserDetail> {
    if (userId === caller.user.id)
      throw refused('user_suspended', 'own_account', userId, 'You cannot suspend your own account.');
    const now = this.#deps.now();
    const ended = await this.#deps.db.transaction(async (tx) => {
      const user = await adminUserListRepository.lockUser(tx, userId);
      if (!user) throw notFound();
      // As deletion: checked on the locked row, so two admins suspending each other at once are both
      // refused, and no admin can lock the others out (the admin command's `unsuspend` is the way back).
      if (user.admin)
        throw refused(
          'user_suspended',
          'target_is_admin',
          userId,
          'Admins cannot be suspended: revoke their admin flag first.',
        );
      if (user.suspendedAt) throw new AppError('CONFLICT', 'This account is already suspended.');
      const sessionIds = await suspendLockedUser(tx, this.#deps.audit, {
        actor: auditActor(caller),
        user,
        reason,
        now,
      });
      return sessionIds;
    });
    if (ended.length > 0) this.#deps.sessions.sessionsEnded(userId, ended);
    return this.detail(userId);
  }

  async unsuspend(caller: AdminCaller, userId: string): Promise<AdminUserDetail> {
    await this.#deps.db.transaction(async (tx) => {
      const user = await adminUserListRepository.lockUser(tx, userId);
      if (!user) throw notFound();
      if (!user.suspendedAt) throw new AppError('CONFLICT', 'This account is not suspended.');
      await adminUserListRepository.setSuspension(tx, userId, { suspendedAt: null, suspendedReason: null });
      await this.#deps.audit.record(tx, {
        ...auditActor(caller),
        action: 'user_unsuspended',
        targetType: 'user',
        targetId: userId,
        before: { suspended_at: user.suspendedAt.toISOString(), suspended_reason: user.suspendedReason },
        after: { suspended_at: null },
        details: { email: user.email },
      });
    });
    return this.detail(userId);
  }

  /**
   * Signs the user out everywhere (a lost phone, a shared computer, a compromised account) and revokes
   * every personal API token of theirs in the same transaction: a token minted with a stolen session is
   * one more way in, as a password change already treats it (accounts.service.ts).
   */
  async revokeSessions(caller: AdminCaller, userId: string): Promise<AdminUserDetail> {
    const ended = await this.#deps.db.transaction(async (tx) => {
      const user = await adminUserListRepository.lockUser(tx, userId);
      if (!user) throw notFound();
      // An admin revoking their own sessions keeps the one they are using.
      const except = userId === caller.user.id ? { except: caller.sessionId } : {};
      const sessionIds = await accountsRepository.revokeUserSessions(tx, userId, 'revoked_by_admin', except);
      const apiTokensRevoked = await accountsRepository.revokeApiTokens(tx, userId, this.#deps.now());
      await this.#deps.audit.record(tx, {
        ...auditActor(caller),
        action: 'user_sessions_revoked',
        targetType: 'user',
        targetId: userId,
        // The one the admin keeps stays open (counted before and after).
        before: { open_sessions: sessionIds.length + (except.except ? 1 : 0), api_tokens: apiTokensRevoked },
        after: { open_sessions: except.except ? 1 : 0, api_tokens: 0 },
        details: { email: user.email, session_ids: sessionIds, api_tokens_revoked: apiTokensRevoked },
      });
      return sessionIds;
    });
    if (ended.length > 0) this.#deps.sessions.sessionsEnded(userId, ended);
    return this.detail(userId);
  }

  /** Answers the user after, and the plan they were on before (for the answer's message). */
  async grantTier(
    caller: AdminCaller,
    userId: string,
    body: AdminGrantTierBody,
  ): Promise<{ detail: AdminUserDetail; previousTier: string }> {
    const previousTier = await this.#deps.db.transaction(async (tx) => {
      const user = await adminUserListRepository.lockUser(tx, userId);
      if (!user) throw notFound();
      const change = await this.#deps.subscriptions.grantTier(tx, userId, body.tier_id);
      await this.#deps.audit.record(tx, {
        ...auditActor(caller),
        action: 'user_tier_granted',
        targetType: 'user',
        targetId: userId,
        before: change.before,
        after: change.after,
        details: { email: user.email, reason: body.reason, payment: 'none' },
      });
      return change.before.tier;
    });
    await this.#deps.subscriptions.planChanged(userId);
    return { detail: await this.detail(userId), previousTier };
  }

  /**
   * Deletes an account for good through the one deletion path (account-deletion.ts), which the user's own
   * profile shares. Never the admin themself, nor another admin; the confirmation is the user's email.
   */
  async deleteAccount(caller: AdminCaller, userId: string, confirmEmail: string): Promise<AdminDeletedUser> {
    if (userId === caller.user.id)
      throw refused('user_deleted', 'own_account', userId, 'You cannot delete your own account here.');
    return this.#deletion.delete({
      userId,
      actor: { id: caller.user.id, username: caller.user.username },
      auditActor: auditActor(caller),
      via: 'admin',
      check: (user) => {
        if (user.admin)
          throw refused(
            'user_deleted',
            'target_is_admin',
            userId,
            'Admins cannot be deleted: revoke their admin flag first.',
          );
        if (confirmEmail.trim().toLowerCase() !== user.email.toLowerCase())
          throw new RefusedAdminAct(
            { attempted: 'user_deleted', reason: 'wrong_confirmation', targetType: 'user', targetId: userId },
            AppError.validation([{ field: 'confirm_email', message: 'This is not the user’s email.' }]),
          );
      },
    });
  }

  /** Mails the user the same reset link "Forgot password?" would, in a mail that says an admin sent it. */
  async sendPasswordReset(caller: AdminCaller, userId: string): Promise<void> {
    const user = await accountsRepository.findUserById(this.#deps.db, userId);
    if (!user) throw notFound();
    await this.#deps.accounts.forgotPassword(user.email, 'admin');
    await this.#deps.audit.record(this.#deps.db, {
      ...auditActor(caller),
      action: 'user_password_reset_sent',
      targetType: 'user',
      targetId: userId,
      details: { email: user.email },
    });
  }
}
