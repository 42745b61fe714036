import { and, desc, eq, gt, inArray, isNull, lt, ne, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { authSessions, emailTokens, refreshTokens, users } from '../../db/schema/accounts.js';
import { apiTokens } from '../../db/schema/api-tokens.js';
import { statementName } from '../../db/statements.js';
import { userWritten } from '../../db/user-writes.js';

/** How long an expired refresh token's row is kept (deleteExpiredRefreshTokens). */
const EXPIRED_REFRESH_TOKENS_KEPT_MS = 7 * 24 * 3600_000;

export type UserRow = typeof users.$inferSelect;
export type EmailTokenPurpose = (typeof emailTokens.$inferSelect)['purpose'];

/** The only place that builds account queries. Every function takes the executor it runs on. */
export const accountsRepository = {
  async findUserById(db: Executor, id: string): Promise<UserRow | undefined> {
    const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
    return row;
  },

  async findUserByEmail(db: Executor, email: string): Promise<UserRow | undefined> {
    const [row] = await db.select().from(users).where(sql`lower(${users.email}) = lower(${email})`).limit(1);
    return row;
  },

  async emailOrUsernameTaken(
    db: Executor,
    values: { email?: string; username?: string; exceptUserId?: string; at?: Date },
  ): Promise<{ email: boolean; username: boolean }> {
    const except = values.exceptUserId ? ne(users.id, values.exceptUserId) : undefined;
    const [emailRow] = values.email
      ? await db
          .select({ id: users.id })
          .from(users)
          .where(and(sql`lower(${users.email}) = lower(${values.email})`, except))
          .limit(1)
      : [];
    const [usernameRow] = values.username
      ? await db
          .select({ id: users.id })
          .from(users)
          .where(and(sql`lower(${users.username}) = lower(${values.username})`, except))
          .limit(1)
      : [];
    const reserved =
      !emailRow && values.email
        ? await this.emailReservedForUndo(db, values.email, values.at ?? new Date(), values.exceptUserId)
        : false;
    return { email: Boolean(emailRow) || reserved, username: Boolean(usernameRow) };
  },

  /**
   * Whether an address another account moved away from can still be taken back by its undo link: until
   * that link expires the address stays theirs, or a thief who changed it could register it and leave the
   * owner's link nothing to go back to.
   */
  async emailReservedForUndo(db: Executor, email: string, at: Date, exceptUserId?: string): Promise<boolean> {
    const [row] = await db
      .select({ id: emailTokens.id })
      .from(emailTokens)
      .where(
        and(
          eq(emailTokens.purpose, 'email_revert'),
          isNull(emailTokens.usedAt),
          gt(emailTokens.expiresAt, at),
          sql`lower(${emailTokens.email}) = lower(${email})`,
          exceptUserId ? ne(emailTokens.userId, exceptUserId) : undefined,
        ),
      )
      .limit(1);
    return row !== undefined;
  },

  async insertUser(db: Executor, values: typeof users.$inferInsert): Promise<UserRow> {
    const [row] = await db.insert(users).values(values).returning();
    if (!row) throw new Error('insert users returned nothing');
    return row;
  },

  async updateUser(db: Executor, id: string, values: Partial<typeof users.$inferInsert>): Promise<UserRow> {
    const [row] = await db
      .update(users)
      .set({ ...values, updatedAt: new Date() })
      .where(eq(users.id, id))
      .returning();
    if (!row) throw new Error(`user ${id} vanished during update`);
    userWritten(id);
    return row;
  },

  /**
   * Sets the password only if it is still the one the caller checked: of two changes racing from the same
   * current password, the second finds it gone and is refused instead of silently winning.
   */
  async replacePasswordHash(
    db: Executor,
    id: string,
    checkedHash: string | null,
    passwordHash: string,
  ): Promise<boolean> {
    const rows = await db
      .update(users)
      .set({ passwordHash, updatedAt: new Date() })
      .where(
        and(
          eq(users.id, id),
          checkedHash === null ? isNull(users.passwordHash) : eq(users.passwordHash, checkedHash),
        ),
      )
      .returning({ id: users.id });
    if (rows.length > 0) userWritten(id);
    return rows.length > 0;
  },

  async createSession(db: Executor, values: { userId: string; userAgent?: string; ipAddress?: string }) {
    const [row] = await db.insert(authSessions).values(values).returning();
    if (!row) throw new Error('insert auth_sessions returned nothing');
    return row;
  },

  /** The user behind a live session, or nothing when the session is unknown or revoked. */
  async findActiveSessionUser(db: Executor, sessionId: string, userId: string) {
    const [row] = await db
      .select({ user: users, revokedAt: authSessions.revokedAt })
      .from(authSessions)
      .innerJoin(users, eq(users.id, authSessions.userId))
      .where(and(eq(authSessions.id, sessionId), eq(authSessions.userId, userId)))
      .limit(1)
      // Every authenticated request runs it: prepared once per connection (db/statements.ts).
      .prepare(statementName('accounts_session_user'))
      .execute();
    return row;
  },

  async insertRefreshToken(db: Executor, values: { sessionId: string; tokenHash: string; expiresAt: Date }) {
    await db.insert(refreshTokens).values(values);
  },

  /** Locks the token row, so two refreshes with one token cannot both rotate it. */
  async lockRefreshToken(db: Executor, tokenHash: string) {
    const [row] = await db
      .select({ token: refreshTokens, session: authSessions })
      .from(refreshTokens)
      .innerJoin(authSessions, eq(authSessions.id, refreshTokens.sessionId))
      .where(eq(refreshTokens.tokenHash, tokenHash))
      .limit(1)
      .for('update', { of: refreshTokens });
    return row;
  },

  /**
   * Deletes the refresh tokens that expired over a week ago, of one session or of every session of a
   * user: a token past its expiry is refused whatever it is (for a week still as expired, which the app
   * reads as "sign in again", then as unknown). A used token is kept until then, so that presenting it
   * again still ends its session (reuse detection). Without this every refresh left a row behind for good
   * (one each quarter hour of an open tab). Sessions stay: they are the users' "last seen" and the activity
   * the admin analytics count.
   */
  async deleteExpiredRefreshTokens(db: Executor, of: { sessionId: string } | { userId: string }, now: Date) {
    const expiredBefore = new Date(now.getTime() - EXPIRED_REFRESH_TOKENS_KEPT_MS);
    const sessions =
      'sessionId' in of
        ? eq(refreshTokens.sessionId, of.sessionId)
        : inArray(
            refreshTokens.sessionId,
            db.select({ id: authSessions.id }).from(authSessions).where(eq(authSessions.userId, of.userId)),
          );
    await db.delete(refreshTokens).where(and(sessions, lt(refreshTokens.expiresAt, expiredBefore)));
  },

  async markRefreshTokenUsed(db: Executor, id: string, at: Date) {
    await db.update(refreshTokens).set({ usedAt: at }).where(eq(refreshTokens.id, id));
  },

  async touchSession(db: Executor, sessionId: string, at: Date) {
    await db.update(authSessions).set({ lastUsedAt: at }).where(eq(authSessions.id, sessionId));
  },

  /** Returns the session when this call ended it (nothing when it was unknown or already ended). */
  async revokeSession(db: Executor, sessionId: string, reason: string, at = new Date()) {
    const [row] = await db
      .update(authSessions)
      .set({ revokedAt: at, revokedReason: reason })
      .where(and(eq(authSessions.id, sessionId), isNull(authSessions.revokedAt)))
      .returning({ id: authSessions.id, userId: authSessions.userId });
    if (row) userWritten(row.userId);
    return row;
  },

  /**
   * The user's sessions that can still be used: not ended, with a refresh token that is neither spent nor
   * expired (a session whose last token ran out is over, though nothing marked it so). Newest use first.
   */
  async liveSessions(db: Executor, userId: string, now: Date) {
    return db
      .select({
        id: authSessions.id,
        userAgent: authSessions.userAgent,
        ipAddress: authSessions.ipAddress,
        createdAt: authSessions.createdAt,
        lastUsedAt: authSessions.lastUsedAt,
      })
      .from(authSessions)
      .where(
        and(
          eq(authSessions.userId, userId),
          isNull(authSessions.revokedAt),
          sql`exists (select 1 from ${refreshTokens} where ${refreshTokens.sessionId} = ${authSessions.id} and ${refreshTokens.usedAt} is null and ${refreshTokens.expiresAt} > ${now})`,
        ),
      )
      .orderBy(desc(authSessions.lastUsedAt), desc(authSessions.createdAt));
  },

  /** Ends one of the user's own sessions; nothing when it is another user's, unknown or already ended. */
  async revokeOwnSession(db: Executor, userId: string, sessionId: string, reason: string, at: Date) {
    const [row] = await db
      .update(authSessions)
      .set({ revokedAt: at, revokedReason: reason })
      .where(
        and(eq(authSessions.id, sessionId), eq(authSessions.userId, userId), isNull(authSessions.revokedAt)),
      )
      .returning({ id: authSessions.id });
    if (row) userWritten(userId);
    return row;
  },

  /** Returns the ids of the sessions this call ended. */
  async revokeUserSessions(
    db: Executor,
    userId: string,
    reason: string,
    options: { except?: string } = {},
  ): Promise<string[]> {
    const rows = await db
      .update(authSessions)
      .set({ revokedAt: new Date(), revokedReason: reason })
      .where(
        and(
          eq(authSessions.userId, userId),
          isNull(authSessions.revokedAt),
          options.except ? ne(authSessions.id, options.except) : undefined,
        ),
      )
      .returning({ id: authSessions.id });
    if (rows.length > 0) userWritten(userId);
    return rows.map((row) => row.id);
  },

  /**
   * Revokes every live personal API token of the user: a password changed, reset or an email change undone
   * ends every way in, and a token minted with a stolen session is one.
   */
  async revokeApiTokens(db: Executor, userId: string, at: Date): Promise<number> {
    const rows = await db
      .update(apiTokens)
      .set({ revokedAt: at })
      .where(and(eq(apiTokens.userId, userId), isNull(apiTokens.revokedAt)))
      .returning({ id: apiTokens.id });
    return rows.length;
  },

  async insertEmailToken(
    db: Executor,
    values: {
      id: string;
      userId: string;
      purpose: EmailTokenPurpose;
      tokenHash: string;
      email: string;
      expiresAt: Date;
    },
  ) {
    await db.insert(emailTokens).values(values);
  },

  /** The link an account mail carries, read by the job that sends it (account-mails.ts). */
  async findEmailToken(db: Executor, id: string) {
    const [row] = await db.select().from(emailTokens).where(eq(emailTokens.id, id)).limit(1);
    return row;
  },

  async lockEmailToken(db: Executor, tokenHash: string, purpose: EmailTokenPurpose) {
    const [row] = await db
      .select()
      .from(emailTokens)
      .where(and(eq(emailTokens.tokenHash, tokenHash), eq(emailTokens.purpose, purpose)))
      .limit(1)
      .for('update');
    return row;
  },

  async markEmailTokenUsed(db: Executor, id: string, at: Date) {
    await db.update(emailTokens).set({ usedAt: at }).where(eq(emailTokens.id, id));
  },

  /** Undoing an email change voids the undo links of the changes made after it (they name later addresses). */
  async expireEmailTokensCreatedAfter(
    db: Executor,
    userId: string,
    purpose: EmailTokenPurpose,
    after: Date,
    at: Date,
  ) {
    await db
      .update(emailTokens)
      .set({ expiresAt: at })
      .where(
        and(
          eq(emailTokens.userId, userId),
          eq(emailTokens.purpose, purpose),
          isNull(emailTokens.usedAt),
          gt(emailTokens.createdAt, after),
          gt(emailTokens.expiresAt, at),
        ),
      );
  },

  /** A new link supersedes older unused ones of the same purpose. */
  async expireEmailTokens(db: Executor, userId: string, purpose: EmailTokenPurpose, at: Date) {
    await db
      .update(emailTokens)
      .set({ expiresAt: at })
      .where(
        and(
          eq(emailTokens.userId, userId),
          eq(emailTokens.purpose, purpose),
          isNull(emailTokens.usedAt),
          gt(emailTokens.expiresAt, at),
        ),
      );
  },
};
