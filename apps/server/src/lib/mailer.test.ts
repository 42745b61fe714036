import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { type AddressInfo, createServer, type Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ACCOUNT_MAIL_LEASE_MS } from '../modules/accounts/account-mails.js';
import { MASS_MAIL_LEASE_MS } from '../modules/admin/admin-operations.service.js';
import { createMailer, MAIL_FILES_KEPT_MS, SMTP_TIMEOUTS_MS } from './mailer.js';

const log = pino({ level: 'silent' });
const message = {
  to: 'bard@example.com',
  subject: 'Reset your Haversack password',
  text: 'Plain body http://app/reset-password/abc',
  html: '<p>HTML body</p>',
  link: 'http://app/reset-password/abc',
};

/** The SMTP mailer the app makes for `smtpUrl`, with no spool directory to fall back on. */
function smtpMailer(smtpUrl: string, timeoutsMs?: Parameters<typeof createMailer>[0]['timeoutsMs']) {
  return createMailer({
    smtpUrl,
    from: 'Haversack <no-reply@h.test>',
    dataDir: '/nonexistent',
    log,
    timeoutsMs,
  });
}

describe('SMTP mailer', () => {
  let server: SMTPServer;
  const received: string[] = [];

  beforeAll(async () => {
    server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, _session, callback) {
        let data = '';
        stream.on('data', (chunk: Buffer) => {
          data += chunk.toString('utf8');
        });
        stream.on('end', () => {
          received.push(data);
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => new Promise<void>((resolve) => server.close(() => resolve())));

  it('delivers plain-text and HTML bodies to a real SMTP server', async () => {
    const { port } = server.server.address() as AddressInfo;
    const mailer = smtpMailer(`smtp://127.0.0.1:${port}`);
    await mailer.send(message);
    mailer.close();
    expect(received).toHaveLength(1);
    const raw = received[0] ?? '';
    expect(raw).toMatch(/^To: bard@example\.com/m);
    expect(raw).toContain('Content-Type: text/plain');
    expect(raw).toContain('Content-Type: text/html');
    expect(raw).toContain('Plain body');
  });

  // RFC 3834 §5: every mail the server sends is generated, not written to the reader; an out-of-office
  // reply or a vacation responder must not answer it (and so bounce off no-reply@).
  it('marks every mail Auto-Submitted: auto-generated, a mass mail keeping its List-Unsubscribe', async () => {
    const { port } = server.server.address() as AddressInfo;
    const mailer = smtpMailer(`smtp://127.0.0.1:${port}`);
    const before = received.length;
    await mailer.send(message);
    await mailer.send({
      ...message,
      subject: 'News from the guild',
      headers: {
        'List-Unsubscribe': '<http://app/api/v1/announcement_emails/one_click?token=t>',
        'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      },
    });
    mailer.close();
    const [account = '', mass = ''] = received.slice(before);
    expect(account).toMatch(/^Auto-Submitted: auto-generated\r?$/m);
    expect(account).not.toMatch(/^List-Unsubscribe/m);
    expect(mass).toMatch(/^Auto-Submitted: auto-generated\r?$/m);
    expect(mass).toMatch(
      /^List-Unsubscribe: <http:\/\/app\/api\/v1\/announcement_emails\/one_click\?token=t>\r?$/m,
    );
    expect(mass).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r?$/m);
  });
});

/** A mail server that counts the connections made to it and the ones still open. */
async function countingServer(options: { socketTimeout?: number } = {}) {
  const counts = { connections: 0, open: 0, mails: 0 };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    ...options,
    onConnect(_session, callback) {
      counts.connections += 1;
      counts.open += 1;
      callback();
    },
    onClose() {
      counts.open -= 1;
    },
    onData(stream, _session, callback) {
      stream.resume();
      stream.on('end', () => {
        counts.mails += 1;
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    counts,
    smtpUrl: `smtp://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('SMTP mailer sending many mails (a mass mail)', () => {
  // Mail review: a mass mail opened, greeted and closed one SMTP connection per reader.
  it('sends them over one connection, which close() ends', async () => {
    const sink = await countingServer();
    try {
      const mailer = smtpMailer(sink.smtpUrl);
      // One after another, as a mass mail batch hands them over.
      for (let i = 0; i < 5; i += 1) await mailer.send({ ...message, to: `reader${i}@example.com` });
      expect(sink.counts).toMatchObject({ mails: 5, connections: 1, open: 1 });
      // Shutdown: no connection is left open to hold the process (or this test's server) up.
      mailer.close();
      await vi.waitFor(() => expect(sink.counts.open).toBe(0));
    } finally {
      await sink.close();
    }
  });

  it('opens a new connection when the server closed the one it kept', async () => {
    const sink = await countingServer({ socketTimeout: 200 });
    try {
      const mailer = smtpMailer(sink.smtpUrl);
      await mailer.send(message);
      await vi.waitFor(() => expect(sink.counts.open).toBe(0));
      await mailer.send(message);
      expect(sink.counts).toMatchObject({ mails: 2, connections: 2 });
      mailer.close();
      await vi.waitFor(() => expect(sink.counts.open).toBe(0));
    } finally {
      await sink.close();
    }
  });
});

describe('SMTP mailer against a mail server that stops answering', () => {
  // Mail review: nodemailer waits up to 10 minutes on a silent socket by default, while a mail job gives
  // its send up after half its lease; the retry would then mail again what the first send still delivers.
  it('gives a send up within its own timeouts, which end before the mail job gives it up', async () => {
    expect(SMTP_TIMEOUTS_MS.connection + SMTP_TIMEOUTS_MS.greeting + SMTP_TIMEOUTS_MS.socket).toBeLessThan(
      ACCOUNT_MAIL_LEASE_MS / 2,
    );
    expect(MASS_MAIL_LEASE_MS).toBeGreaterThanOrEqual(ACCOUNT_MAIL_LEASE_MS);

    // Greets, then never answers EHLO.
    const sockets: Socket[] = [];
    const silent = createServer((socket) => {
      sockets.push(socket);
      socket.write('220 mail.test ESMTP\r\n');
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as AddressInfo;
    const mailer = smtpMailer(`smtp://127.0.0.1:${port}`, { connection: 500, greeting: 500, socket: 300 });
    const started = Date.now();
    await expect(mailer.send(message)).rejects.toThrow(/timeout/i);
    expect(Date.now() - started).toBeLessThan(5_000);
    mailer.close();
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => silent.close(() => resolve()));
  });
});

describe('file mailer', () => {
  it('writes an .eml file per mail under DATA_DIR/mail', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'haversack-mail-'));
    try {
      const mailer = createMailer({ from: 'Haversack <no-reply@h.test>', dataDir, log });
      await mailer.send(message);
      await mailer.send({ ...message, subject: 'Second' });
      const files = readdirSync(path.join(dataDir, 'mail')).sort();
      expect(files).toHaveLength(2);
      expect(files.every((f) => f.endsWith('.eml'))).toBe(true);
      const second = readFileSync(path.join(dataDir, 'mail', files[1] ?? ''), 'utf8');
      expect(second).toContain('Subject: Second');
      expect(second).toMatch(/^Auto-Submitted: auto-generated$/m);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  // Reviewer "multiproc" finding 8: two processes sharing a DATA_DIR each count their mails from 1, so
  // two mails handed over in the same millisecond had the same name and the second replaced the first.
  it('never writes over a mail file another mailer (another process) wrote in the same millisecond', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'haversack-mail-'));
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-11-29T12:00:00.000Z') });
    try {
      const first = createMailer({ from: 'Haversack <no-reply@h.test>', dataDir, log });
      const second = createMailer({ from: 'Haversack <no-reply@h.test>', dataDir, log });
      await first.send({ ...message, subject: 'From the first' });
      await second.send({ ...message, subject: 'From the second' });
      const mailDir = path.join(dataDir, 'mail');
      const files = readdirSync(mailDir).sort();
      expect(files).toHaveLength(2);
      const subjects = files.map(
        (file) => /^Subject: (.+)$/m.exec(readFileSync(path.join(mailDir, file), 'utf8'))?.[1],
      );
      expect(subjects.sort()).toEqual(['From the first', 'From the second']);
      expect(files.every((file) => file.startsWith('2026-11-29T12-00-00-000Z-'))).toBe(true);
    } finally {
      vi.useRealTimers();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('deletes the mail files older than 30 days with its first mail, and nothing else', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'haversack-mail-'));
    try {
      const mailDir = path.join(dataDir, 'mail');
      mkdirSync(mailDir);
      const aged = (name: string, ageMs: number) => {
        writeFileSync(path.join(mailDir, name), 'old');
        const at = (Date.now() - ageMs) / 1000;
        utimesSync(path.join(mailDir, name), at, at);
      };
      aged('old.eml', MAIL_FILES_KEPT_MS + 3600_000);
      aged('recent.eml', MAIL_FILES_KEPT_MS - 3600_000);
      aged('notes.txt', MAIL_FILES_KEPT_MS * 2);
      const mailer = createMailer({ from: 'Haversack <no-reply@h.test>', dataDir, log });
      await mailer.send(message);
      const files = readdirSync(mailDir);
      expect(files).toContain('recent.eml');
      expect(files).toContain('notes.txt');
      expect(files).not.toContain('old.eml');
      expect(files).toHaveLength(3);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
