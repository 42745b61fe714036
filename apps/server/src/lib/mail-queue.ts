import type { Logger } from 'pino';
import type { Mailer, MailMessage } from './mailer.js';

/** After a failed send, wait this long before each further try: a restarted SMTP server, a network blip. */
export const MAIL_RETRY_DELAYS_MS = [30_000, 120_000, 600_000];

/**
 * Mail leaves after the answer: a request that mails (forgot password) must take the same time whether or
 * not the address has an account, and a slow SMTP server must not hold a request. drain() waits for what
 * is in flight, for graceful shutdown and for tests.
 *
 * A send that fails is tried again after each of `retryDelaysMs`, in this process only: the mails carry
 * sign-in links, credentials the database should not keep, and a user can ask for a new one.
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
