import { and, desc, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { type NotificationPayload, notifications } from '../../db/schema/notifications.js';

export type NotificationRow = typeof notifications.$inferSelect;
export type NewNotificationRow = Pick<
  NotificationRow,
  'userId' | 'actorId' | 'kind' | 'partyId' | 'payload' | 'createdAt'
>;

/**
 * Whether the notice's user still belongs to its party: a removed member's older notices name the party
 * but no longer lead into it (until they are back in it).
 */
// Written out qualified: drizzle names a column of the one table selected without its table, which inside
// this subquery would mean the membership's own column.
const stillInParty = sql<boolean>`exists (
  select 1 from party_memberships membership
  where membership.party_id = notifications.party_id and membership.user_id = notifications.user_id
)`;

/** The party's name now (null once it is deleted): a renamed party's link is named as it is now. */
const partyNameNow = sql<string | null>`(
  select party.name from parties party where party.id = notifications.party_id
)`;

/** A notice as the inbox shows it. */
export interface ListedNotification {
  row: NotificationRow;
  inParty: boolean;
  partyNameNow: string | null;
}

export const notificationsRepository = {
  async insert(tx: Executor, rows: NewNotificationRow[]): Promise<void> {
    if (rows.length === 0) return;
    await tx.insert(notifications).values(rows);
  },

  /**
   * Holds the users' inboxes until the transaction ends (in one order, so that two writers never wait on
   * each other crosswise): two acts at once see each other's notice, so a repeat folds instead of doubling.
   */
  async lockInboxes(tx: Executor, userIds: readonly string[]): Promise<void> {
    for (const userId of [...userIds].sort()) {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`notifications:${userId}`}))`);
    }
  },

  /** The user's unread notices of this kind by this actor since `since`, newest first (at most the kept few). */
  async unreadSince(
    tx: Executor,
    key: { userId: string; actorId: string; kind: NotificationRow['kind'] },
    since: Date,
  ): Promise<NotificationRow[]> {
    return tx
      .select()
      .from(notifications)
      .where(
        and(
          eq(notifications.userId, key.userId),
          eq(notifications.actorId, key.actorId),
          eq(notifications.kind, key.kind),
          isNull(notifications.readAt),
          gt(notifications.createdAt, since),
        ),
      )
      .orderBy(desc(notifications.createdAt), desc(notifications.id));
  },

  /** One more of the same: the latest words, now, counted. */
  async fold(tx: Executor, id: string, payload: NotificationPayload, at: Date): Promise<void> {
    await tx
      .update(notifications)
      .set({ payload, createdAt: at, repeatCount: sql`${notifications.repeatCount} + 1` })
      .where(eq(notifications.id, id));
  },

  /**
   * Drops each user's notices beyond `keep`, in one statement for all of them: the read ones go first,
   * oldest first, so that a burst of new notices does not push out what the user has not seen.
   */
  async prune(tx: Executor, userIds: string[], keep: number): Promise<void> {
    if (userIds.length === 0) return;
    await tx.execute(sql`
      delete from ${notifications} where ${notifications.id} in (
        select id from (
          select id, row_number() over (
            partition by user_id order by (read_at is null) desc, created_at desc, id desc
          ) as place
          from ${notifications} where ${inArray(notifications.userId, userIds)}
        ) ranked where place > ${keep}
      )`);
  },

  async page(db: Executor, userId: string, page: { limit: number; offset: number }) {
    return db
      .select({ row: notifications, inParty: stillInParty, partyNameNow })
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
  async markRead(
    db: Executor,
    userId: string,
    id: string,
    at: Date,
  ): Promise<ListedNotification | undefined> {
    const [listed] = await db
      .update(notifications)
      .set({ readAt: sql`coalesce(${notifications.readAt}, ${at.toISOString()}::timestamptz)` })
      .where(and(eq(notifications.id, id), eq(notifications.userId, userId)))
      .returning({ row: notifications, inParty: stillInParty, partyNameNow });
    return listed;
  },

  async markAllRead(db: Executor, userId: string, at: Date): Promise<void> {
    await db
      .update(notifications)
      .set({ readAt: at })
      .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)));
  },
};

export type { NotificationPayload };
