import {
  ADMIN_ACTION_REFUSED,
  ADMIN_SESSION_REFUSED,
  type AdminActRefusalReason,
  type AdminSessionRefusalReason,
} from '@haversack/contracts';

/** Readable names for the audit log's actions; an action without one shows as its words. */
const actionLabels: Record<string, string> = {
  unauthorized_admin_access_attempt: 'Refused admin access',
  [ADMIN_SESSION_REFUSED]: 'Refused admin session',
  [ADMIN_ACTION_REFUSED]: 'Refused admin action',
  admin_granted: 'Admin granted',
  admin_revoked: 'Admin revoked',
  admin_session_started: 'Entered admin mode',
  admin_session_ended: 'Exited admin mode',
  audit_log_exported: 'Audit log exported',
};

export function auditActionLabel(action: string): string {
  return actionLabels[action] ?? action.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());
}

/** Why a refused admin session or act was refused, finishing "Why refused: …". */
const refusalReasons: Record<AdminSessionRefusalReason | AdminActRefusalReason, string> = {
  missing: 'no admin session was sent',
  malformed: 'what was sent is not an admin session',
  unknown: 'no such admin session',
  expired: 'the admin session had expired',
  ended: 'the admin session had ended',
  other_user: 'another admin’s session',
  other_sign_in: 'an admin session of another sign-in',
  own_account: 'it is the admin’s own account',
  target_is_admin: 'the user is an admin',
  wrong_confirmation: 'the confirmation email was wrong',
};

/** The act an admin_action_refused entry names, finishing "Attempted: …". */
const attemptedActs: Record<string, string> = {
  user_suspended: 'suspend the account',
  user_deleted: 'delete the account',
};

/** For a refused admin session or act: what was attempted (an act) and why it was refused. */
export function auditRefusal(entry: {
  action: string;
  details: Record<string, unknown>;
}): { attempted: string | null; why: string } | null {
  if (entry.action !== ADMIN_SESSION_REFUSED && entry.action !== ADMIN_ACTION_REFUSED) return null;
  const { reason, attempted } = entry.details;
  const why =
    typeof reason === 'string' && Object.hasOwn(refusalReasons, reason)
      ? refusalReasons[reason as keyof typeof refusalReasons]
      : String(reason ?? 'unknown');
  if (entry.action === ADMIN_SESSION_REFUSED || typeof attempted !== 'string')
    return { attempted: null, why };
  return { attempted: attemptedActs[attempted] ?? auditActionLabel(attempted).toLowerCase(), why };
}

/** Refusals stand out in red, the rest of the log stays quiet. */
export function auditActionColor(action: string): string {
  if (action.startsWith('unauthorized') || action.includes('refused')) return 'red';
  if (action.startsWith('admin_session')) return 'gray';
  return 'blue';
}

/** Who acted: a person's email, or the command line for `npm run admin`. */
export function auditActorLabel(entry: { actor_id: string | null; actor_email: string | null }): string {
  if (entry.actor_email) return entry.actor_email;
  if (entry.actor_id) return entry.actor_id;
  return 'Command line';
}

/** What each kind of audit target is called; a type without one shows as its words. */
const targetTypeLabels: Record<string, string> = {
  user: 'User',
  admin_session: 'Admin session',
  admin_operation: 'Bulk operation',
  announcement: 'Announcement',
  setting: 'Setting',
  job: 'Background job',
  content_report: 'Report',
  item_template: 'Item template',
  shop_template: 'Shop template',
  loot_template: 'Loot template',
  party: 'Party',
};

export interface AuditTarget {
  /** The target's type in words. */
  type: string;
  /** The email, name, title or reason the entry carries for it, if any. */
  name: string | null;
  /** The raw id, for the record. */
  id: string | null;
  /** The target's admin page, where there is one. */
  href: string | null;
}

const firstText = (...values: unknown[]) =>
  values.find((value): value is string => typeof value === 'string' && value.trim() !== '') ?? null;

/** An entry's target, readable: its type in words, what the entry names it by, and its admin page. */
export function auditTarget(entry: {
  action: string;
  target_type: string | null;
  target_id: string | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  details: Record<string, unknown>;
}): AuditTarget | null {
  if (!entry.target_type) return null;
  const type =
    targetTypeLabels[entry.target_type] ??
    entry.target_type.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());
  const name = firstText(
    entry.details.email,
    entry.before?.email,
    entry.details.name,
    entry.after?.title,
    entry.before?.title,
    entry.details.kind,
    entry.details.reason,
  );
  // A deleted account has no admin page left to open.
  const href =
    entry.target_type === 'user' && entry.target_id && entry.action !== 'user_deleted'
      ? `/admin/users/${entry.target_id}`
      : null;
  return { type, name, id: entry.target_id, href };
}
