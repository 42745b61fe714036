import type { Mailer, MailMessage } from './mailer.js';

/**
 * The mailer as the server uses it. Every mail goes through the job queue, durable in the `jobs` table:
 * account mails (modules/accounts/account-mails.ts) and mass mail call `sendNow` from their jobs, so a
 * restart loses none; the queue's retries stand in for the in-process retries this class once kept.
 */
export class MailQueue {
  constructor(private readonly mailer: Mailer) {}

  /** Sends now and waits: the job that calls it counts only what it handed over. */
  async sendNow(message: MailMessage): Promise<void> {
    await this.mailer.send(message);
  }

  close(): void {
    this.mailer.close();
  }
}
