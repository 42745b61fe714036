/** Readable names for the audit log's actions; an action without one shows as its words. */
const actionLabels: Record<string, string> = {
  unauthorized_admin_access_attempt: 'Refused admin access',
  admin_granted: 'Admin granted',
  admin_revoked: 'Admin revoked',
  admin_session_started: 'Entered admin mode',
  admin_session_ended: 'Exited admin mode',
  audit_log_exported: 'Audit log exported',
};

export function auditActionLabel(action: string): string {
  return actionLabels[action] ?? action.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());
}

/** Refusals stand out in red, the rest of the log stays quiet. */
export function auditActionColor(action: string): string {
  if (action.startsWith('unauthorized') || action.includes('refused')) return 'red';
  if (action.startsWith('admin_session')) return 'gray';
  return 'blue';
}

/** Who acted: a person's e-mail, or the command line for `npm run admin`. */
export function auditActorLabel(entry: { actor_id: string | null; actor_email: string | null }): string {
  if (entry.actor_email) return entry.actor_email;
  if (entry.actor_id) return entry.actor_id;
  return 'Command line';
}
