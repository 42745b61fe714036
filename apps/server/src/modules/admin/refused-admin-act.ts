import type { AdminActRefusalReason } from '@haversack/contracts';
import { AppError } from '../../lib/app-error.js';

/** An admin act refused by its own rules, as its audit entry (admin_action_refused) tells it. */
export interface AdminActRefusal {
  /** The act's own audit action: `user_suspended`, `user_deleted`. */
  attempted: string;
  reason: AdminActRefusalReason;
  targetType: string;
  targetId: string;
}

/**
 * How a service refuses an admin act (DESIGN §10: every refused attempt is audited). The caller gets
 * `error` unchanged; the admin plugin's onError hook writes the audit entry, outside the transaction the
 * refusal rolled back.
 */
export class RefusedAdminAct extends AppError {
  readonly refusal: AdminActRefusal;

  constructor(refusal: AdminActRefusal, error: AppError) {
    super(error.code, error.message, {
      ...(error.details ? { details: error.details } : {}),
      status: error.status,
    });
    this.refusal = refusal;
  }
}
