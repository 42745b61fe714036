import { and, eq, isNull } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { adminSessions } from '../../db/schema/admin.js';

export type AdminSessionRow = typeof adminSessions.$inferSelect;

/** The only place that builds admin session queries. */
export const adminSessionsRepository = {
  async insert(
    db: Executor,
    values: { userId: string; authSessionId: string; tokenHash: string; expiresAt: Date; createdAt: Date },
  ): Promise<AdminSessionRow> {
    const [row] = await db
      .insert(adminSessions)
      .values({ ...values, lastUsedAt: values.createdAt })
      .returning();
    if (!row) throw new Error('insert admin_sessions returned nothing');
    return row;
  },

  async findByTokenHash(db: Executor, tokenHash: string): Promise<AdminSessionRow | undefined> {
    const [row] = await db
      .select()
      .from(adminSessions)
      .where(eq(adminSessions.tokenHash, tokenHash))
      .limit(1);
    return row;
  },

  /** Activity pushes the expiry out; an ended session stays ended. */
  async extend(db: Executor, id: string, at: Date, expiresAt: Date): Promise<void> {
    await db
      .update(adminSessions)
      .set({ lastUsedAt: at, expiresAt })
      .where(and(eq(adminSessions.id, id), isNull(adminSessions.endedAt)));
  },

  async end(db: Executor, id: string, reason: string, at: Date): Promise<boolean> {
    const rows = await db
      .update(adminSessions)
      .set({ endedAt: at, endedReason: reason })
      .where(and(eq(adminSessions.id, id), isNull(adminSessions.endedAt)))
      .returning({ id: adminSessions.id });
    return rows.length > 0;
  },

  /** Ends every open admin session of a user (their admin flag was revoked, they were suspended). */
  async endAllOfUser(db: Executor, userId: string, reason: string, at: Date): Promise<number> {
    const rows = await db
      .update(adminSessions)
      .set({ endedAt: at, endedReason: reason })
      .where(and(eq(adminSessions.userId, userId), isNull(adminSessions.endedAt)))
      .returning({ id: adminSessions.id });
    return rows.length;
  },
};
