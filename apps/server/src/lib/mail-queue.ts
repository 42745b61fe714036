import type { Logger } from 'pino';
import type { Mailer, MailMessage } from './mailer.js';

/** After a failed send, wait this long before each further try: a restarted SMTP server, a network blip. */
export const MAIL_RETRY_DELAYS_MS = [30_000, 120_000, 600_000];

/**
 * The mailer as the server uses it. `sendNow` is what the job queue's mails go through: account mails
 * (modules/accounts/account-mails.ts) and mass mail, durable in the `jobs` table. drain() waits for what is
 * in flight, for graceful shutdown and for tests.
 *
 * `enqueue` sends after the answer, in this process only, trying a failed send again after each of
 * `retryDelaysMs`: a restart loses what waits. Account mails used it until the crash review's F2 (a reset
 * mail lost when the process died after answering); nothing mails through it now.
 */
export class MailQueue {
  readonly #pending = new Set<Promise<void>>();
  readonly #retries = new Map<NodeJS.Timeout, MailMessage>();

  constructor(
    private readonly mailer: Mailer,
    private readonly log: Logger,
    private readonly retryDelaysMs: readonly number[] = MAIL_RETRY_DELAYS_MS,
  ) {}

  enqueue(message: MailMessage): void {
    this.#attempt(message, 0);
  }

  #attempt(message: MailMessage, failures: number): void {
    const sending = this.mailer
      .send(message)
      .catch((error: unknown) => {
        const delay = this.retryDelaysMs[failures];
        if (delay === undefined) {
          this.log.error({ err: error, to: message.to, attempts: failures + 1 }, 'mail could not be sent');
          return;
        }
        this.log.warn(
          { err: error, to: message.to, retryInS: Math.round(delay / 1000) },
          'mail could not be sent: trying again',
        );
        const timer = setTimeout(() => {
          this.#retries.delete(timer);
          this.#attempt(message, failures + 1);
        }, delay);
        // A retry waiting must not keep a process alive that has nothing else to do.
        timer.unref();
        this.#retries.set(timer, message);
      })
      .finally(() => this.#pending.delete(sending));
    this.#pending.add(sending);
  }

  /** Sends now and waits: a background job (mass mail) counts only what it handed over. */
  async sendNow(message: MailMessage): Promise<void> {
    await this.mailer.send(message);
  }

  /** Waits for the sends in flight (not for retries still waiting their turn). */
  async drain(): Promise<void> {
    while (this.#pending.size > 0) await Promise.all([...this.#pending]);
  }

  close(): void {
    for (const [timer, message] of this.#retries) {
      clearTimeout(timer);
      this.log.error({ to: message.to }, 'mail could not be sent before shutdown');
    }
    this.#retries.clear();
    this.mailer.close();
  }
}
