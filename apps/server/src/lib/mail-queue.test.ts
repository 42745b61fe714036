import { setTimeout as sleep } from 'node:timers/promises';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { MailQueue } from './mail-queue.js';
import type { Mailer, MailMessage } from './mailer.js';

/** A mail server that refuses the first `refusals` sends, as one that is restarting would. */
function flakyMailer(refusals: number) {
  const delivered: MailMessage[] = [];
  let attempts = 0;
  const mailer: Mailer = {
    async send(message) {
      attempts += 1;
      if (attempts <= refusals)
        throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
      delivered.push(message);
    },
    close() {},
  };
  return { mailer, delivered, attempts: () => attempts };
}

const message: MailMessage = { to: 'bard@example.com', subject: 'Confirm', text: 'x', html: '<p>x</p>' };
const silent = pino({ level: 'silent' });

describe('MailQueue', () => {
  it('tries a refused mail again after each delay until it goes', async () => {
    const server = flakyMailer(2);
    const queue = new MailQueue(server.mailer, silent, [5, 5, 5]);
    queue.enqueue(message);
    await expect.poll(() => server.delivered).toEqual([message]);
    expect(server.attempts()).toBe(3);
  });

  it('gives up after the last delay, and drops waiting retries at close', async () => {
    const refused = flakyMailer(Number.POSITIVE_INFINITY);
    const queue = new MailQueue(refused.mailer, silent, [5]);
    queue.enqueue(message);
    await expect.poll(() => refused.attempts()).toBe(2);
    await sleep(30);
    expect(refused.attempts()).toBe(2);

    const waiting = flakyMailer(Number.POSITIVE_INFINITY);
    const closing = new MailQueue(waiting.mailer, silent, [60_000]);
    closing.enqueue(message);
    await closing.drain();
    closing.close();
    expect(waiting.attempts()).toBe(1);
  });
});
