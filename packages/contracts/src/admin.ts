import { z } from 'zod';
import { text } from './fields.js';

/** DESIGN §10: the admin session travels in this header, beside the bearer access token. */
export const ADMIN_SESSION_HEADER = 'X-Admin-Session';
/** An admin session lasts this long after its last admin call (ours: the spec leaves it open). */
export const ADMIN_SESSION_TTL_S = 30 * 60;

/** spec/01 §6: what a refused visit to /admin posts, and the one action anyone signed in may post. */
export const UNAUTHORIZED_ADMIN_ACCESS_ATTEMPT = 'unauthorized_admin_access_attempt';

export const adminSessionSchema = z.object({
  token: z.string(),
  expires_at: z.string(),
});
export type AdminSession = z.infer<typeof adminSessionSchema>;

/** spec/01 §7 GET /admin/sessions/verify: valid, and until when (an invalid session is a 401). */
export const adminSessionVerificationSchema = z.object({
  valid: z.literal(true),
  expires_at: z.string(),
});
export type AdminSessionVerification = z.infer<typeof adminSessionVerificationSchema>;

/** spec/01 §7 POST /admin/audit_logs with action and path. */
export const auditAttemptBodySchema = z.object({
  action: z.literal(UNAUTHORIZED_ADMIN_ACCESS_ATTEMPT, {
    error: `action must be ${UNAUTHORIZED_ADMIN_ACCESS_ATTEMPT}`,
  }),
  path: text().trim().min(1).max(2000),
});
export type AuditAttemptBody = z.infer<typeof auditAttemptBodySchema>;

export const auditLogEntrySchema = z.object({
  id: z.string(),
  actor_id: z.string().nullable(),
  actor_email: z.string().nullable(),
  action: z.string(),
  target_type: z.string().nullable(),
  target_id: z.string().nullable(),
  before: z.record(z.string(), z.unknown()).nullable(),
  after: z.record(z.string(), z.unknown()).nullable(),
  details: z.record(z.string(), z.unknown()),
  ip_address: z.string().nullable(),
  user_agent: z.string().nullable(),
  created_at: z.string(),
});
export type AuditLogEntry = z.infer<typeof auditLogEntrySchema>;

const dateTimeParam = (name: string) =>
  z.iso
    .datetime({ offset: true, error: `${name} must be an ISO-8601 date and time` })
    .or(z.iso.date({ error: `${name} must be a date (YYYY-MM-DD) or an ISO-8601 date and time` }));

/** Filters of the audit log: actor (id or part of the e-mail), action, target, a date range. */
export const auditLogFilterSchema = z.object({
  actor: text().trim().max(320).optional(),
  action: text().trim().max(100).optional(),
  target_type: text().trim().max(50).optional(),
  target_id: text().trim().max(100).optional(),
  /** Inclusive; a bare date means its start (UTC). */
  from: dateTimeParam('from').optional(),
  /** Inclusive; a bare date means the whole of that day (UTC). */
  to: dateTimeParam('to').optional(),
});
export type AuditLogFilter = z.infer<typeof auditLogFilterSchema>;

export const auditLogQuerySchema = auditLogFilterSchema.extend({
  page: z.coerce.number().int().min(1).default(1),
  per_page: z.coerce.number().int().min(1).max(100).default(50),
});
export type AuditLogQuery = z.infer<typeof auditLogQuerySchema>;

/** The most rows one CSV export holds; narrow the filters for more. */
export const AUDIT_EXPORT_MAX_ROWS = 10_000;

export const auditLogActionsSchema = z.object({ actions: z.array(z.string()) });
