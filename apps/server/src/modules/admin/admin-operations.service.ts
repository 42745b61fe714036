import {
  type AdminOperation,
  type MassMailBody,
  massMailAudiences,
  templateBulkFilterSchema,
  tierIdentifiers,
  type UserBulkFilter,
  userBulkFilterSchema,
} from '@haversack/contracts';
import { z } from 'zod';
import type { Database, Executor } from '../../db/client.js';
import type { JobQueue, JobRow } from '../../jobs/job-queue.js';
import { AppError } from '../../lib/app-error.js';
import { escapeHtml, mailDocument, mailFootnote } from '../../lib/mail-html.js';
import type { MailQueue } from '../../lib/mail-queue.js';
import type { MailMessage } from '../../lib/mailer.js';
import type { SessionEndListener } from '../accounts/accounts.service.js';
import type { AnnouncementEmailLinks } from '../preferences/announcement-emails.js';
import { subscriptionsRepository } from '../subscriptions/subscriptions.repository.js';
import type { SubscriptionsService } from '../subscriptions/subscriptions.service.js';
import { type AdminCaller, auditActor } from './admin-guard.js';
import { type AdminOperationRow, adminOperationsRepository as repo } from './admin-operations.repository.js';
import { adminUserListRepository } from './admin-users.repository.js';
import type { AuditEntry, AuditLog } from './audit-log.js';
import { contentTargetsRepository } from './content-targets.repository.js';
import { suspendLockedUser } from './user-suspension.js';

export const ADMIN_OPERATION_JOB = 'admin_operation';
/** A mass mail's job: its batches are sent outside any transaction (registerDetached). */
export const MASS_MAIL_JOB = 'mass_mail';
/**
 * Rows per job run: each batch is one transaction (a mass mail batch is claimed in one, sent outside and
 * recorded in another), so progress moves and a crash loses one batch.
 */
export const ADMIN_OPERATION_BATCH = 25;
/**
 * With several processes on PostgreSQL, how long a mass mail batch being sent keeps the others off (as an
 * account mail's); the queue gives the batch up at half of it.
 */
export const MASS_MAIL_LEASE_MS = 2 * 60_000;
/**
 * A batch starts no further mail after this long, records what went and goes on in the next run: a slow
 * mail server makes batches smaller rather than outlast the queue's patience (MASS_MAIL_LEASE_MS / 2).
 */
const MASS_MAIL_SENDING_MS = MASS_MAIL_LEASE_MS / 4;
const RECENT_SHOWN = 20;
const FINISHED: readonly AdminOperationRow['status'][] = ['done', 'failed', 'cancelled'];
export const STOPPED_NOT_ADMIN = 'Stopped: the admin who started it is no longer an admin.';

/** What each kind of operation stores in `params` (checked again when a job reads it back). */
const operationParamsSchema = z.union([
  z.object({
    kind: z.literal('mass_mail'),
    audience: z.enum(massMailAudiences),
    subject: z.string(),
    body: z.string(),
    // Queued before users could turn announcement emails off: not a service notice.
    service_notice: z.boolean().default(false),
  }),
  z.object({
    kind: z.literal('bulk_users'),
    filter: userBulkFilterSchema,
    action: z.literal('change_tier'),
    tier: z.enum(tierIdentifiers),
  }),
  z.object({
    kind: z.literal('bulk_users'),
    filter: userBulkFilterSchema,
    action: z.literal('suspend'),
    reason: z.string(),
  }),
  z.object({
    kind: z.literal('bulk_templates'),
    filter: templateBulkFilterSchema,
    action: z.literal('unpublish'),
  }),
]);
export type OperationParams = z.infer<typeof operationParamsSchema>;
type MassMailParams = Extract<OperationParams, { kind: 'mass_mail' }>;
type BulkParams = Exclude<OperationParams, { kind: 'mass_mail' }>;
type OperationActor = Pick<AuditEntry, 'actorId' | 'actorEmail' | 'ip' | 'userAgent'>;

/** A batch of mass mail as claimed: the recipients, and the progress it was claimed at (to record after). */
interface MassMailBatch {
  operationId: string;
  processed: number;
  changed: number;
  cursor: string | null;
  recipients: { id: string; email: string }[];
  /** Whether recipients may remain after this batch (it was full and the count not reached). */
  more: boolean;
  params: MassMailParams;
}

/** The refusal of an operation that matches nobody, on the field that would have to change. */
function nothingToDo(params: OperationParams): { field: string; message: string } {
  if (params.kind === 'mass_mail')
    return {
      field: 'audience',
      message: 'Nobody in this audience would receive this mail: no mail would be sent.',
    };
  const what = params.kind === 'bulk_users' ? 'users' : 'templates';
  return { field: 'filter', message: `No ${what} match these filters: there is nothing to change.` };
}

export function toOperationJson(row: AdminOperationRow): AdminOperation {
  return {
    id: row.id,
    kind: row.kind,
    status: row.status,
    total: row.total,
    processed: row.processed,
    changed: row.changed,
    params: row.params,
    actor_email: row.actorEmail,
    last_error: row.lastError,
    created_at: row.createdAt.toISOString(),
    finished_at: row.finishedAt?.toISOString() ?? null,
  };
}

/** A mass mail's params as stored: `service_notice` always said, so that the audit log records it. */
export function massMailParams(body: MassMailBody): MassMailParams {
  return {
    kind: 'mass_mail',
    audience: body.audience,
    subject: body.subject,
    body: body.body,
    service_notice: body.service_notice === true,
  };
}

function mailFilter(audience: MassMailBody['audience']): UserBulkFilter {
  return audience === 'all' ? { status: 'active' } : { status: 'active', tier: audience };
}

/** Confirmed addresses only; of those who turned announcement emails off, none unless a service notice. */
function mailScope(params: MassMailParams) {
  return { mailable: true, wantsAnnouncements: !params.service_notice };
}

/** Content review, finding 9: a mass mail says who sends it and why its reader gets it, as account mails do. */
function massMailFooter(appUrl: string): string {
  return `From the Haversack team. You receive this because you have a Haversack account at ${appUrl}.`;
}

const SERVICE_NOTICE_LINE =
  'This is a service notice about your account: it goes to every account, even those that turned announcement emails off.';
const UNSUBSCRIBE_LABEL = 'Unsubscribe from announcements by email';

/**
 * One reader's mass mail: the footer ends with the reader's own unsubscribe link (it works signed out), and
 * List-Unsubscribe names the one-click POST (RFC 8058) that mail clients offer as their unsubscribe button.
 */
function massMailMessage(
  params: MassMailParams,
  appUrl: string,
  links: AnnouncementEmailLinks,
  userId: string,
  to: string,
): MailMessage {
  const footer = massMailFooter(appUrl);
  const page = links.pageUrl(userId);
  // Line ends as an API client may send them (CRLF, CR) count as the web form's LF: a blank line is a paragraph.
  const body = params.body.replace(/\r\n?/g, '\n');
  const paragraphs = escapeHtml(body).replace(/\n\n+/g, '</p><p>').replace(/\n/g, '<br>');
  const notice = params.service_notice ? [SERVICE_NOTICE_LINE] : [];
  const unsubscribe = `<p style="font-size:13px;color:#555"><a href="${escapeHtml(page)}" style="color:#555">${UNSUBSCRIBE_LABEL}</a></p>`;
  return {
    to,
    subject: params.subject,
    // "-- " (with its space) is the signature separator mail clients know, and fold or grey what follows.
    text: `${body}\n\n-- \n${[footer, ...notice, `${UNSUBSCRIBE_LABEL}: ${page}`].join('\n')}\n`,
    html: mailDocument(
      `<p>${paragraphs}</p>\n${[footer, ...notice].map(mailFootnote).join('\n')}\n${unsubscribe}`,
    ),
    headers: {
      'List-Unsubscribe': `<${links.oneClickUrl(userId)}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
  };
}

/**
 * Issue 15: mass mail and bulk operations run in the background on the durable job queue, one batch of
 * ADMIN_OPERATION_BATCH per job run; the row in admin_operations holds the cursor and the progress the
 * pages poll, so a restarted server carries on from the last committed batch.
 */
export class AdminOperationsService {
  readonly #db: Database;
  readonly #audit: AuditLog;
  readonly #jobs: JobQueue;
  readonly #mail: MailQueue;
  readonly #appUrl: string;
  readonly #links: AnnouncementEmailLinks;
  readonly #now: () => Date;
  readonly #sessions: SessionEndListener;
  readonly #subscriptions: Pick<SubscriptionsService, 'grantTier' | 'planChanged'>;

  constructor(deps: {
    db: Database;
    audit: AuditLog;
    jobs: JobQueue;
    mail: MailQueue;
    /** The site's address, named in a mass mail's footer. */
    appUrl: string;
    /** Each reader's unsubscribe link, in the footer and in List-Unsubscribe. */
    unsubscribeLinks: AnnouncementEmailLinks;
    sessions: SessionEndListener;
    subscriptions: Pick<SubscriptionsService, 'grantTier' | 'planChanged'>;
    now: () => Date;
  }) {
    this.#db = deps.db;
    this.#sessions = deps.sessions;
    this.#subscriptions = deps.subscriptions;
    this.#audit = deps.audit;
    this.#jobs = deps.jobs;
    this.#mail = deps.mail;
    this.#appUrl = deps.appUrl;
    this.#links = deps.unsubscribeLinks;
    this.#now = deps.now;
    deps.jobs.register(ADMIN_OPERATION_JOB, (tx, job, afterCommit) => this.#runBatch(tx, job, afterCommit));
    deps.jobs.registerDetached<MassMailBatch>(MASS_MAIL_JOB, {
      prepare: (tx, job) => this.#claimMails(tx, job),
      run: (batch) => this.#sendMails(batch),
      leaseMs: MASS_MAIL_LEASE_MS,
    });
  }

  async preview(params: OperationParams): Promise<number> {
    return this.#count(this.#db, params);
  }

  /**
   * Counts what it will act on, records the start (audited) and queues the first batch, in one transaction.
   * The same operation (kind and params) submitted again while one is queued or running is refused: two
   * would mail everyone twice, or split the rows between them and each finish half-full.
   */
  async start(caller: AdminCaller, params: OperationParams): Promise<AdminOperation> {
    return this.#db.transaction(async (tx) => {
      await repo.lockParams(tx, params);
      if (await repo.findUnfinished(tx, params.kind, params))
        throw new AppError('CONFLICT', 'The same operation is already running: wait for it to finish.');
      const total = await this.#count(tx, params);
      // The pages never offer it (their dry run says so first); a call that would do nothing leaves no
      // operation and no audit entry behind.
      if (total === 0) throw AppError.validation([nothingToDo(params)]);
      const actor = auditActor(caller);
      const row = await repo.insert(tx, {
        kind: params.kind,
        params,
        total,
        actorId: actor.actorId,
        actorEmail: actor.actorEmail ?? null,
        actorIp: actor.ip ?? null,
        actorUserAgent: actor.userAgent ?? null,
      });
      await this.#audit.record(tx, {
        ...actor,
        action: params.kind === 'mass_mail' ? 'mass_mail_started' : 'bulk_operation_started',
        targetType: 'admin_operation',
        targetId: row.id,
        after: { total },
        details: { ...params },
      });
      await this.#jobs.schedule(tx, {
        kind: params.kind === 'mass_mail' ? MASS_MAIL_JOB : ADMIN_OPERATION_JOB,
        key: `${ADMIN_OPERATION_JOB}:${row.id}`,
        runAt: this.#now(),
        payload: { operation_id: row.id },
      });
      return toOperationJson(row);
    });
  }

  async get(id: string): Promise<AdminOperation> {
    const row = await repo.find(this.#db, id);
    if (!row) throw AppError.notFound('That operation could not be found.');
    return toOperationJson(row);
  }

  async recent(kinds: AdminOperationRow['kind'][]): Promise<AdminOperation[]> {
    return (await repo.listRecent(this.#db, kinds, RECENT_SHOWN)).map(toOperationJson);
  }

  /**
   * Stops a queued or running operation before its next batch (audited). It waits for the row lock, so a
   * batch in progress finishes (its changes are counted) and no further batch starts. A mass mail batch
   * holds no lock while its mails go: the cancel is answered at once, and the batch's mails, sent, are
   * still counted when it ends.
   */
  async cancel(caller: AdminCaller, id: string): Promise<AdminOperation> {
    return this.#db.transaction(async (tx) => {
      const row = await repo.find(tx, id, { lock: true });
      if (!row) throw AppError.notFound('That operation could not be found.');
      if (FINISHED.includes(row.status))
        throw new AppError('CONFLICT', 'That operation has already finished.');
      const actor = auditActor(caller);
      const reason = `Cancelled by ${actor.actorEmail ?? 'an admin'}.`;
      const changes = { status: 'cancelled' as const, lastError: reason, finishedAt: this.#now() };
      await repo.update(tx, row.id, changes);
      await this.#audit.record(tx, {
        ...actor,
        action: 'admin_operation_cancelled',
        targetType: 'admin_operation',
        targetId: row.id,
        before: { status: row.status, processed: row.processed },
        after: { status: 'cancelled' },
        details: { kind: row.kind },
      });
      return toOperationJson({ ...row, ...changes });
    });
  }

  async #count(db: Executor, params: OperationParams): Promise<number> {
    if (params.kind === 'mass_mail')
      return repo.countUsers(db, mailFilter(params.audience), mailScope(params));
    if (params.kind === 'bulk_users')
      return repo.countUsers(db, params.filter, { suspendable: params.action === 'suspend' });
    return repo.countTemplates(db, params.filter);
  }

  /**
   * Locks the job's operation, unless it has finished or its admin is no longer one (then it is stopped,
   * audited): the start of every batch, in the job's transaction.
   */
  async #lockRunnable(
    tx: Executor,
    job: JobRow,
  ): Promise<{ operation: AdminOperationRow; params: OperationParams } | undefined> {
    const id = job.payload.operation_id;
    if (typeof id !== 'string') return undefined;
    const operation = await repo.find(tx, id, { lock: true });
    if (!operation || FINISHED.includes(operation.status)) return undefined;
    // The job acts with its admin's authority: once the flag is revoked (or the account suspended) it stops.
    if (!(await repo.isActiveAdmin(tx, operation.actorId))) {
      await repo.update(tx, operation.id, {
        status: 'cancelled',
        lastError: STOPPED_NOT_ADMIN,
        finishedAt: this.#now(),
      });
      await this.#audit.record(tx, {
        actorId: null,
        action: 'admin_operation_stopped',
        targetType: 'admin_operation',
        targetId: operation.id,
        before: { status: operation.status, processed: operation.processed },
        after: { status: 'cancelled' },
        details: { kind: operation.kind, reason: 'actor_not_admin', started_by: operation.actorEmail },
      });
      return undefined;
    }
    return { operation, params: operationParamsSchema.parse(operation.params) };
  }

  /** One batch; answers `now` to be run again at once while rows remain, nothing when finished. */
  async #runBatch(
    tx: Executor,
    job: JobRow,
    afterCommit: (fn: () => void) => void,
  ): Promise<Date | undefined> {
    const runnable = await this.#lockRunnable(tx, job);
    if (!runnable) return undefined;
    const { operation, params } = runnable;
    if (params.kind === 'mass_mail') {
      // Queued before mass mail had its own job (sent outside the transaction): handed over to it.
      const now = this.#now();
      await this.#jobs.schedule(tx, { kind: MASS_MAIL_JOB, key: job.key, runAt: now, payload: job.payload });
      return now;
    }
    const actor: OperationActor = {
      actorId: operation.actorId,
      actorEmail: operation.actorEmail,
      ip: operation.actorIp,
      userAgent: operation.actorUserAgent,
    };
    // Never past the count the admin confirmed, whatever has come to match since.
    const limit = Math.max(0, Math.min(ADMIN_OPERATION_BATCH, operation.total - operation.processed));
    const { handled, changed, last } =
      limit === 0
        ? { handled: 0, changed: 0, last: undefined }
        : await this.#batch(tx, operation, params, limit, actor, afterCommit);
    const finished = handled < limit || limit === 0 || operation.processed + handled >= operation.total;
    const now = this.#now();
    await repo.update(tx, operation.id, {
      status: finished ? 'done' : 'running',
      processed: operation.processed + handled,
      changed: operation.changed + changed,
      cursor: last ?? operation.cursor,
      ...(finished ? { finishedAt: now } : {}),
    });
    return finished ? undefined : now;
  }

  async #batch(
    tx: Executor,
    operation: AdminOperationRow,
    params: BulkParams,
    limit: number,
    actor: OperationActor,
    afterCommit: (fn: () => void) => void,
  ): Promise<{ handled: number; changed: number; last: string | undefined }> {
    if (params.kind === 'bulk_templates') {
      const rows = await repo.templatesAfter(tx, params.filter, operation.cursor, limit);
      let changed = 0;
      for (const { id } of rows) {
        // Checked again on the locked row: Haversack's own catalogue is never unpublished (it has no owner
        // to publish it again), whatever the filter matched.
        const target = await contentTargetsRepository.find(tx, params.filter.kind, id);
        if (!target || target.isSystem || !target.isPublic) continue;
        const before = await contentTargetsRepository.makePrivate(tx, params.filter.kind, id);
        if (!before) continue;
        changed += 1;
        await this.#audit.record(tx, {
          ...actor,
          action: 'content_unpublished',
          targetType: params.filter.kind,
          targetId: id,
          before: { visibility: before.visibility },
          after: { visibility: 'private' },
          details: { operation_id: operation.id, name: before.name, owner_id: before.ownerId },
        });
      }
      return { handled: rows.length, changed, last: rows.at(-1)?.id };
    }

    const suspending = params.action === 'suspend';
    const rows = await repo.usersAfter(tx, params.filter, operation.cursor, limit, {
      suspendable: suspending,
      signedUpBy: operation.createdAt,
    });
    let changed = 0;
    for (const user of rows) {
      if (params.action === 'suspend') {
        if (await this.#suspend(tx, user.id, params, actor, operation.id, afterCommit)) changed += 1;
      } else if (await this.#changeTier(tx, user.id, params, actor, operation.id, afterCommit)) {
        changed += 1;
      }
    }
    return { handled: rows.length, changed, last: rows.at(-1)?.id };
  }

  /**
   * A mass mail batch's claim, in the job's transaction: the next recipients after the cursor (confirmed
   * addresses of active users who still want announcement emails, unless it is a service notice; never
   * past the count the admin confirmed). Who turned them off since the count is skipped. Nothing is recorded but the
   * status: the mails go after the commit (#sendMails), which records them.
   */
  async #claimMails(tx: Executor, job: JobRow): Promise<MassMailBatch | undefined> {
    const runnable = await this.#lockRunnable(tx, job);
    if (!runnable) return undefined;
    const { operation, params } = runnable;
    if (params.kind !== 'mass_mail') throw new Error(`a ${params.kind} operation in a mass mail job`);
    const limit = Math.max(0, Math.min(ADMIN_OPERATION_BATCH, operation.total - operation.processed));
    const recipients =
      limit === 0
        ? []
        : await repo.usersAfter(tx, mailFilter(params.audience), operation.cursor, limit, {
            ...mailScope(params),
            signedUpBy: operation.createdAt,
          });
    if (recipients.length === 0) {
      await repo.update(tx, operation.id, { status: 'done', finishedAt: this.#now() });
      return undefined;
    }
    if (operation.status === 'queued') await repo.update(tx, operation.id, { status: 'running' });
    return {
      operationId: operation.id,
      processed: operation.processed,
      changed: operation.changed,
      cursor: operation.cursor,
      recipients: recipients.map(({ id, email }) => ({ id, email })),
      more: recipients.length === limit && operation.processed + recipients.length < operation.total,
      params,
    };
  }

  /**
   * Sends a claimed batch outside any transaction, then records what went. What was sent is recorded even
   * when a send fails (then the job fails, and its retry goes on from the first unsent); a process that dies
   * first records nothing, so the next one sends the whole batch again: a mail may go twice, none is
   * skipped (docs/decisions.md, "Mass mail and bulk operations").
   */
  async #sendMails(batch: MassMailBatch): Promise<Date | undefined> {
    const started = performance.now();
    let sent = 0;
    let failure: unknown;
    for (const recipient of batch.recipients) {
      if (sent > 0 && performance.now() - started > MASS_MAIL_SENDING_MS) break;
      try {
        await this.#mail.sendNow(
          massMailMessage(batch.params, this.#appUrl, this.#links, recipient.id, recipient.email),
        );
      } catch (error) {
        failure = error;
        break;
      }
      sent += 1;
    }
    const next = sent > 0 ? await this.#recordMails(batch, sent) : undefined;
    if (failure !== undefined) throw failure;
    return next;
  }

  /** Adds the mails sent to the progress; answers when to send the next batch, if any. */
  async #recordMails(batch: MassMailBatch, sent: number): Promise<Date | undefined> {
    return this.#db.transaction(async (tx) => {
      const operation = await repo.find(tx, batch.operationId, { lock: true });
      if (!operation) return undefined;
      if (operation.processed !== batch.processed || operation.cursor !== batch.cursor) {
        // Another process took the batch over (this one outlasted its lease) and recorded it: its record
        // stands. Failed rather than done, so that the job is left to carry the operation on.
        if (FINISHED.includes(operation.status)) return undefined;
        throw new Error('another process sent this batch meanwhile; the job goes on from its record');
      }
      const finished = sent === batch.recipients.length && !batch.more;
      const running = !FINISHED.includes(operation.status);
      await repo.update(tx, operation.id, {
        processed: batch.processed + sent,
        changed: batch.changed + sent,
        cursor: batch.recipients[sent - 1]?.id ?? batch.cursor,
        // Cancelled meanwhile: the mails already sent are counted, the cancel stands.
        ...(running && finished ? { status: 'done' as const, finishedAt: this.#now() } : {}),
      });
      return running && !finished ? this.#now() : undefined;
    });
  }

  /**
   * The Users page's suspension, for one user of the batch: admins are never suspended (checked again
   * under the lock, as the flag may have changed since the count, and so is the filter); sockets close
   * after the commit.
   */
  async #suspend(
    tx: Executor,
    userId: string,
    params: Extract<BulkParams, { action: 'suspend' }>,
    actor: OperationActor,
    operationId: string,
    afterCommit: (fn: () => void) => void,
  ): Promise<boolean> {
    const user = await adminUserListRepository.lockUser(tx, userId);
    if (!user || user.admin || user.suspendedAt || user.id === actor.actorId) return false;
    if (!(await repo.userMatches(tx, params.filter, userId))) return false;
    const ended = await suspendLockedUser(tx, this.#audit, {
      actor,
      user,
      reason: params.reason,
      now: this.#now(),
      details: { operation_id: operationId },
    });
    if (ended.length > 0) afterCommit(() => this.#sessions.sessionsEnded(userId, ended));
    return true;
  }

  /**
   * Puts the user on `tier` as the Users page's Grant plan does (SubscriptionsService.grantTier: no billing
   * provider, no period end), so that it reads as granted by staff; the local provider this once wrote is
   * demo billing's, which the dashboard and the user's page then named it. Audited. The filter is checked
   * again once the user's rows are locked: a user of a "Free users" change who bought a plan since the
   * batch read them keeps the plan they bought.
   */
  async #changeTier(
    tx: Executor,
    userId: string,
    params: Extract<BulkParams, { action: 'change_tier' }>,
    actor: OperationActor,
    operationId: string,
    afterCommit: (fn: () => void) => void,
  ): Promise<boolean> {
    const { tier } = params;
    const found = await subscriptionsRepository.findByUser(tx, userId, { lock: true });
    if (!found || found.tier.identifier === tier) return false;
    if (!(await repo.userMatches(tx, params.filter, userId))) return false;
    const change = await this.#subscriptions.grantTier(tx, userId, tier);
    await this.#audit.record(tx, {
      ...actor,
      action: 'user_tier_changed',
      targetType: 'user',
      targetId: userId,
      before: change.before,
      after: change.after,
      details: { operation_id: operationId, without_payment: true },
    });
    // planChanged logs its own failures; the change stands regardless.
    afterCommit(() => void this.#subscriptions.planChanged(userId));
    return true;
  }
}
