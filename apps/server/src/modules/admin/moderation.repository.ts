import type { ReportTargetType } from '@haversack/contracts';
import { and, asc, count, desc, eq, inArray, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/client.js';
import { users } from '../../db/schema/accounts.js';
import { contentReports } from '../../db/schema/back-office.js';

export type ContentReportRow = typeof contentReports.$inferSelect;
type ReportStatus = ContentReportRow['status'];

const reporters = alias(users, 'reporters');

/** The only place that builds content report queries. */
export const moderationRepository = {
  /** Inserts an open report; undefined when this reporter already has one open on the target. */
  async insertOpen(
    db: Executor,
    row: { reporterId: string; targetType: ReportTargetType; targetId: string; reason: string },
  ): Promise<ContentReportRow | undefined> {
    const [inserted] = await db
      .insert(contentReports)
      .values(row)
      .onConflictDoNothing({
        target: [contentReports.reporterId, contentReports.targetType, contentReports.targetId],
        where: sql`${contentReports.status} = 'open'`,
      })
      .returning();
    return inserted;
  },

  async list(db: Executor, status: ReportStatus, page: { limit: number; offset: number }) {
    const openOnTarget = sql<number>`(select count(*)::int from content_reports o
      where o.target_type = ${contentReports.targetType} and o.target_id = ${contentReports.targetId}
        and o.status = 'open')`;
    const [rows, totals] = await Promise.all([
      db
        .select({ report: contentReports, reporterEmail: reporters.email, openOnTarget })
        .from(contentReports)
        .leftJoin(reporters, eq(reporters.id, contentReports.reporterId))
        .where(eq(contentReports.status, status))
        .orderBy(desc(contentReports.createdAt), desc(contentReports.id))
        .limit(page.limit)
        .offset(page.offset),
      db.select({ total: count() }).from(contentReports).where(eq(contentReports.status, status)),
    ]);
    return { rows, total: totals[0]?.total ?? 0 };
  },

  async find(db: Executor, id: string): Promise<ContentReportRow | undefined> {
    const [row] = await db.select().from(contentReports).where(eq(contentReports.id, id)).limit(1);
    return row;
  },

  async findForUpdate(tx: Executor, id: string): Promise<ContentReportRow | undefined> {
    const [row] = await tx
      .select()
      .from(contentReports)
      .where(eq(contentReports.id, id))
      .limit(1)
      .for('update');
    return row;
  },

  async resolve(tx: Executor, ids: string[], status: 'dismissed' | 'unpublished', by: string, at: Date) {
    if (ids.length === 0) return;
    await tx
      .update(contentReports)
      .set({ status, resolvedById: by, resolvedAt: at })
      .where(inArray(contentReports.id, ids));
  },

  /** Locked in id order, as every unpublish of the same content locks them (after the content itself). */
  async openOnTarget(tx: Executor, type: ReportTargetType, id: string): Promise<ContentReportRow[]> {
    return tx
      .select()
      .from(contentReports)
      .where(
        and(
          eq(contentReports.targetType, type),
          eq(contentReports.targetId, id),
          eq(contentReports.status, 'open'),
        ),
      )
      .orderBy(asc(contentReports.id))
      .for('update');
  },
};
