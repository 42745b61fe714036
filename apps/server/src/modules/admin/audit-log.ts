import type { Executor } from '../../db/client.js';
import { type AuditLogRow, auditLogRepository } from './audit-log.repository.js';

/** One audit entry: who did what to which thing, what it was and became, and from where. */
export interface AuditEntry {
  /** Null when no signed-in person acted (the `npm run admin` command). */
  actorId: string | null;
  actorEmail?: string | null;
  action: string;
  targetType?: string | null;
  targetId?: string | null;
  /** The changed fields as they were, where something changes. */
  before?: Record<string, unknown> | null;
  /** The changed fields as they became. */
  after?: Record<string, unknown> | null;
  /** Anything else worth keeping (the refused path, a reason). */
  details?: Record<string, unknown>;
  ip?: string | null;
  userAgent?: string | null;
}

const MAX_USER_AGENT = 500;

/**
 * DESIGN §10: every admin act and every refused attempt is written here. Record inside the transaction
 * of the change it describes, so an entry exists exactly when the change does.
 */
export class AuditLog {
  async record(tx: Executor, entry: AuditEntry): Promise<AuditLogRow> {
    return auditLogRepository.insert(tx, {
      actorId: entry.actorId,
      actorEmail: entry.actorEmail ?? null,
      action: entry.action,
      targetType: entry.targetType ?? null,
      targetId: entry.targetId ?? null,
      before: entry.before ?? null,
      after: entry.after ?? null,
      details: entry.details ?? {},
      ipAddress: entry.ip ?? null,
      userAgent: entry.userAgent?.slice(0, MAX_USER_AGENT) ?? null,
    });
  }
}
