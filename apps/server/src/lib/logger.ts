import { write } from 'node:fs';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { LoggerOptions } from 'pino';

const CENSOR = '[Redacted]';

// Field names that carry a credential or a single-use link wherever they appear in a logged object.
const secretFields = new Set([
  'password',
  'current_password',
  'password_confirmation',
  'token',
  'refresh_token',
  'access_token',
  'link',
  'authorization',
  'cookie',
  'set-cookie',
]);

/** Levels of a log line searched for secret fields: `password`, `body.password`, `body.user.password`. */
const CENSOR_DEPTH = 3;

/**
 * Keys whose serializer writes fixed fields and nothing of the object it is given: `req` (ours, below) and
 * `res` (Fastify's, the status code). They are left to their serializers instead of searched, since the
 * search runs before serializers do and would walk a whole request and its socket.
 */
const serializedKeys = new Set(['req', 'res']);

/**
 * `value` with every secret field within `depth` levels replaced by the censor (arrays count as a level,
 * as in pino's paths; the values of `notSearched` keys at the top are left as they are), copied only
 * along the way to a secret: the caller's objects are never changed, and a value without secrets is
 * answered as it is. A copy keeps its prototype and its other properties (an error stays an error, with
 * its message and stack).
 *
 * This replaces pino's `redact` with wildcard paths (`*.password`, `*.*.password`): @pinojs/redact parses
 * every path again on every value of every line and of every per-request child logger, which cost about
 * 30 µs of a 140 µs request at the default level (bench/README.md, transfers, seventh pass).
 */
export function censorSecrets<T>(value: T, depth = CENSOR_DEPTH, notSearched?: ReadonlySet<string>): T {
  if (depth <= 0 || value === null || typeof value !== 'object' || ArrayBuffer.isView(value)) return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    value.forEach((item: unknown, index) => {
      const censored = censorSecrets(item, depth - 1);
      if (censored !== item) {
        copy ??= [...value];
        copy[index] = censored;
      }
    });
    return (copy ?? value) as T;
  }
  let replaced: Map<string, unknown> | undefined;
  for (const key of Object.keys(value)) {
    const item = (value as Record<string, unknown>)[key];
    const censored = secretFields.has(key.toLowerCase())
      ? CENSOR
      : notSearched?.has(key)
        ? item
        : censorSecrets(item, depth - 1);
    if (censored !== item) {
      replaced ??= new Map();
      replaced.set(key, censored);
    }
  }
  if (!replaced) return value;
  const descriptors: Record<string, PropertyDescriptor> = Object.getOwnPropertyDescriptors(value);
  for (const [key, censored] of replaced) {
    descriptors[key] = { value: censored, enumerable: true, writable: true, configurable: true };
  }
  return Object.create(Object.getPrototypeOf(value), descriptors) as T;
}

/** pino's `formatters.log`: a line's merge object censored, `req` and `res` left to their serializers. */
function censorLogObject<T extends object>(object: T): T {
  return censorSecrets(object, CENSOR_DEPTH, serializedKeys);
}

/**
 * Log redaction: secret fields at the top and the next two levels (a request body, `body.user`, headers),
 * so a log call that passes a body or headers cannot leak them. pino runs `log` on every line's merge
 * object; the bindings of child loggers are searched by `redactingLogger`.
 */
export const logFormatters = { log: censorLogObject } satisfies LoggerOptions['formatters'];

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
  return { level, formatters: logFormatters, serializers: logSerializers };
}

/**
 * Any logger handed to the app (tests pass their own) writes through the same redaction, and so do its
 * children: each child's bindings are searched as a line is (pino would hand a child's own children
 * unformatted bindings, so `child` itself does it, inherited by every descendant).
 */
export function redactingLogger(logger: FastifyBaseLogger): FastifyBaseLogger {
  const redacting = logger.child({}, { formatters: logFormatters, serializers: logSerializers });
  const makeChild = redacting.child;
  redacting.child = function child(this: FastifyBaseLogger, bindings, options) {
    return makeChild.call(this, censorLogObject(bindings), options);
  };
  return redacting;
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
