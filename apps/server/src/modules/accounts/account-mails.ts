import { createHmac, randomUUID } from 'node:crypto';
import type { Executor } from '../../db/client.js';
import type { JobQueue, JobRow } from '../../jobs/job-queue.js';
import type { MailQueue } from '../../lib/mail-queue.js';
import type { MailMessage } from '../../lib/mailer.js';
import { hashToken } from '../../lib/secrets.js';
import {
  emailChangedMail,
  passwordResetMail,
  type VerificationOccasion,
  verificationMail,
} from './accounts.mail.js';
import { accountsRepository as repo } from './accounts.repository.js';

export const ACCOUNT_MAIL_JOB = 'account_mail';

/**
 * How long a claimed account mail is kept from every other poll while it is handed over (the queue gives
 * the send up at half of it). A process that dies mid-send leaves the mail to go again when it ends.
 */
export const ACCOUNT_MAIL_LEASE_MS = 2 * 60_000;

/** What an account mail's job holds: the id of its link's row, never the link. */
export interface AccountMailPayload {
  email_token_id: string;
  /** The undo mail only: the address the account moved to, as it was when the change was made. */
  new_email?: string;
  /** A verification mail only: why it is mailed (absent in jobs queued before it was kept). */
  occasion?: Exclude<VerificationOccasion, 'resend'>;
  /** A reset mail only: an administrator sent it (Admin → Users), not the account's owner. */
  sent_by_admin?: true;
}

/**
 * Account mails (verification, password reset, the undo link of an email change) are jobs on the durable
 * queue, written in the transaction that stores their link: a request rolled back mails nothing, one
 * committed mails at least once, even if the process dies before the mail left (F2 of the crash review).
 *
 * The job holds no credential. A link's token is an HMAC of its `email_tokens` row's id under a key derived
 * from the server's secret (JWT_SECRET or DATA_DIR/jwt-secret), and the row keeps only its hash, as before:
 * the worker rebuilds the link from the id, and a copy of the database alone yields no usable link. The job
 * is sent after the commit by the process that queued it (`sendSoon`), outside any transaction (a slow SMTP
 * server must not hold PGlite's one connection), and deleted once sent; a failed send is retried as any job
 * and shows on the Background Jobs page; a link used, expired or superseded by then is not mailed.
 */
export class AccountMails {
  readonly #jobs: JobQueue;
  readonly #appUrl: string;
  readonly #linkKey: Buffer;
  readonly #now: () => Date;

  constructor(deps: {
    jobs: JobQueue;
    mail: Pick<MailQueue, 'sendNow'>;
    appUrl: string;
    /** The server's secret; links are keyed by a key derived from it, never by the secret itself. */
    secret: string;
    now: () => Date;
  }) {
    this.#jobs = deps.jobs;
    this.#appUrl = deps.appUrl;
    this.#linkKey = createHmac('sha256', deps.secret).update('haversack: e-mail link tokens').digest();
    this.#now = deps.now;
    deps.jobs.registerDetached<MailMessage>(ACCOUNT_MAIL_JOB, {
      prepare: (tx, job) => this.#rebuild(tx, job),
      run: async (message) => {
        await deps.mail.sendNow(message);
        return undefined;
      },
      leaseMs: ACCOUNT_MAIL_LEASE_MS,
    });
  }

  /** A new link row's id and the token its link carries (store `hashToken(token)`). */
  newLink(): { id: string; token: string } {
    const id = randomUUID();
    return { id, token: this.#tokenFor(id) };
  }

  /** Queues the mail of a stored link, in the transaction that stored it; answers the key for sendSoon. */
  async queue(tx: Executor, payload: AccountMailPayload): Promise<string> {
    const key = `${ACCOUNT_MAIL_JOB}:${payload.email_token_id}`;
    await this.#jobs.schedule(tx, {
      kind: ACCOUNT_MAIL_JOB,
      key,
      runAt: this.#now(),
      payload: { ...payload },
    });
    return key;
  }

  /** After the commit: the mails leave now, not at the next poll. */
  sendSoon(keys: readonly string[]): void {
    for (const key of keys) this.#jobs.runSoon(key);
  }

  #tokenFor(emailTokenId: string): string {
    return createHmac('sha256', this.#linkKey).update(emailTokenId).digest('base64url');
  }

  async #rebuild(tx: Executor, job: JobRow): Promise<MailMessage | undefined> {
    const payload = job.payload as Partial<AccountMailPayload>;
    if (typeof payload.email_token_id !== 'string') throw new Error('account mail without its link');
    const stored = await repo.findEmailToken(tx, payload.email_token_id);
    // Used, expired, superseded by a newer link, or its account deleted: the link would not work.
    if (!stored || stored.usedAt || stored.expiresAt <= this.#now()) return undefined;
    const user = await repo.findUserById(tx, stored.userId);
    if (!user) return undefined;
    const token = this.#tokenFor(stored.id);
    if (hashToken(token) !== stored.tokenHash) {
      // Failed, not dropped: the admin sees it; it stops being tried when the link expires.
      throw new Error(
        'the link cannot be rebuilt: the server secret (JWT_SECRET) changed since it was queued',
      );
    }
    switch (stored.purpose) {
      case 'password_reset':
        return passwordResetMail(
          stored.email,
          user.username,
          this.#link('reset-password', token, 'path'),
          payload.sent_by_admin === true ? 'admin' : 'owner',
          user.passwordHash !== null,
        );
      case 'email_verification':
        return verificationMail(
          stored.email,
          user.username,
          this.#link('verify-email', token),
          payload.occasion === 'sign_up' || payload.occasion === 'email_change' ? payload.occasion : 'resend',
        );
      case 'email_revert':
        return emailChangedMail(
          stored.email,
          user.username,
          payload.new_email ?? user.email,
          this.#link('undo-email-change', token),
        );
    }
  }

  /** spec: reset links are APP_URL/reset-password/TOKEN; verification links carry the token as a query. */
  #link(
    route: 'reset-password' | 'verify-email' | 'undo-email-change',
    token: string,
    style: 'path' | 'query' = 'query',
  ): string {
    return style === 'path'
      ? `${this.#appUrl}/${route}/${encodeURIComponent(token)}`
      : `${this.#appUrl}/${route}?token=${encodeURIComponent(token)}`;
  }
}
