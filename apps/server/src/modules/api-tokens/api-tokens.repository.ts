import { and, desc, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { users } from '../../db/schema/accounts.js';
import { apiTokens } from '../../db/schema/api-tokens.js';

export type ApiTokenRow = typeof apiTokens.$inferSelect;

/** Issue 16 §5: personal API tokens, stored hashed. */
export const apiTokensRepository = {
  /** The user's tokens that are not revoked, newest first (expired ones stay listed until revoked). */
  async listActive(db: Executor, userId: string): Promise<ApiTokenRow[]> {
    return db
      .select()
      .from(apiTokens)
      .where(and(eq(apiTokens.userId, userId), isNull(apiTokens.revokedAt)))
      .orderBy(desc(apiTokens.createdAt), desc(apiTokens.id));
  },

  /** Serialises creations of one user's tokens, so that two racing requests cannot pass the cap together. */
  async lockUser(tx: Executor, userId: string): Promise<void> {
    await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
  },

  async countActive(db: Executor, userId: string): Promise<number> {
    const [row] = await db
      .select({ count: sql<number>`count(*)::int` })
      .from(apiTokens)
      .where(and(eq(apiTokens.userId, userId), isNull(apiTokens.revokedAt)));
    return row?.count ?? 0;
  },

  async insert(
    db: Executor,
    values: Pick<ApiTokenRow, 'userId' | 'name' | 'scope' | 'tokenHash' | 'hint' | 'expiresAt' | 'createdAt'>,
  ): Promise<ApiTokenRow> {
    const [row] = await db.insert(apiTokens).values(values).returning();
    if (!row) throw new Error('insert api_tokens returned nothing');
    return row;
  },

  /** Revokes one of the user's live tokens; undefined when it is not theirs or already revoked. */
  async revoke(db: Executor, userId: string, id: string, at: Date): Promise<ApiTokenRow | undefined> {
    const [row] = await db
      .update(apiTokens)
      .set({ revokedAt: at })
      .where(and(eq(apiTokens.id, id), eq(apiTokens.userId, userId), isNull(apiTokens.revokedAt)))
      .returning();
    return row;
  },

  async findByHash(db: Executor, tokenHash: string) {
    const [row] = await db
      .select({ token: apiTokens, user: users })
      .from(apiTokens)
      .innerJoin(users, eq(users.id, apiTokens.userId))
      .where(eq(apiTokens.tokenHash, tokenHash))
      .limit(1);
    return row;
  },

  /**
   * Records a use, but writes only when the last recorded use is older than `staleBefore`: a script
   * making hundreds of calls a minute costs one write a minute, and the condition in the statement
   * keeps concurrent requests from writing twice.
   */
  async touch(db: Executor, id: string, at: Date, staleBefore: Date): Promise<void> {
    await db
      .update(apiTokens)
      .set({ lastUsedAt: at })
      .where(
        and(eq(apiTokens.id, id), or(isNull(apiTokens.lastUsedAt), lt(apiTokens.lastUsedAt, staleBefore))),
      );
  },
};
