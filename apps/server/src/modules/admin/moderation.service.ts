import {
  type AdminReport,
  type CreateReportBody,
  type PageMeta,
  REPORT_EXCERPT_MAX,
  type Report,
} from '@haversack/contracts';
import type { Database } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import type { AuthenticatedUser } from '../accounts/accounts.service.js';
import { type AdminCaller, auditActor } from './admin-guard.js';
import type { AuditLog } from './audit-log.js';
import { contentTargetsRepository } from './content-targets.repository.js';
import { type ContentReportRow, moderationRepository } from './moderation.repository.js';

const catalogueNotReportable =
  "This is part of Haversack's own catalogue, which cannot be reported or unpublished.";

function toReportJson(row: ContentReportRow): Report {
  return {
    id: row.id,
    target_type: row.targetType,
    target_id: row.targetId,
    reason: row.reason,
    status: row.status,
    created_at: row.createdAt.toISOString(),
  };
}

/**
 * The start of a description for a moderation card. Cut by code points, so that an emoji at the edge is
 * kept whole rather than left as half a surrogate pair.
 */
export function reportExcerpt(description: string | undefined): string | null {
  const characters = Array.from(description?.trim() ?? '');
  if (characters.length === 0) return null;
  if (characters.length <= REPORT_EXCERPT_MAX) return characters.join('');
  return `${characters.slice(0, REPORT_EXCERPT_MAX).join('').trimEnd()}…`;
}

/** Issue 15 Moderation: anyone signed in reports public content; staff dismiss or unpublish. */
export class ModerationService {
  readonly #db: Database;
  readonly #audit: AuditLog;
  readonly #now: () => Date;

  constructor(deps: { db: Database; audit: AuditLog; now: () => Date }) {
    this.#db = deps.db;
    this.#audit = deps.audit;
    this.#now = deps.now;
  }

  /** Only public content can be reported (what is private is nobody else's to see). */
  async report(auth: AuthenticatedUser, body: CreateReportBody): Promise<Report> {
    const target = await contentTargetsRepository.find(this.#db, body.target_type, body.target_id);
    if (!target?.isPublic) throw AppError.notFound();
    if (target.isSystem) throw AppError.validation([{ field: 'target_id', message: catalogueNotReportable }]);
    const row = await moderationRepository.insertOpen(this.#db, {
      reporterId: auth.user.id,
      targetType: body.target_type,
      targetId: body.target_id,
      reason: body.reason,
    });
    if (!row) throw new AppError('CONFLICT', 'You have already reported this; staff will look at it.');
    return toReportJson(row);
  }

  async list(
    status: ContentReportRow['status'],
    page: number,
    perPage: number,
  ): Promise<{ reports: AdminReport[]; meta: PageMeta }> {
    const { rows, total } = await moderationRepository.list(this.#db, status, {
      limit: perPage,
      offset: (page - 1) * perPage,
    });
    const reports = await Promise.all(
      rows.map(async ({ report, reporterEmail, openOnTarget }) => {
        const target = await contentTargetsRepository.find(this.#db, report.targetType, report.targetId);
        return {
          ...toReportJson(report),
          reporter_email: reporterEmail,
          target_name: target?.name ?? null,
          target_excerpt: reportExcerpt(target?.description),
          target_owner_email: target?.ownerEmail ?? null,
          target_public: target?.isPublic ?? false,
          open_reports_on_target: openOnTarget,
          resolved_at: report.resolvedAt?.toISOString() ?? null,
        };
      }),
    );
    return {
      reports,
      meta: {
        current_page: page,
        per_page: perPage,
        total_count: total,
        total_pages: Math.max(1, Math.ceil(total / perPage)),
      },
    };
  }

  async dismiss(caller: AdminCaller, reportId: string): Promise<Report> {
    return this.#db.transaction(async (tx) => {
      const report = await moderationRepository.findForUpdate(tx, reportId);
      if (!report) throw AppError.notFound('That report could not be found.');
      if (report.status !== 'open') throw new AppError('CONFLICT', 'That report has already been handled.');
      const now = this.#now();
      await moderationRepository.resolve(tx, [report.id], 'dismissed', caller.user.id, now);
      await this.#audit.record(tx, {
        ...auditActor(caller),
        action: 'report_dismissed',
        targetType: 'content_report',
        targetId: report.id,
        before: { status: 'open' },
        after: { status: 'dismissed' },
        details: { content_type: report.targetType, content_id: report.targetId, reason: report.reason },
      });
      return toReportJson({ ...report, status: 'dismissed', resolvedAt: now });
    });
  }

  /**
   * Makes the reported content private (the owner keeps it) and closes every open report on it; the
   * audit entry names the content with its visibility before and after.
   */
  async unpublish(caller: AdminCaller, reportId: string): Promise<Report> {
    return this.#db.transaction(async (tx) => {
      // The content first, then the reports: an unpublish closes every open report on the content, so two
      // of them, each holding its own report first, waited for each other and PostgreSQL ended one. A
      // report's target never changes, so it is read before anything is locked.
      const reported = await moderationRepository.find(tx, reportId);
      if (!reported) throw AppError.notFound('That report could not be found.');
      await contentTargetsRepository.lockForUpdate(tx, reported.targetType, reported.targetId);
      const report = await moderationRepository.findForUpdate(tx, reportId);
      if (!report) throw AppError.notFound('That report could not be found.');
      if (report.status !== 'open') throw new AppError('CONFLICT', 'That report has already been handled.');
      const target = await contentTargetsRepository.find(tx, report.targetType, report.targetId);
      if (!target) throw AppError.notFound('The reported content no longer exists; dismiss the report.');
      // A report made before this rule: unpublishing a coin would take it from every inventory's reach.
      if (target.isSystem) throw new AppError('CONFLICT', `${catalogueNotReportable} Dismiss the report.`);
      const before = await contentTargetsRepository.makePrivate(tx, report.targetType, report.targetId);
      if (!before) throw AppError.notFound('The reported content no longer exists; dismiss the report.');
      const open = await moderationRepository.openOnTarget(tx, report.targetType, report.targetId);
      const now = this.#now();
      await moderationRepository.resolve(
        tx,
        open.map((r) => r.id),
        'unpublished',
        caller.user.id,
        now,
      );
      await this.#audit.record(tx, {
        ...auditActor(caller),
        action: 'content_unpublished',
        targetType: report.targetType,
        targetId: report.targetId,
        before:
          report.targetType === 'party' ? { is_public: before.isPublic } : { visibility: before.visibility },
        after: report.targetType === 'party' ? { is_public: false } : { visibility: 'private' },
        details: {
          report_id: report.id,
          reports_closed: open.length,
          name: before.name,
          owner_id: before.ownerId,
        },
      });
      return toReportJson({ ...report, status: 'unpublished', resolvedAt: now });
    });
  }
}
