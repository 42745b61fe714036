import { mkdir, readdir, stat, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Transporter } from 'nodemailer';
import type { Logger } from 'pino';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The link the mail carries (a credential: it is never logged; the .eml file holds it). */
  link?: string;
  /**
   * Headers of its own (a mass mail's List-Unsubscribe, RFC 8058); account mails have none. Every mail also
   * carries Auto-Submitted (mailOptions).
   */
  headers?: Record<string, string>;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  /** Ends the kept SMTP connections (at shutdown, after the jobs that send): no mail is sent after it. */
  close(): void;
}

/**
 * How long an SMTP send waits: for the connection, for the server's greeting, and on a socket that says
 * nothing. nodemailer's own (2 min, 30 s, 10 min) outlast a mail job's run, which is given up after half
 * its lease: the job's retry would then mail again what the first send was still delivering.
 */
export const SMTP_TIMEOUTS_MS = { connection: 15_000, greeting: 10_000, socket: 30_000 };

/**
 * DESIGN §1: SMTP when SMTP_URL is set; otherwise each mail becomes an .eml file in DATA_DIR/mail, named in
 * the log, so password reset works without a mail server.
 */
export function createMailer(options: {
  smtpUrl?: string;
  from: string;
  dataDir: string;
  log: Logger;
  /**
   * Issue 12: with no mail server, a developer at a terminal needs the link (to verify an account) and
   * should not have to dig it out of an .eml file. Only the file transport calls this, and main.ts passes
   * it only for the readable terminal format, so JSON logs never carry a link.
   */
  showLink?: (line: string) => void;
  /** SMTP_TIMEOUTS_MS unless given (tests). */
  timeoutsMs?: typeof SMTP_TIMEOUTS_MS;
}): Mailer {
  const { smtpUrl } = options;
  if (smtpUrl) {
    const timeouts = options.timeoutsMs ?? SMTP_TIMEOUTS_MS;
    const transport = lazyTransport((nodemailer) =>
      nodemailer.createTransport({
        url: smtpUrl,
        // A mass mail hands its readers' mails over one after another: over one kept connection, not one
        // connection (and greeting, and login) per reader. Account mails sent at once share up to five.
        pool: true,
        maxConnections: 5,
        maxMessages: 100,
        // The pool sends again, on a new connection, a mail whose connection closed before a byte of it
        // went: after the first try's timeouts, a second round could outlast half the job's lease (see
        // SMTP_TIMEOUTS_MS). The send fails instead and the job's retry sends it, as without a pool.
        maxRequeues: 0,
        // A kept connection says QUIT before its own socket timeout would cut it off.
        idleTimeout: timeouts.socket / 2,
        connectionTimeout: timeouts.connection,
        greetingTimeout: timeouts.greeting,
        socketTimeout: timeouts.socket,
      }),
    );
    return {
      async send(message) {
        await (await transport.get()).sendMail(mailOptions(options.from, message));
        options.log.info({ to: message.to, subject: message.subject }, 'mail sent');
      },
      close: transport.close,
    };
  }
  const mailDir = path.join(options.dataDir, 'mail');
  const transport = lazyTransport((nodemailer) =>
    nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' }),
  );
  let sequence = 0;
  let pruned: Promise<void> | undefined;
  return {
    async send(message) {
      // Once a process, with its first mail: the old ones go (see pruneOldMails).
      pruned ??= pruneOldMails(mailDir, options.log);
      await pruned;
      // Name the file when the mail is handed over, so files sort in the order mails were sent.
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      const info = await (await transport.get()).sendMail(mailOptions(options.from, message));
      await mkdir(mailDir, { recursive: true });
      // Processes sharing a DATA_DIR (PostgreSQL) count their mails each from 1: the process id keeps
      // their names apart, and `wx` makes sure no file is ever replaced (a process on another machine
      // sharing the directory can have the same id), taking the next number instead.
      let file: string;
      for (;;) {
        sequence += 1;
        file = path.join(mailDir, `${stamp}-${process.pid}-${String(sequence).padStart(6, '0')}.eml`);
        try {
          await writeFile(file, info.message as Buffer, { flag: 'wx' });
          break;
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        }
      }
      // The file's path, not the link: a log line must not carry a reset or undo token.
      options.log.info({ to: message.to, subject: message.subject, file }, 'mail written to file');
      if (message.link && options.showLink) options.showLink(mailedLinkLine(message));
    },
    close: transport.close,
  };
}

/**
 * What nodemailer is handed for a message, by either transport. Every mail Haversack sends is generated by
 * the server (account mails, and mass mail, which an admin writes once for many readers), so each says so
 * (RFC 3834 §5): auto-responders and vacation replies do not answer it, which would only bounce off the
 * no-reply sender or, worse, reach the admin once per reader.
 */
function mailOptions(from: string, message: MailMessage) {
  return {
    from,
    to: message.to,
    subject: message.subject,
    text: message.text,
    html: message.html,
    headers: { 'Auto-Submitted': 'auto-generated', ...message.headers },
  };
}

/** Mail files older than this are deleted: every link they carry has long expired. */
export const MAIL_FILES_KEPT_MS = 30 * 24 * 3600_000;

/**
 * Deletes the .eml files older than MAIL_FILES_KEPT_MS: with no mail server a site writes one per sign-up,
 * reset and change of address for as long as it runs, each with a link that was a credential. A failure is
 * logged and changes nothing else: a mail must still go out.
 */
async function pruneOldMails(mailDir: string, log: Logger): Promise<void> {
  try {
    const oldest = Date.now() - MAIL_FILES_KEPT_MS;
    for (const name of await readdir(mailDir)) {
      if (!name.endsWith('.eml')) continue;
      const file = path.join(mailDir, name);
      try {
        if ((await stat(file)).mtimeMs < oldest) await unlink(file);
      } catch (error) {
        // Another process sharing DATA_DIR deleted it first.
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
      log.warn({ err: error }, 'old mail files could not be deleted');
  }
}

/**
 * nodemailer is loaded with the first mail rather than at start: most starts send none, and its modules
 * were 0.45 MB of the bundle every restart compiled and ran (issue 13 §6). SMTP_URL is checked at start
 * (config.ts), so nothing about the mail server is learnt later than before.
 */
function lazyTransport(create: (nodemailer: typeof import('nodemailer').default) => Transporter) {
  let transport: Promise<Transporter> | undefined;
  return {
    get: () => {
      transport ??= import('nodemailer').then((loaded) => create(loaded.default));
      return transport;
    },
    close: () => {
      void transport?.then((loaded) => loaded.close());
    },
  };
}

/** "Verify your email address — link for a@b.c: http://…", on a line of its own. */
export function mailedLinkLine(message: Pick<MailMessage, 'to' | 'subject' | 'link'>): string {
  return `${message.subject} — link for ${message.to}: ${message.link ?? ''}`;
}
