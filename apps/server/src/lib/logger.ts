import { write } from 'node:fs';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { LoggerOptions } from 'pino';

const CENSOR = '[Redacted]';

// Field names that carry a credential or a single-use link wherever they appear in a logged object.
const secretFields = [
  'password',
  'current_password',
  'password_confirmation',
  'token',
  'refresh_token',
  'access_token',
  'link',
  'authorization',
  'cookie',
];

/**
 * Log redaction: secret fields at the top and the next two levels (a request body, `body.user`, headers),
 * so a log call that passes a body or headers cannot leak them.
 */
export const logRedaction = {
  paths: [
    ...secretFields,
    ...secretFields.map((field) => `*.${field}`),
    ...secretFields.map((field) => `*.*.${field}`),
    'res.headers["set-cookie"]',
  ],
  censor: CENSOR,
} satisfies LoggerOptions['redact'];

// Query parameters that carry credentials: `/cable?token=` (the spec's socket authentication), the
// verification and undo links' `?token=`, an OAuth `code`.
const secretQueryKeys = new Set(['token', 'access_token', 'refresh_token', 'auth_token', 'password', 'code']);

function decodedKey(key: string): string {
  try {
    return decodeURIComponent(key.replace(/\+/g, ' ')).toLowerCase();
  } catch {
    return key.toLowerCase();
  }
}

/** The URL with secret query values and the token of `/reset-password/TOKEN` replaced. */
export function redactUrl(url: string): string {
  const queryAt = url.indexOf('?');
  const path = (queryAt === -1 ? url : url.slice(0, queryAt)).replace(
    /(\/reset-password\/)[^/?#]+/i,
    `$1${CENSOR}`,
  );
  if (queryAt === -1) return path;
  const query = url
    .slice(queryAt + 1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      const key = equals === -1 ? pair : pair.slice(0, equals);
      return equals !== -1 && secretQueryKeys.has(decodedKey(key)) ? `${key}=${CENSOR}` : pair;
    })
    .join('&');
  return `${path}?${query}`;
}

/** Fastify's request serializer, with the URL redacted (request logs print `req.url`). */
export const logSerializers = {
  req(request: FastifyRequest) {
    return {
      method: request.method,
      url: redactUrl(request.url),
      host: request.host,
      remoteAddress: request.ip,
      remotePort: request.socket?.remotePort,
    };
  },
};

/** The options of every logger the server builds. */
export function loggerOptions(level: string): LoggerOptions {
  return { level, redact: logRedaction, serializers: logSerializers };
}

/** Any logger handed to the app (tests pass their own) writes through the same redaction. */
export function redactingLogger(logger: FastifyBaseLogger): FastifyBaseLogger {
  return logger.child({}, { redact: logRedaction, serializers: logSerializers });
}

/**
 * Where the server's log lines go: a file descriptor (stdout) written only asynchronously and never
 * flushed at exit. pino's own destination flushes synchronously when the process exits, and any write
 * pending in libuv's thread pool makes process.exit wait for it: with stdout on a pipe that nobody reads,
 * either one kept a stopped server alive for hours. Here a full pipe only delays or drops log lines
 * (beyond `maxBuffered` characters, counted and reported once writing resumes), and `busy` tells the
 * shutdown that a write may be stuck, so it must end the process with a signal instead of process.exit.
 */
export class LogDestination {
  readonly #fd: number;
  readonly #maxBuffered: number;
  #queue: string[] = [];
  #queued = 0;
  #dropped = 0;
  #inFlight = false;
  #broken = false;
  #idle: (() => void)[] = [];

  constructor(fd = 1, maxBuffered = 4 * 1024 * 1024) {
    this.#fd = fd;
    this.#maxBuffered = maxBuffered;
  }

  write(line: string): boolean {
    if (this.#broken) return true;
    if (this.#queued + line.length > this.#maxBuffered) {
      this.#dropped += 1;
      return true;
    }
    this.#queue.push(line);
    this.#queued += line.length;
    if (!this.#inFlight) this.#next();
    return true;
  }

  /** True while a write is handed to the operating system and not yet answered. */
  get busy(): boolean {
    return this.#inFlight;
  }

  /** Resolves true once everything queued is written, or false after `timeoutMs`. */
  drained(timeoutMs: number): Promise<boolean> {
    if (!this.#inFlight && this.#queue.length === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      this.#idle.push(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }

  #next() {
    if (this.#dropped > 0 && !this.#broken) {
      this.#queue.push(
        `${JSON.stringify({ level: 40, time: Date.now(), msg: `${this.#dropped} log lines dropped: the log output was not being read` })}\n`,
      );
      this.#dropped = 0;
    }
    if (this.#queue.length === 0 || this.#broken) {
      this.#inFlight = false;
      for (const resolve of this.#idle.splice(0)) resolve();
      return;
    }
    const chunk = Buffer.from(this.#queue.join(''));
    this.#queue = [];
    this.#queued = 0;
    this.#inFlight = true;
    this.#send(chunk);
  }

  #send(chunk: Buffer) {
    write(this.#fd, chunk, 0, chunk.length, null, (error, written) => {
      if (error && (error.code === 'EAGAIN' || error.code === 'EWOULDBLOCK')) {
        // A non-blocking pipe that is full: try again shortly, without holding the process open.
        setTimeout(() => this.#send(chunk), 50).unref();
        return;
      }
      if (error) {
        // EPIPE, EBADF: nobody will ever read these lines.
        this.#broken = true;
        this.#queue = [];
        this.#queued = 0;
        this.#next();
        return;
      }
      if (written < chunk.length) {
        this.#send(chunk.subarray(written));
        return;
      }
      this.#next();
    });
  }
}
