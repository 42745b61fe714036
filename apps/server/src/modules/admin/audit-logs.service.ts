import {
  AUDIT_EXPORT_MAX_ROWS,
  type AuditLogEntry,
  type AuditLogFilter,
  type AuditLogQuery,
  type PageMeta,
  UNAUTHORIZED_ADMIN_ACCESS_ATTEMPT,
} from '@haversack/contracts';
import type { Database } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import { CSV_BOM, csvSafeText } from '../../lib/csv.js';
import type { AuthenticatedUser } from '../accounts/accounts.service.js';
import { adminPageOf } from './admin-pages.js';
import type { RequestOrigin } from './admin-sessions.service.js';
import type { AuditEntry, AuditLog } from './audit-log.js';
import {
  type AuditLogRow,
  auditLogRepository,
  type AuditLogFilter as RepositoryFilter,
} from './audit-log.repository.js';

const bareDate = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 86_400_000;

/**
 * `from` and `to` are inclusive; a bare `to` date covers that whole UTC day. A `to` before `from` is
 * refused with 422, as analytics refuses it, rather than answered with an empty page that reads as "no
 * entries".
 */
function repositoryFilter(filter: AuditLogFilter): RepositoryFilter {
  const to = filter.to
    ? bareDate.test(filter.to)
      ? new Date(Date.parse(`${filter.to}T00:00:00Z`) + DAY_MS)
      : new Date(Date.parse(filter.to) + 1)
    : undefined;
  if (filter.from && to && Date.parse(filter.from) >= to.getTime())
    throw AppError.validation([{ field: 'to', message: 'to must not be before from' }]);
  return {
    ...(filter.actor ? { actor: filter.actor } : {}),
    ...(filter.action ? { action: filter.action } : {}),
    ...(filter.target_type ? { targetType: filter.target_type } : {}),
    ...(filter.target_id ? { targetId: filter.target_id } : {}),
    ...(filter.from ? { from: new Date(filter.from) } : {}),
    ...(to ? { to } : {}),
  };
}

export function toAuditLogJson(row: AuditLogRow): AuditLogEntry {
  return {
    id: row.id,
    actor_id: row.actorId,
    actor_email: row.actorEmail,
    action: row.action,
    target_type: row.targetType,
    target_id: row.targetId,
    before: row.before,
    after: row.after,
    details: row.details,
    ip_address: row.ipAddress,
    user_agent: row.userAgent,
    created_at: row.createdAt.toISOString(),
  };
}

const csvColumns = [
  'created_at',
  'actor_email',
  'actor_id',
  'action',
  'target_type',
  'target_id',
  'before',
  'after',
  'details',
  'ip_address',
  'user_agent',
] as const;

/**
 * One CSV field: always quoted, control characters as U+FFFD (`csvSafeText`), and a value a spreadsheet
 * would run as a formula (=, +, -, @, tab, CR) is prefixed with an apostrophe (OWASP "CSV injection").
 */
export function csvField(value: unknown): string {
  const text = csvSafeText(
    value === null || value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value),
  );
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return `"${safe.replace(/"/g, '""')}"`;
}

export class AuditLogsService {
  readonly #db: Database;
  readonly #audit: AuditLog;
  readonly #now: () => Date;
  readonly #reportWindowMs: number;

  /** `reportWindowMs`: a refused visit is recorded once per user and admin page in this long. */
  constructor(deps: { db: Database; audit: AuditLog; now: () => Date; reportWindowMs: number }) {
    this.#db = deps.db;
    this.#audit = deps.audit;
    this.#now = deps.now;
    this.#reportWindowMs = deps.reportWindowMs;
  }

  /**
   * spec/01 §6: a signed-in user turned away from /admin records the attempt, for themselves only. Once
   * per admin page (admin-pages.ts) and window, as the guard audits refused API calls: the table is
   * append-only, and anyone signed in may post here (an outside review). A report the window already
   * holds is answered with the entry that stands for it (`created: false`), so the web app sees no
   * difference.
   */
  async recordAttempt(
    auth: AuthenticatedUser,
    path: string,
    origin: RequestOrigin,
  ): Promise<{ entry: AuditLogEntry; created: boolean }> {
    const page = adminPageOf(path);
    return this.#db.transaction(async (tx) => {
      await auditLogRepository.lockReportsOf(tx, auth.user.id);
      const earlier = await auditLogRepository.latestReport(tx, {
        actorId: auth.user.id,
        action: UNAUTHORIZED_ADMIN_ACCESS_ATTEMPT,
        page,
        since: new Date(this.#now().getTime() - this.#reportWindowMs),
      });
      if (earlier) return { entry: toAuditLogJson(earlier), created: false };
      const row = await this.#audit.record(tx, {
        actorId: auth.user.id,
        actorEmail: auth.user.email,
        action: UNAUTHORIZED_ADMIN_ACCESS_ATTEMPT,
        details: { path, page, via: 'web' },
        ip: origin.ip,
        userAgent: origin.userAgent,
      });
      return { entry: toAuditLogJson(row), created: true };
    });
  }

  async list(query: AuditLogQuery): Promise<{ entries: AuditLogEntry[]; meta: PageMeta }> {
    const { rows, total } = await auditLogRepository.list(this.#db, repositoryFilter(query), {
      limit: query.per_page,
      offset: (query.page - 1) * query.per_page,
    });
    return {
      entries: rows.map(toAuditLogJson),
      meta: {
        current_page: query.page,
        per_page: query.per_page,
        total_count: total,
        total_pages: Math.max(1, Math.ceil(total / query.per_page)),
      },
    };
  }

  actions(): Promise<string[]> {
    return auditLogRepository.actions(this.#db);
  }

  /** The filtered entries as CSV, newest first, at most AUDIT_EXPORT_MAX_ROWS of them. */
  async exportCsv(
    filter: AuditLogFilter,
    actor: Pick<AuditEntry, 'actorId' | 'actorEmail' | 'ip' | 'userAgent'>,
  ): Promise<{ csv: string; rows: number; truncated: boolean }> {
    const { rows, total } = await auditLogRepository.list(this.#db, repositoryFilter(filter), {
      limit: AUDIT_EXPORT_MAX_ROWS,
      offset: 0,
    });
    // Who took a copy of the log, and of what, is itself worth knowing.
    await this.#audit.record(this.#db, {
      ...actor,
      action: 'audit_log_exported',
      details: { filter, rows: rows.length },
    });
    const lines = [csvColumns.join(',')];
    for (const row of rows.map(toAuditLogJson)) {
      lines.push(csvColumns.map((column) => csvField(row[column])).join(','));
    }
    return { csv: `${CSV_BOM}${lines.join('\r\n')}\r\n`, rows: rows.length, truncated: total > rows.length };
  }
}
