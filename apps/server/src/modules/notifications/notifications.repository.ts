import { and, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { type NotificationPayload, notifications } from '../../db/schema/notifications.js';

export type NotificationRow = typeof notifications.$inferSelect;
export type NewNotificationRow = Pick<
  NotificationRow,
  'userId' | 'kind' | 'partyId' | 'payload' | 'createdAt'
>;

export const notificationsRepository = {
  async insert(tx: Executor, rows: NewNotificationRow[]): Promise<void> {
    if (rows.length === 0) return;
    await tx.insert(notifications).values(rows);
  },

  /** Drops each user's notices beyond the newest `keep`, in one statement for all of them. */
  async prune(tx: Executor, userIds: string[], keep: number): Promise<void> {
    if (userIds.length === 0) return;
    await tx.execute(sql`
      delete from ${notifications} where ${notifications.id} in (
        select id from (
          select id, row_number() over (partition by user_id order by created_at desc, id desc) as place
          from ${notifications} where ${inArray(notifications.userId, userIds)}
        ) ranked where place > ${keep}
      )`);
  },

  async page(db: Executor, userId: string, page: { limit: number; offset: number }) {
    return db
      .select()
      .from(notifications)
      .where(eq(notifications.userId, userId))
      .orderBy(desc(notifications.createdAt), desc(notifications.id))
      .limit(page.limit)
      .offset(page.offset);
  },

  async counts(db: Executor, userId: string): Promise<{ total: number; unread: number }> {
    const [row] = await db
      .select({
        total: sql<number>`count(*)::int`,
        unread: sql<number>`(count(*) filter (where ${notifications.readAt} is null))::int`,
      })
      .from(notifications)
      .where(eq(notifications.userId, userId));
    return { total: row?.total ?? 0, unread: row?.unread ?? 0 };
  },

  /** Marks one of the user's notices read (once: a second read keeps the first time); undefined if not theirs. */
  async markRead(db: Executor, userId: string, id: string, at: Date): Promise<NotificationRow | undefined> {
    const [row] = await db
      .update(notifications)
      .set({ readAt: sql`coalesce(${notifications.readAt}, ${at.toISOString()}::timestamptz)` })
      .where(and(eq(notifications.id, id), eq(notifications.userId, userId)))
      .returning();
    return row;
  },

  async markAllRead(db: Executor, userId: string, at: Date): Promise<void> {
    await db
      .update(notifications)
      .set({ readAt: at })
      .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)));
  },
};

export type { NotificationPayload };
