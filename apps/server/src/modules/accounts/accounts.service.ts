import {
  type AccountDeletionBody,
  type AuthSession,
  type AuthTokens,
  accountClosureMessages,
  apiTokenMessages,
  authMessages,
  type CurrentSubscription,
  EMAIL_VERIFICATION_TTL_S,
  errorCatalogue,
  type FieldError,
  isReservedUsername,
  PASSWORD_RESET_TTL_S,
  type PasswordChangeBody,
  type ProfileUpdateBody,
  REFRESH_TOKEN_TTL_S,
  type Registration,
  signedInSessionMessages,
  type TokenVerification,
  type User,
} from '@haversack/contracts';
import type { Database, Executor } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import { isUniqueViolation } from '../../lib/db-errors.js';
import { hashToken, randomToken } from '../../lib/secrets.js';
import type { EventBus } from '../../realtime/event-bus.js';
import type { SessionEndCause } from '../../realtime/events.js';
import { AccountDeletion, type AccountLeavingHook } from '../admin/account-deletion.js';
import { AuditLog } from '../admin/audit-log.js';
import { apiTokensRepository } from '../api-tokens/api-tokens.repository.js';
import type { ApiTokenCredential } from '../api-tokens/api-tokens.service.js';
import type { NoticeBoard } from '../notifications/notices.js';
import type { MemberLeftHook } from '../parties/parties.service.js';
import type { EntitlementService } from '../subscriptions/entitlements.service.js';
import type { AccessTokens } from './access-tokens.js';
import { accountExportDocument } from './account-export.js';
import type { AccountMailPayload, AccountMails } from './account-mails.js';
import { type EmailTokenPurpose, accountsRepository as repo, type UserRow } from './accounts.repository.js';
import { hashPassword, verifyDecoy, verifyPassword } from './passwords.js';
import type { SessionCache } from './session-cache.js';
import { toUserJson } from './user-json.js';

export interface ClientInfo {
  ipAddress?: string;
  userAgent?: string;
}

/** Signed in at the web app (or another client of the sign-in API): a live session. */
export interface SessionUser {
  user: UserRow;
  sessionId: string;
  apiToken?: undefined;
}

/** Issue 16 §5: a personal API token; it has no session. */
export interface ApiTokenUser {
  user: UserRow;
  sessionId?: undefined;
  apiToken: ApiTokenCredential;
}

export type AuthenticatedUser = SessionUser | ApiTokenUser;

/**
 * What accounts need of the subscriptions module: a free plan for newcomers, the plan for the user JSON
 * and the data export, and a paid plan cancelled at its provider when the account is deleted.
 */
export interface SubscriptionSummaries {
  startFree(tx: Executor, userId: string): Promise<void>;
  summary(db: Executor, userId: string): Promise<{ tier: string; status: string }>;
  current(userId: string): Promise<CurrentSubscription>;
  cancelAtProviderNow(userId: string): Promise<Record<string, unknown> | null>;
}

/**
 * Told, after the commit, which sessions just ended, so that their open sockets close at once in every
 * process (DESIGN §6). Every revocation must go through `#sessionsEnded`.
 */
export interface SessionEndListener {
  sessionsEnded(userId: string, sessionIds: string[], cause?: SessionEndCause): void;
}

interface Deps {
  db: Database;
  accessTokens: AccessTokens;
  /** Verification, reset and undo mails, queued with their links (account-mails.ts). */
  mails: AccountMails;
  subscriptions: SubscriptionSummaries;
  /**
   * The real-time bus: sessions ended close their sockets, and a deleted account's parties hear who runs
   * them now.
   */
  sessions: SessionEndListener & Pick<EventBus, 'publish'>;
  /** Whether a member may take over a party the deleted account ran. */
  entitlements: Pick<EntitlementService, 'roomFor'>;
  /** Absent: every request reads its session (as scripts and some tests want). */
  sessionCache?: SessionCache;
  now?: () => Date;
  /** What a deleted account settles before it goes (account-deletion.ts). */
  accountLeaving?: AccountLeavingHook[];
  /** Where the member a deleted GM's party passes to finds it said (absent: nothing kept). */
  notices?: NoticeBoard;
  /** What a deleted account's leaving each party ends there (its sponsorships; account-deletion.ts). */
  partyLeft?: MemberLeftHook[];
}

/** Why a session ended when its owner signed it out from another device's profile. */
export const SIGNED_OUT_ELSEWHERE = 'signed_out_from_another_device';

/**
 * What a device whose session ended is told when it next tries to renew it, by the reason the session
 * ended: said plainly (a phone signed out from another device's profile, a password or an address changed
 * there, a suspension), not "terminated". A reason not named here (logout, a replayed refresh token) keeps
 * the catalogue's words. A deleted account has no session left to read a reason from (its rows go with it).
 */
const revocationWords = new Map<string, string>([
  [SIGNED_OUT_ELSEWHERE, signedInSessionMessages.signedOutElsewhere],
  ['password_changed', signedInSessionMessages.passwordChangedElsewhere],
  ['password_reset', signedInSessionMessages.passwordReset],
  ['email_changed', signedInSessionMessages.emailChangedElsewhere],
  ['email_change_reverted', signedInSessionMessages.emailChangeReverted],
  ['suspended', errorCatalogue.ACCOUNT_SUSPENDED.message],
  ['revoked_by_admin', signedInSessionMessages.revokedByAdmin],
]);

/** Undo links of an email change live as long as verification links: the owner may be away for days. */
const EMAIL_REVERT_TTL_S = EMAIL_VERIFICATION_TTL_S;

const resetLinkInvalid = () =>
  new AppError('BAD_REQUEST', authMessages.resetTokenInvalid, {
    details: [{ field: 'token', message: authMessages.resetTokenInvalid }],
  });

export class AccountsService {
  readonly #deps: Deps;
  readonly #now: () => Date;
  /** The one deletion path, shared with the admin's Users page (AuditLog keeps no state of its own). */
  readonly #deletion: AccountDeletion;

  constructor(deps: Deps) {
    this.#deps = deps;
    this.#now = deps.now ?? (() => new Date());
    this.#deletion = new AccountDeletion({
      db: deps.db,
      audit: new AuditLog(),
      subscriptions: deps.subscriptions,
      sessions: deps.sessions,
      events: deps.sessions,
      ...(deps.accountLeaving ? { accountLeaving: deps.accountLeaving } : {}),
      ...(deps.notices ? { notices: deps.notices } : {}),
      ...(deps.partyLeft ? { partyLeft: deps.partyLeft } : {}),
    });
  }

  async register(input: Registration, client: ClientInfo): Promise<AuthSession> {
    // Hash before the transaction: argon2 is deliberately slow and must not hold a connection.
    const passwordHash = await hashPassword(input.password);
    const { user, tokens, mailKey } = await this.#deps.db
      .transaction(async (tx) => {
        await this.#assertAvailable(tx, { email: input.email, username: input.username });
        const user = await repo.insertUser(tx, {
          email: input.email,
          username: input.username,
          passwordHash,
        });
        // Asked again once the row is in: an email change committing meanwhile (its insert waited on the
        // address's index entry) has its undo link stored by now, and the address stays its owner's.
        if (await repo.emailReservedForUndo(tx, input.email, this.#now(), user.id)) {
          throw AppError.validation([{ field: 'email', message: authMessages.emailTaken }]);
        }
        const mailKey = await this.#mailLink(tx, user, 'email_verification', EMAIL_VERIFICATION_TTL_S, {
          occasion: 'sign_up',
        });
        const tokens = await this.#startSession(tx, user.id, client);
        return { user, tokens, mailKey };
      })
      .catch((error: unknown) => {
        // Two registrations racing for one address: the unique index decides, the loser gets the same answer.
        if (isUniqueViolation(error)) throw this.#takenError(error);
        throw error;
      });
    this.#deps.mails.sendSoon([mailKey]);
    return { ...tokens, user: await this.userJson(user) };
  }

  async login(email: string, password: string, client: ClientInfo): Promise<AuthSession> {
    const user = await repo.findUserByEmail(this.#deps.db, email);
    const valid = user ? await verifyPassword(user.passwordHash, password) : await verifyDecoy(password);
    if (!user || !valid) throw new AppError('INVALID_CREDENTIALS');
    // Said only to someone who knows the password: a guesser learns nothing about the account.
    if (user.suspendedAt) throw new AppError('ACCOUNT_SUSPENDED');
    const tokens = await this.#deps.db.transaction((tx) => this.#startSession(tx, user.id, client));
    return { ...tokens, user: await this.userJson(user) };
  }

  /**
   * Issue 16 §1: a session for a user who proved who they are with another provider (a linked Discord
   * account), shaped as the password sign-in answers, so the web app stores it the same way.
   */
  async signInVerified(user: UserRow, client: ClientInfo): Promise<AuthSession> {
    if (user.suspendedAt) throw new AppError('ACCOUNT_SUSPENDED');
    const tokens = await this.#deps.db.transaction((tx) => this.#startSession(tx, user.id, client));
    return { ...tokens, user: await this.userJson(user) };
  }

  /**
   * Issue 16 §1: an account created through another provider (Discord). It has no password until its
   * owner sets one with a reset link; its email counts as verified only when the provider says so (else a
   * verification link is mailed, as on registration). `attach` runs in the same transaction (it links the
   * provider's account), so a refusal there leaves no half-made account. The username is the wanted one
   * made valid and unique.
   */
  async registerExternal(
    input: { email: string; wantedUsername: string; emailVerified: boolean; emailTakenMessage: string },
    client: ClientInfo,
    attach: (tx: Executor, user: UserRow) => Promise<void>,
  ): Promise<AuthSession> {
    const { user, mailKey } = await this.#deps.db.transaction(async (tx) => {
      if ((await repo.emailOrUsernameTaken(tx, { email: input.email, at: this.#now() })).email) {
        // Never merged into the existing account: the provider's word about an address is not a password.
        throw new AppError('CONFLICT', input.emailTakenMessage, {
          details: [{ field: 'email', message: authMessages.emailTaken }],
        });
      }
      const username = await this.#freeUsername(tx, input.wantedUsername);
      const user = await repo.insertUser(tx, {
        email: input.email,
        username,
        passwordHash: null,
        ...(input.emailVerified ? { emailVerifiedAt: this.#now() } : {}),
      });
      // As at registration: an email change that committed meanwhile keeps the address for its undo link.
      if (await repo.emailReservedForUndo(tx, input.email, this.#now(), user.id)) {
        throw new AppError('CONFLICT', input.emailTakenMessage, {
          details: [{ field: 'email', message: authMessages.emailTaken }],
        });
      }
      const mailKey = input.emailVerified
        ? undefined
        : await this.#mailLink(tx, user, 'email_verification', EMAIL_VERIFICATION_TTL_S, {
            occasion: 'sign_up',
          });
      await attach(tx, user);
      return { user, mailKey };
    });
    if (mailKey) this.#deps.mails.sendSoon([mailKey]);
    return this.signInVerified(user, client);
  }

  /** A username our rules accept (3-30 of A-Z a-z 0-9 _ -), made unique with a short suffix when taken. */
  async #freeUsername(db: Executor, wanted: string): Promise<string> {
    const cleaned = wanted
      .replace(/[^A-Za-z0-9_-]+/g, '_')
      .replace(/^_+|_+$/g, '')
      .slice(0, 24);
    // A Discord name like "Admin" is no more a staff name here than one typed at sign-up.
    const base =
      cleaned.length >= 3 && !isReservedUsername(cleaned) ? cleaned : `player${cleaned ? `_${cleaned}` : ''}`;
    for (let attempt = 0; attempt < 8; attempt++) {
      const candidate =
        attempt === 0
          ? base
          : `${base}_${randomToken()
              .replace(/[^A-Za-z0-9]/g, '')
              .slice(0, 4)}`;
      if (!(await repo.emailOrUsernameTaken(db, { username: candidate })).username) return candidate;
    }
    throw new AppError('CONFLICT', authMessages.usernameTaken);
  }

  /**
   * Rotates the refresh token. A token presented twice means it was stolen or replayed: the whole family
   * (the session) is revoked, and both the thief and the owner must sign in again.
   */
  async refresh(refreshToken: string): Promise<AuthTokens> {
    const now = this.#now();
    const outcome = await this.#deps.db.transaction(async (tx) => {
      const found = await repo.lockRefreshToken(tx, hashToken(refreshToken));
      if (!found) return { error: new AppError('INVALID_TOKEN') } as const;
      const { token, session } = found;
      if (session.revokedAt) {
        const words = session.revokedReason ? revocationWords.get(session.revokedReason) : undefined;
        return { error: new AppError('REVOKED_TOKEN', words) } as const;
      }
      if (token.usedAt) {
        const ended = await repo.revokeSession(tx, session.id, 'refresh_token_reuse', now);
        return { error: new AppError('REVOKED_TOKEN'), ended } as const;
      }
      if (token.expiresAt <= now) return { error: new AppError('EXPIRED_TOKEN') } as const;
      await repo.markRefreshTokenUsed(tx, token.id, now);
      await repo.touchSession(tx, session.id, now);
      await repo.deleteExpiredRefreshTokens(tx, { sessionId: session.id }, now);
      return { tokens: await this.#issueTokens(tx, session.userId, session.id) } as const;
    });
    // Thrown after the commit, so the revocation of a reused family is kept.
    if ('error' in outcome) {
      if ('ended' in outcome && outcome.ended) this.#sessionsEnded(outcome.ended.userId, [outcome.ended.id]);
      throw outcome.error;
    }
    return outcome.tokens;
  }

  async logout(sessionId: string): Promise<void> {
    const ended = await repo.revokeSession(this.#deps.db, sessionId, 'logout', this.#now());
    if (ended) this.#sessionsEnded(ended.userId, [ended.id]);
  }

  /**
   * The access token's session must still be live: logout and password resets end it at once. A live
   * session is remembered for a few seconds (session-cache.ts), forgotten as soon as anything ends it.
   */
  async authenticate(
    claims: { userId: string; sessionId: string },
    options: { fresh?: boolean } = {},
  ): Promise<SessionUser> {
    // `fresh`: read from the database whatever is remembered, for what outlives the request (a socket).
    const cache = options.fresh ? undefined : this.#deps.sessionCache;
    const cached = cache?.get(claims.sessionId, claims.userId);
    if (cached) return { user: cached, sessionId: claims.sessionId };
    const read = async () => {
      const row = await repo.findActiveSessionUser(this.#deps.db, claims.sessionId, claims.userId);
      return row && { ...row, live: !row.revokedAt && !row.user.suspendedAt };
    };
    const found = await (cache ? cache.load(claims.sessionId, claims.userId, read) : read());
    if (!found) throw new AppError('INVALID_TOKEN');
    // A suspension ends every session too; this also covers a token checked in the same instant.
    if (found.revokedAt || found.user.suspendedAt) throw new AppError('REVOKED_TOKEN');
    return { user: found.user, sessionId: claims.sessionId };
  }

  /**
   * GET /auth/verify: the bearer token, checked by the auth hook as every protected call checks it (a
   * session's signature, expiry and live session; an API token's revocation, expiry and plan), answered
   * with its user and expiry instead of a resource. An API token made to never expire has none (null).
   */
  async verifyBearer(auth: AuthenticatedUser, token: string | undefined): Promise<TokenVerification> {
    if (!token) throw new AppError('UNAUTHORIZED');
    const expiresAt = auth.apiToken
      ? await this.#apiTokenExpiry(auth.user.id, auth.apiToken.id)
      : (await this.#deps.accessTokens.verify(token)).expiresAt;
    return {
      valid: true,
      expires_at: expiresAt?.toISOString() ?? null,
      user: await this.userJson(auth.user),
    };
  }

  async #apiTokenExpiry(userId: string, tokenId: string): Promise<Date | null> {
    const tokens = await apiTokensRepository.listActive(this.#deps.db, userId);
    const token = tokens.find((row) => row.id === tokenId);
    // Revoked between the auth hook and this read: answered as the hook would now.
    if (!token) throw new AppError('REVOKED_TOKEN', apiTokenMessages.revoked);
    return token.expiresAt;
  }

  me(auth: AuthenticatedUser): Promise<User> {
    return this.userJson(auth.user);
  }

  /** spec/01 §3 User, with the plan from the user's subscription. */
  async userJson(user: UserRow): Promise<User> {
    return toUserJson(user, await this.#deps.subscriptions.summary(this.#deps.db, user.id));
  }

  /** `sentBy` 'admin': the Users page's "send a reset link", which the mail names as its sender. */
  async forgotPassword(email: string, sentBy: 'owner' | 'admin' = 'owner'): Promise<void> {
    const user = await repo.findUserByEmail(this.#deps.db, email);
    if (!user) return;
    const mailKey = await this.#deps.db.transaction((tx) =>
      this.#mailLink(tx, user, 'password_reset', PASSWORD_RESET_TTL_S, { sentByAdmin: sentBy === 'admin' }),
    );
    this.#deps.mails.sendSoon([mailKey]);
  }

  async resetPassword(token: string, password: string): Promise<void> {
    const passwordHash = await hashPassword(password);
    const now = this.#now();
    const ended = await this.#deps.db.transaction(async (tx) => {
      const stored = await repo.lockEmailToken(tx, hashToken(token), 'password_reset');
      if (!stored) throw resetLinkInvalid();
      if (stored.usedAt) {
        throw new AppError('BAD_REQUEST', authMessages.resetTokenUsed, {
          details: [{ field: 'token', message: authMessages.resetTokenUsed }],
        });
      }
      if (stored.expiresAt <= now) throw resetLinkInvalid();
      const user = await repo.findUserById(tx, stored.userId);
      // A link mailed to an address the account has since left is void: the old mailbox may be the thief's.
      if (!user || stored.email.toLowerCase() !== user.email.toLowerCase()) throw resetLinkInvalid();
      await repo.markEmailTokenUsed(tx, stored.id, now);
      // Following a mailed link proves the address, so an unverified one becomes verified.
      const provesAddress = !user.emailVerifiedAt;
      await repo.updateUser(tx, user.id, {
        passwordHash,
        ...(provesAddress ? { emailVerifiedAt: now } : {}),
      });
      await repo.revokeApiTokens(tx, user.id, now);
      return { userId: user.id, sessionIds: await repo.revokeUserSessions(tx, user.id, 'password_reset') };
    });
    this.#sessionsEnded(ended.userId, ended.sessionIds);
  }

  async verifyEmail(token: string): Promise<User> {
    const now = this.#now();
    const invalid = () =>
      new AppError('BAD_REQUEST', authMessages.verificationTokenInvalid, {
        details: [{ field: 'token', message: authMessages.verificationTokenInvalid }],
      });
    const user = await this.#deps.db.transaction(async (tx) => {
      const stored = await repo.lockEmailToken(tx, hashToken(token), 'email_verification');
      if (!stored) throw invalid();
      const user = await repo.findUserById(tx, stored.userId);
      // A link mailed to an address the user has since changed proves nothing about the new one.
      if (!user || user.email.toLowerCase() !== stored.email.toLowerCase()) throw invalid();
      // Following the same link again (a second click, another device) finds the address verified: it says
      // so rather than "failed". It changes nothing, so it reveals nothing the link did not already prove.
      if (stored.usedAt && user.emailVerifiedAt) return user;
      if (stored.usedAt || stored.expiresAt <= now) throw invalid();
      await repo.markEmailTokenUsed(tx, stored.id, now);
      return user.emailVerifiedAt ? user : repo.updateUser(tx, user.id, { emailVerifiedAt: now });
    });
    return this.userJson(user);
  }

  async resendVerification(target: { user?: UserRow; email?: string }): Promise<void> {
    const user =
      target.user ?? (target.email ? await repo.findUserByEmail(this.#deps.db, target.email) : undefined);
    if (!user || user.emailVerifiedAt) return;
    const mailKey = await this.#deps.db.transaction((tx) =>
      this.#mailLink(tx, user, 'email_verification', EMAIL_VERIFICATION_TTL_S),
    );
    this.#deps.mails.sendSoon([mailKey]);
  }

  /**
   * An email change needs the current password (a stolen access token alone must not move the account to
   * another mailbox), ends every other session, mails the new address to verify it and the old one an
   * undo link (revertEmailChange).
   */
  async updateProfile(auth: SessionUser, changes: ProfileUpdateBody['user']): Promise<User> {
    const current = auth.user;
    const previousEmail = current.email;
    const emailChanged =
      changes.email !== undefined && changes.email.toLowerCase() !== current.email.toLowerCase();
    if (emailChanged) await this.#assertCurrentPassword(current, changes.current_password);
    const { updated, ended, mailKeys } = await this.#deps.db
      .transaction(async (tx) => {
        await this.#assertAvailable(tx, {
          ...(emailChanged ? { email: changes.email } : {}),
          ...(changes.username !== undefined ? { username: changes.username } : {}),
          exceptUserId: current.id,
        });
        const user = await repo.updateUser(tx, current.id, {
          ...(changes.username !== undefined ? { username: changes.username } : {}),
          ...(changes.email !== undefined ? { email: changes.email } : {}),
          ...(emailChanged ? { emailVerifiedAt: null } : {}),
        });
        if (!emailChanged) return { updated: user, ended: [], mailKeys: [] };
        // Reset links went to the old address, which the owner is leaving.
        await repo.expireEmailTokens(tx, user.id, 'password_reset', this.#now());
        const verification = await this.#mailLink(tx, user, 'email_verification', EMAIL_VERIFICATION_TTL_S, {
          occasion: 'email_change',
        });
        // Older undo links stay valid: after two changes by a thief, the owner's link must still work.
        const undo = await this.#mailLink(tx, user, 'email_revert', EMAIL_REVERT_TTL_S, {
          email: previousEmail,
          supersede: false,
        });
        const ended = await repo.revokeUserSessions(tx, current.id, 'email_changed', {
          except: auth.sessionId,
        });
        return { updated: user, ended, mailKeys: [verification, undo] };
      })
      .catch((error: unknown) => {
        if (isUniqueViolation(error)) throw this.#takenError(error);
        throw error;
      });
    this.#sessionsEnded(current.id, ended);
    this.#deps.mails.sendSoon(mailKeys);
    return this.userJson(updated);
  }

  /**
   * The undo link mailed to the old address: puts that address back (verified: the link proves the
   * mailbox), ends every session, voids the links mailed since (to the address the thief chose), and
   * answers a fresh password reset token, since whoever changed the address may know the password.
   */
  async revertEmailChange(token: string): Promise<{ message: string; email: string; reset_token: string }> {
    const now = this.#now();
    const invalid = () =>
      new AppError('BAD_REQUEST', authMessages.emailRevertInvalid, {
        details: [{ field: 'token', message: authMessages.emailRevertInvalid }],
      });
    const outcome = await this.#deps.db
      .transaction(async (tx) => {
        const stored = await repo.lockEmailToken(tx, hashToken(token), 'email_revert');
        if (!stored || stored.usedAt || stored.expiresAt <= now) throw invalid();
        const found = await repo.findUserById(tx, stored.userId);
        if (!found) throw invalid();
        await this.#assertAvailable(tx, { email: stored.email, exceptUserId: found.id });
        await repo.markEmailTokenUsed(tx, stored.id, now);
        await repo.expireEmailTokensCreatedAfter(tx, found.id, 'email_revert', stored.createdAt, now);
        await repo.expireEmailTokens(tx, found.id, 'email_verification', now);
        const user = await repo.updateUser(tx, found.id, { email: stored.email, emailVerifiedAt: now });
        // Answered, not mailed: whoever changed the address may read the mailbox it moved to.
        const reset = await this.#storeEmailToken(tx, user, 'password_reset', PASSWORD_RESET_TTL_S);
        await repo.revokeApiTokens(tx, user.id, now);
        const ended = await repo.revokeUserSessions(tx, user.id, 'email_change_reverted');
        return { user, ended, resetToken: reset.token };
      })
      .catch((error: unknown) => {
        if (isUniqueViolation(error)) throw this.#takenError(error);
        throw error;
      });
    this.#sessionsEnded(outcome.user.id, outcome.ended);
    return {
      message: authMessages.emailReverted,
      email: outcome.user.email,
      reset_token: outcome.resetToken,
    };
  }

  async #assertCurrentPassword(user: UserRow, currentPassword: string | undefined): Promise<void> {
    if (!currentPassword) {
      throw AppError.validation([
        { field: 'current_password', message: authMessages.currentPasswordRequired },
      ]);
    }
    if (!(await verifyPassword(user.passwordHash, currentPassword))) {
      throw AppError.validation([{ field: 'current_password', message: authMessages.currentPasswordWrong }]);
    }
  }

  /** Changing the password keeps this sign-in, ends every other one and revokes the API tokens. */
  async changePassword(auth: SessionUser, input: PasswordChangeBody): Promise<void> {
    await this.#assertCurrentPassword(auth.user, input.current_password);
    const passwordHash = await hashPassword(input.password);
    const ended = await this.#deps.db.transaction(async (tx) => {
      if (!(await repo.replacePasswordHash(tx, auth.user.id, auth.user.passwordHash, passwordHash))) {
        throw AppError.validation([
          { field: 'current_password', message: authMessages.currentPasswordWrong },
        ]);
      }
      await repo.revokeApiTokens(tx, auth.user.id, this.#now());
      return repo.revokeUserSessions(tx, auth.user.id, 'password_changed', { except: auth.sessionId });
    });
    this.#sessionsEnded(auth.user.id, ended);
  }

  /**
   * The user deletes their own account (docs/decisions.md "Deleting an account"), confirmed with their
   * password, or with their email when the account has none (made through Discord). Admins are refused:
   * an admin account goes only after its flag is revoked. The same path as an admin's deletion, with the
   * user as the actor of the ledger rows and of the audit entry.
   */
  async deleteOwnAccount(auth: SessionUser, body: AccountDeletionBody, client: ClientInfo): Promise<void> {
    const { user } = auth;
    const adminRefused = () => new AppError('FORBIDDEN', accountClosureMessages.adminRefused);
    if (user.admin) throw adminRefused();
    const passwordHash = user.passwordHash;
    if (passwordHash !== null) {
      // Checked before the transaction: argon2 is deliberately slow and must not hold a connection.
      if (!body.password)
        throw AppError.validation([{ field: 'password', message: accountClosureMessages.passwordRequired }]);
      if (!(await verifyPassword(passwordHash, body.password)))
        throw AppError.validation([{ field: 'password', message: accountClosureMessages.passwordWrong }]);
    } else if (!body.confirm_email) {
      throw AppError.validation([{ field: 'confirm_email', message: accountClosureMessages.emailRequired }]);
    }
    await this.#deletion.delete({
      userId: user.id,
      actor: { id: user.id, username: user.username },
      auditActor: {
        actorId: user.id,
        actorEmail: user.email,
        ip: client.ipAddress ?? null,
        userAgent: client.userAgent ?? null,
      },
      via: 'self_service',
      check: (row) => {
        if (row.admin) throw adminRefused();
        // The password checked above must still be the account's: one changed or set meanwhile is asked for.
        if (row.passwordHash !== passwordHash)
          throw AppError.validation([{ field: 'password', message: accountClosureMessages.passwordWrong }]);
        if (passwordHash === null && body.confirm_email?.toLowerCase() !== row.email.toLowerCase())
          throw AppError.validation([{ field: 'confirm_email', message: accountClosureMessages.emailWrong }]);
      },
      successorMayRun: async (tx, memberId) =>
        (await this.#deps.entitlements.roomFor(tx, memberId, 'parties_created')).fits,
    });
  }

  /**
   * The user's own data as one file (GET /users/me/export): who it is for and when, and the document, which
   * reads the rest as it is written (account-export.ts).
   */
  async exportData(auth: AuthenticatedUser) {
    const db = this.#deps.db;
    // Read fresh: the session's user may be a few seconds old (session-cache.ts).
    const user = (await repo.findUserById(db, auth.user.id)) ?? auth.user;
    const now = this.#now();
    return {
      username: user.username,
      exportedAt: now,
      document: accountExportDocument(db, user, () => this.#deps.subscriptions.current(user.id), now),
    };
  }

  /** Call after the commit that ended them (a rolled-back revocation must not close anything). */
  #sessionsEnded(userId: string, sessionIds: string[]): void {
    if (sessionIds.length > 0) this.#deps.sessions.sessionsEnded(userId, sessionIds);
  }

  async #assertAvailable(db: Executor, values: { email?: string; username?: string; exceptUserId?: string }) {
    const taken = await repo.emailOrUsernameTaken(db, { ...values, at: this.#now() });
    const details: FieldError[] = [];
    if (taken.email) details.push({ field: 'email', message: authMessages.emailTaken });
    if (taken.username) details.push({ field: 'username', message: authMessages.usernameTaken });
    if (details.length > 0) throw AppError.validation(details);
  }

  #takenError(error: unknown): AppError {
    const text = String((error as { cause?: { constraint?: string } }).cause?.constraint ?? error);
    return AppError.validation(
      text.includes('username')
        ? [{ field: 'username', message: authMessages.usernameTaken }]
        : [{ field: 'email', message: authMessages.emailTaken }],
    );
  }

  async #startSession(db: Executor, userId: string, client: ClientInfo): Promise<AuthTokens> {
    // The spent rows of sessions no longer refreshed (a closed tab, a lost phone) go as a new one starts.
    await repo.deleteExpiredRefreshTokens(db, { userId }, this.#now());
    const session = await repo.createSession(db, {
      userId,
      ...(client.userAgent ? { userAgent: client.userAgent.slice(0, 500) } : {}),
      ...(client.ipAddress ? { ipAddress: client.ipAddress } : {}),
    });
    return this.#issueTokens(db, userId, session.id);
  }

  async #issueTokens(db: Executor, userId: string, sessionId: string): Promise<AuthTokens> {
    const now = this.#now();
    const refreshToken = randomToken();
    await repo.insertRefreshToken(db, {
      sessionId,
      tokenHash: hashToken(refreshToken),
      expiresAt: new Date(now.getTime() + REFRESH_TOKEN_TTL_S * 1000),
    });
    const access = await this.#deps.accessTokens.issue({ userId, sessionId }, now);
    return { token: access.token, expires_at: access.expiresAt.toISOString(), refresh_token: refreshToken };
  }

  /** Stores a single-use link (hashed) and answers its row's id and its token. */
  async #storeEmailToken(
    db: Executor,
    user: UserRow,
    purpose: EmailTokenPurpose,
    ttlSeconds: number,
    options: { email?: string; supersede?: boolean } = {},
  ): Promise<{ id: string; token: string }> {
    const now = this.#now();
    if (options.supersede !== false) await repo.expireEmailTokens(db, user.id, purpose, now);
    const link = this.#deps.mails.newLink();
    await repo.insertEmailToken(db, {
      id: link.id,
      userId: user.id,
      purpose,
      tokenHash: hashToken(link.token),
      email: options.email ?? user.email,
      expiresAt: new Date(now.getTime() + ttlSeconds * 1000),
    });
    return link;
  }

  /**
   * Stores a link and queues its mail in the same transaction (to the address the link is for); answers
   * the job's key, to send once the transaction committed.
   */
  async #mailLink(
    tx: Executor,
    user: UserRow,
    purpose: EmailTokenPurpose,
    ttlSeconds: number,
    options: {
      email?: string;
      supersede?: boolean;
      occasion?: AccountMailPayload['occasion'];
      sentByAdmin?: boolean;
    } = {},
  ): Promise<string> {
    const { occasion, sentByAdmin, ...stored } = options;
    const link = await this.#storeEmailToken(tx, user, purpose, ttlSeconds, stored);
    return this.#deps.mails.queue(tx, {
      email_token_id: link.id,
      ...(purpose === 'email_revert' ? { new_email: user.email } : {}),
      ...(occasion ? { occasion } : {}),
      ...(sentByAdmin ? { sent_by_admin: true as const } : {}),
    });
  }
}
