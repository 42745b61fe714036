import { and, count, desc, eq, gte, ilike, lt, or, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { auditLogs } from '../../db/schema/admin.js';
import { likeContaining } from '../../lib/like-pattern.js';

export type AuditLogRow = typeof auditLogs.$inferSelect;
export type NewAuditLogRow = typeof auditLogs.$inferInsert;

export interface AuditLogFilter {
  /** An actor's id, or part of the email they had at the time. */
  actor?: string;
  action?: string;
  targetType?: string;
  targetId?: string;
  from?: Date;
  /** Exclusive. */
  to?: Date;
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function whereOf(filter: AuditLogFilter): SQL | undefined {
  const actor = filter.actor?.trim();
  return and(
    actor
      ? uuidPattern.test(actor)
        ? eq(auditLogs.actorId, actor)
        : ilike(auditLogs.actorEmail, likeContaining(actor))
      : undefined,
    filter.action ? eq(auditLogs.action, filter.action) : undefined,
    filter.targetType ? eq(auditLogs.targetType, filter.targetType) : undefined,
    filter.targetId ? eq(auditLogs.targetId, filter.targetId) : undefined,
    filter.from ? gte(auditLogs.createdAt, filter.from) : undefined,
    filter.to ? lt(auditLogs.createdAt, filter.to) : undefined,
  );
}

/**
 * The only place that builds audit log queries. Append-only by construction: there is an insert and
 * there are reads, nothing else (and the database refuses UPDATE and DELETE, migration 0012).
 */
export const auditLogRepository = {
  async insert(db: Executor, row: NewAuditLogRow): Promise<AuditLogRow> {
    const [inserted] = await db.insert(auditLogs).values(row).returning();
    if (!inserted) throw new Error('insert audit_logs returned nothing');
    return inserted;
  },

  async list(
    db: Executor,
    filter: AuditLogFilter,
    page: { limit: number; offset: number },
  ): Promise<{ rows: AuditLogRow[]; total: number }> {
    const where = whereOf(filter);
    const [rows, totals] = await Promise.all([
      db
        .select()
        .from(auditLogs)
        .where(where)
        .orderBy(desc(auditLogs.createdAt), desc(auditLogs.id))
        .limit(page.limit)
        .offset(page.offset),
      db.select({ total: count() }).from(auditLogs).where(where),
    ]);
    return { rows, total: totals[0]?.total ?? 0 };
  },

  /** The actions seen so far, for the filter's choices. */
  async actions(db: Executor): Promise<string[]> {
    const rows = await db
      .selectDistinct({ action: auditLogs.action })
      .from(auditLogs)
      .orderBy(auditLogs.action)
      .limit(500);
    return rows.map((row) => row.action);
  },

  /**
   * Holds off another report of the same user until this transaction ends, so that reports sent at the
   * same moment see each other's entry (AuditLogsService.recordAttempt).
   */
  async lockReportsOf(db: Executor, actorId: string): Promise<void> {
    await db.execute(sql`select pg_advisory_xact_lock(hashtext(${`audit-report:${actorId}`}))`);
  },

  /** The newest refused visit this user reported from the web app for `page` since `since`. */
  async latestReport(
    db: Executor,
    report: { actorId: string; action: string; page: string; since: Date },
  ): Promise<AuditLogRow | undefined> {
    const [row] = await db
      .select()
      .from(auditLogs)
      .where(
        and(
          eq(auditLogs.actorId, report.actorId),
          gte(auditLogs.createdAt, report.since),
          eq(auditLogs.action, report.action),
          sql`${auditLogs.details}->>'via' = 'web'`,
          sql`${auditLogs.details}->>'page' = ${report.page}`,
        ),
      )
      .orderBy(desc(auditLogs.createdAt))
      .limit(1);
    return row;
  },

  /** Test and support helper: entries naming one target or actor, newest first. */
  async forSubject(db: Executor, id: string): Promise<AuditLogRow[]> {
    return db
      .select()
      .from(auditLogs)
      .where(or(eq(auditLogs.actorId, id), eq(auditLogs.targetId, id)))
      .orderBy(desc(auditLogs.createdAt), sql`${auditLogs.id} desc`);
  },
};
