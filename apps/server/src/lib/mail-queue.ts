import type { Logger } from 'pino';
import type { Mailer, MailMessage } from './mailer.js';

/**
 * Mail leaves after the answer: a request that mails (forgot password) must take the same time whether or
 * not the address has an account, and a slow SMTP server must not hold a request. drain() waits for what
 * is in flight, for graceful shutdown and for tests.
 */
export class MailQueue {
  readonly #pending = new Set<Promise<void>>();

  constructor(
    private readonly mailer: Mailer,
    private readonly log: Logger,
  ) {}

  enqueue(message: MailMessage): void {
    const sending = this.mailer
      .send(message)
      .catch((error: unknown) => this.log.error({ err: error, to: message.to }, 'mail could not be sent'))
      .finally(() => this.#pending.delete(sending));
    this.#pending.add(sending);
  }

  /** Sends now and waits: a background job (mass mail) counts only what it handed over. */
  async sendNow(message: MailMessage): Promise<void> {
    await this.mailer.send(message);
  }

  async drain(): Promise<void> {
    while (this.#pending.size > 0) await Promise.all([...this.#pending]);
  }

  close(): void {
    this.mailer.close();
  }
}
