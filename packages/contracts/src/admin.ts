import { z } from 'zod';
import { numberInput, text, withinRequestDates } from './fields.js';
import { tierNameOf } from './plans.js';

/** DESIGN §10: the admin session travels in this header, beside the bearer access token. */
export const ADMIN_SESSION_HEADER = 'X-Admin-Session';
/** An admin session lasts this long after its last admin call (ours: the spec leaves it open). */
export const ADMIN_SESSION_TTL_S = 30 * 60;

/** spec/01 §6: what a refused visit to /admin posts, and the one action anyone signed in may post. */
export const UNAUTHORIZED_ADMIN_ACCESS_ATTEMPT = 'unauthorized_admin_access_attempt';

/**
 * DESIGN §10, every refused attempt audited: an admin's call refused for its admin session
 * (`details.reason` one of adminSessionRefusalReasons; the session's value is never stored).
 */
export const ADMIN_SESSION_REFUSED = 'admin_session_refused';
export const adminSessionRefusalReasons = [
  /** No X-Admin-Session header. */
  'missing',
  /** Not the shape of a session token at all. */
  'malformed',
  /** The shape of one, but no session has it. */
  'unknown',
  'expired',
  /** Ended by Exit Admin Mode, the sign-in's logout, a suspension or the flag's revocation. */
  'ended',
  /** Another admin's session. */
  'other_user',
  /** The caller's own session, sent with another sign-in's access token. */
  'other_sign_in',
] as const;
export type AdminSessionRefusalReason = (typeof adminSessionRefusalReasons)[number];

/**
 * An admin act refused by its own rules (`details.attempted` the act's action, `details.reason` one of
 * adminActRefusalReasons), with its target.
 */
export const ADMIN_ACTION_REFUSED = 'admin_action_refused';
export const adminActRefusalReasons = ['own_account', 'target_is_admin', 'wrong_confirmation'] as const;
export type AdminActRefusalReason = (typeof adminActRefusalReasons)[number];

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
  withinRequestDates(
    z.iso
      .datetime({ offset: true, error: `${name} must be an ISO-8601 date and time` })
      .or(z.iso.date({ error: `${name} must be a date (YYYY-MM-DD) or an ISO-8601 date and time` })),
    name,
  );

/** Filters of the audit log: actor (id or part of the email), action, target, a date range. */
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
  page: numberInput(z.number().int().min(1)).default(1),
  per_page: numberInput(z.number().int().min(1).max(100)).default(50),
});
export type AuditLogQuery = z.infer<typeof auditLogQuerySchema>;

/** The most rows one CSV export holds; narrow the filters for more. */
export const AUDIT_EXPORT_MAX_ROWS = 10_000;

export const auditLogActionsSchema = z.object({ actions: z.array(z.string()) });

/** Users (issue 15): the back office's list, a user's whole picture, and what staff may do to them. */
export const adminUserStatuses = ['active', 'suspended'] as const;

export const adminUserQuerySchema = z.object({
  search: text().trim().max(200).optional(),
  tier: z
    .enum(['tier_free', 'tier_1', 'tier_2', 'tier_3'], { error: 'tier must be a plan identifier' })
    .optional(),
  status: z.enum(adminUserStatuses, { error: 'status must be active or suspended' }).optional(),
  admin: z.enum(['true', 'false'], { error: 'admin must be true or false' }).optional(),
  page: numberInput(z.number().int().min(1)).default(1),
  per_page: numberInput(z.number().int().min(1).max(100)).default(25),
});
export type AdminUserQuery = z.infer<typeof adminUserQuerySchema>;

export const adminUserSummarySchema = z.object({
  id: z.string(),
  email: z.string(),
  username: z.string(),
  admin: z.boolean(),
  tier: z.string(),
  subscription_status: z.string(),
  email_verified: z.boolean(),
  suspended_at: z.string().nullable(),
  suspended_reason: z.string().nullable(),
  created_at: z.string(),
  last_seen_at: z.string().nullable(),
});
export type AdminUserSummary = z.infer<typeof adminUserSummarySchema>;

/** A running sponsorship (patronage) on a user's admin page; `user` is the other side of it. */
export const adminSponsorshipSchema = z.object({
  id: z.string(),
  party_id: z.string(),
  party_name: z.string(),
  user_id: z.string(),
  username: z.string(),
  /** The plan granted in that party. */
  tier: z.string(),
  since: z.string(),
  /** The sponsor is suspended: the grant applies again once the suspension is lifted. */
  paused: z.boolean(),
});
export type AdminSponsorship = z.infer<typeof adminSponsorshipSchema>;

export const adminUserDetailSchema = z.object({
  user: adminUserSummarySchema,
  subscription: z.object({
    tier: z.string(),
    tier_name: z.string(),
    status: z.string(),
    provider: z.string().nullable(),
    current_period_end: z.string().nullable(),
    cancel_at_period_end: z.boolean(),
  }),
  parties: z.array(
    z.object({ id: z.string(), name: z.string(), role: z.string(), is_archived: z.boolean() }),
  ),
  characters: z.array(z.object({ id: z.string(), name: z.string(), party_id: z.string().nullable() })),
  /** Running sponsorships the user gives (`given`) and receives (`received`), newest first. */
  sponsorships: z.object({
    given: z.array(adminSponsorshipSchema),
    received: z.array(adminSponsorshipSchema),
  }),
  sessions: z.array(
    z.object({
      id: z.string(),
      created_at: z.string(),
      last_used_at: z.string(),
      ip_address: z.string().nullable(),
      user_agent: z.string().nullable(),
      /** The device in words ("Firefox on Windows"), as the owner's own Devices list names it. */
      device: z.string(),
      revoked_at: z.string().nullable(),
      revoked_reason: z.string().nullable(),
    }),
  ),
  recent_transactions: z.array(
    z.object({
      id: z.string(),
      transaction_type: z.string(),
      summary: z.string(),
      source: z.string(),
      transaction_date: z.string(),
    }),
  ),
});
export type AdminUserDetail = z.infer<typeof adminUserDetailSchema>;

export const adminSuspendBodySchema = z.object({
  reason: text().trim().min(1, 'Say why the account is suspended').max(500),
});
export type AdminSuspendBody = z.infer<typeof adminSuspendBodySchema>;

/** Deleting an account cannot be undone: the admin types the user's email to confirm it. */
export const adminDeleteUserBodySchema = z.object({
  confirm_email: text().trim().min(1, 'Type the user’s email to confirm').max(320),
});
export type AdminDeleteUserBody = z.infer<typeof adminDeleteUserBodySchema>;

export const adminDeletedUserSchema = z.object({
  id: z.string(),
  email: z.string(),
  parties_handed_over: z.array(z.object({ id: z.string(), name: z.string(), new_gm_id: z.string() })),
  parties_deleted: z.array(z.object({ id: z.string(), name: z.string() })),
  characters_deleted: z.number().int(),
  templates_kept: z.number().int(),
});
export type AdminDeletedUser = z.infer<typeof adminDeletedUserSchema>;

export const adminGrantTierBodySchema = z.object({
  tier_id: z.enum(['tier_free', 'tier_1', 'tier_2', 'tier_3'], {
    error: 'tier_id must be a plan identifier',
  }),
  reason: text().trim().min(1, 'Say why the plan is granted').max(500),
});
export type AdminGrantTierBody = z.infer<typeof adminGrantTierBodySchema>;

/**
 * What Grant plan did, for the answer and the toast. Free is no grant: it puts the user on Free with no
 * provider and no period, which takes away the plan they had here (a staff grant, or a demo or Stripe plan
 * as this app records it), so it is said as that removal.
 */
export function planGrantedMessage(granted: AdminGrantTierBody['tier_id'], previousTier: string): string {
  if (granted !== 'tier_free') return 'The plan is granted.';
  if (previousTier === 'tier_free') return 'The user is already on the Free plan.';
  return `The ${tierNameOf(previousTier)} plan is removed: the user is on the Free plan.`;
}

/** Sign-in refused for a suspended account (ours; the spec does not name it). */
export const accountSuspendedMessage =
  'This account has been suspended. Contact support if you think this is a mistake.';

/** Settings (issue 15): site-wide switches staff set at /admin/settings. */
export const siteSettingsSchema = z.object({
  maintenance_mode: z.boolean(),
  registration_open: z.boolean(),
});
export type SiteSettings = z.infer<typeof siteSettingsSchema>;
export const siteSettingsUpdateSchema = z.object({ settings: siteSettingsSchema.partial() });
export type SiteSettingsUpdate = z.infer<typeof siteSettingsUpdateSchema>;
/** spec/01 §8 general toast, and the message of the 503 writes get during maintenance. */
export const maintenanceModeMessage = 'System is in maintenance mode.';
export const registrationClosedMessage = 'Registration is closed: new accounts cannot be created right now.';
