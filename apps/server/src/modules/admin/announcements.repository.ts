import { and, desc, eq, gt, isNull, lte, notExists, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { announcementDismissals, announcements } from '../../db/schema/back-office.js';

export type AnnouncementRow = typeof announcements.$inferSelect;
export type NewAnnouncementRow = typeof announcements.$inferInsert;

/** The only place that builds announcement queries. */
export const announcementsRepository = {
  async insert(db: Executor, row: NewAnnouncementRow): Promise<AnnouncementRow> {
    const [inserted] = await db.insert(announcements).values(row).returning();
    if (!inserted) throw new Error('insert announcements returned nothing');
    return inserted;
  },

  async list(db: Executor, limit: number): Promise<AnnouncementRow[]> {
    return db.select().from(announcements).orderBy(desc(announcements.startsAt)).limit(limit);
  },

  async find(db: Executor, id: string): Promise<AnnouncementRow | undefined> {
    const [row] = await db.select().from(announcements).where(eq(announcements.id, id)).limit(1);
    return row;
  },

  async delete(db: Executor, id: string): Promise<AnnouncementRow | undefined> {
    const [row] = await db.delete(announcements).where(eq(announcements.id, id)).returning();
    return row;
  },

  /** Those in their window now that this user has not closed, newest first. */
  async activeFor(db: Executor, userId: string, now: Date): Promise<AnnouncementRow[]> {
    return db
      .select()
      .from(announcements)
      .where(
        and(
          lte(announcements.startsAt, now),
          or(isNull(announcements.endsAt), gt(announcements.endsAt, now)),
          notExists(
            db
              .select({ one: sql`1` })
              .from(announcementDismissals)
              .where(
                and(
                  eq(announcementDismissals.announcementId, announcements.id),
                  eq(announcementDismissals.userId, userId),
                ),
              ),
          ),
        ),
      )
      .orderBy(desc(announcements.startsAt));
  },

  async dismiss(db: Executor, announcementId: string, userId: string): Promise<void> {
    await db.insert(announcementDismissals).values({ announcementId, userId }).onConflictDoNothing();
  },
};
