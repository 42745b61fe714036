import { asc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { users } from '../../db/schema/accounts.js';

export type UserRow = typeof users.$inferSelect;

/** The only place that builds the back office's queries on users. */
export const adminUsersRepository = {
  async lockUserByEmail(db: Executor, email: string): Promise<UserRow | undefined> {
    const [row] = await db
      .select()
      .from(users)
      .where(sql`lower(${users.email}) = lower(${email})`)
      .limit(1)
      .for('update');
    return row;
  },

  async setAdmin(db: Executor, userId: string, admin: boolean, at: Date): Promise<void> {
    await db.update(users).set({ admin, updatedAt: at }).where(eq(users.id, userId));
  },

  async listAdmins(db: Executor) {
    return db
      .select({ id: users.id, email: users.email, username: users.username, createdAt: users.createdAt })
      .from(users)
      .where(eq(users.admin, true))
      .orderBy(asc(users.email));
  },
};
