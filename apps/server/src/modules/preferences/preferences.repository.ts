import { eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { users } from '../../db/schema/accounts.js';
import { userWritten } from '../../db/user-writes.js';

export const preferencesRepository = {
  async read(db: Executor, userId: string): Promise<Record<string, unknown> | undefined> {
    const [row] = await db
      .select({ preferences: users.preferences })
      .from(users)
      .where(eq(users.id, userId))
      .limit(1);
    return row?.preferences;
  },

  /** Merges inside the database (jsonb ||), so two partial updates at once both land. */
  async merge(
    db: Executor,
    userId: string,
    changes: Record<string, unknown>,
  ): Promise<Record<string, unknown>> {
    const merged = await preferencesRepository.mergeIfExists(db, userId, changes);
    if (!merged) throw new Error(`user ${userId} vanished while saving preferences`);
    return merged;
  },

  /** As merge; undefined when there is no such user (an unsubscribe link of a deleted account). */
  async mergeIfExists(
    db: Executor,
    userId: string,
    changes: Record<string, unknown>,
  ): Promise<Record<string, unknown> | undefined> {
    const [row] = await db
      .update(users)
      .set({ preferences: sql`${users.preferences} || ${JSON.stringify(changes)}::jsonb` })
      .where(eq(users.id, userId))
      .returning({ preferences: users.preferences });
    if (!row) return undefined;
    userWritten(userId);
    return row.preferences;
  },
};
