import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import { withoutPassword } from '../lib/redacted-url.js';

type Handler = (message: unknown) => void;

/** The streams whose broadcasts may have been missed, or `'all'` when it is not known which. */
export type MissedStreams = readonly string[] | 'all';

/**
 * How many streams a process remembers failing to publish to before it stops counting and has every
 * socket told to reconnect: the names of a busy outage's parties, not its events.
 */
export const MAX_MISSED_STREAMS = 500;

/**
 * Fan-out of stream messages (DESIGN §6): in-process by default; through Redis pub/sub when REDIS_URL is
 * set, so that several server processes behind one address behave as one.
 */
export interface Broadcaster {
  publish(stream: string, message: unknown): Promise<void>;
  subscribe(stream: string, handler: Handler): () => void;
  /**
   * Calls `listener` whenever broadcasts may have been missed by the sockets of this process: `'all'` when
   * its own Redis subscriber reconnected; the streams when a process (this one or another) could not
   * publish to them and its publisher is back. Never in-process, where nothing is missed. Returns how to
   * stop.
   */
  onResumed(listener: (missed: MissedStreams) => void): () => void;
  close(): Promise<void>;
}

class StreamHandlers {
  readonly #handlers = new Map<string, Set<Handler>>();

  add(stream: string, handler: Handler): { first: boolean; remove: () => boolean } {
    let set = this.#handlers.get(stream);
    const first = !set;
    if (!set) {
      set = new Set();
      this.#handlers.set(stream, set);
    }
    set.add(handler);
    return {
      first,
      remove: () => {
        const current = this.#handlers.get(stream);
        current?.delete(handler);
        if (current && current.size === 0) {
          this.#handlers.delete(stream);
          return true;
        }
        return false;
      },
    };
  }

  dispatch(stream: string, message: unknown) {
    for (const handler of this.#handlers.get(stream) ?? []) handler(message);
  }
}

export class InProcessBroadcaster implements Broadcaster {
  readonly #handlers = new StreamHandlers();

  async publish(stream: string, message: unknown) {
    // Delivered on the next tick, like a network hop, so publishers never run subscribers' code inline.
    queueMicrotask(() => this.#handlers.dispatch(stream, message));
  }

  subscribe(stream: string, handler: Handler) {
    const { remove } = this.#handlers.add(stream, handler);
    return () => void remove();
  }

  onResumed(_listener: (missed: MissedStreams) => void) {
    return () => {};
  }

  async close() {}
}

export class RedisBroadcaster implements Broadcaster {
  readonly #publisher: Redis;
  readonly #subscriber: Redis;
  readonly #handlers = new StreamHandlers();
  readonly #resumedListeners = new Set<(missed: MissedStreams) => void>();
  readonly #prefix: string;
  /** Where a process whose publisher is back names the streams it failed to publish to (every process listens). */
  readonly #resyncChannel: string;
  /** Streams whose publishes failed and that no resync notice has named yet. */
  #unpublished: Set<string> | 'all' = new Set();
  readonly origin = randomUUID();

  /**
   * ioredis is loaded only when REDIS_URL is set: a single process never pays for it at start. A Redis that
   * cannot be reached at start stops the start, as a database that cannot be opened does.
   */
  static async connect(
    url: string,
    log: FastifyBaseLogger,
    { readyWithinMs = 10_000, namespace = 'haversack:' }: { readyWithinMs?: number; namespace?: string } = {},
  ) {
    const { Redis } = await import('ioredis');
    // No offline queue: while Redis is away a command fails at once, so a sign-in's rate limit lets it
    // through (as the limiters do on any Redis error) instead of waiting out the reconnects, 40–60 s.
    const publisher = new Redis(url, {
      maxRetriesPerRequest: 1,
      enableOfflineQueue: false,
      connectTimeout: 5_000,
    });
    const subscriber = new Redis(url, { maxRetriesPerRequest: null });
    try {
      await whenReady(publisher, readyWithinMs);
    } catch (error) {
      publisher.disconnect();
      subscriber.disconnect();
      const reason = error instanceof Error ? error.message || error.name : String(error);
      throw new Error(`cannot reach Redis at ${withoutPassword(url)}: ${reason}`);
    }
    return new RedisBroadcaster(publisher, subscriber, log, namespace);
  }

  private constructor(publisher: Redis, subscriber: Redis, log: FastifyBaseLogger, namespace: string) {
    this.#publisher = publisher;
    this.#subscriber = subscriber;
    this.#prefix = `${namespace}stream:`;
    this.#resyncChannel = `${namespace}resync`;
    for (const [name, client] of [
      ['publisher', this.#publisher],
      ['subscriber', this.#subscriber],
    ] as const) {
      // One line when the connection is lost and one when it is back, not one per reconnect attempt.
      let lost = false;
      client.on('error', (error) => {
        if (lost) return;
        lost = true;
        log.warn({ err: error, client: name }, 'redis connection lost: retrying');
      });
      client.on('ready', () => {
        if (!lost) return;
        lost = false;
        log.info({ client: name }, 'redis connection back');
      });
    }
    // Redis keeps nothing for a subscriber that was away, however briefly (a connection dropped and made
    // again at once logs no error): what the other processes published meanwhile never reaches this one.
    // ioredis subscribes to the same channels again as it reconnects.
    let away = false;
    this.#subscriber.on('close', () => {
      away = true;
    });
    this.#subscriber.on('ready', () => {
      if (!away) return;
      away = false;
      this.#notifyResumed('all');
    });
    // What this process could not publish while its publisher was away is named, once it is back, to every
    // process (this one included: its own sockets hear broadcasts only through Redis too).
    this.#publisher.on('ready', () => void this.#announceUnpublished());
    void this.#subscriber.subscribe(this.#resyncChannel).catch(() => {
      // ioredis subscribes again as it reconnects.
    });
    this.#subscriber.on('message', (channel: string, raw: string) => {
      if (channel === this.#resyncChannel) {
        try {
          const notice = JSON.parse(raw) as { streams?: unknown };
          const streams = Array.isArray(notice.streams)
            ? notice.streams.filter((stream): stream is string => typeof stream === 'string')
            : undefined;
          this.#notifyResumed(streams ?? 'all');
        } catch (error) {
          log.warn({ err: error }, 'dropped a malformed resync notice');
        }
        return;
      }
      if (!channel.startsWith(this.#prefix)) return;
      try {
        this.#handlers.dispatch(channel.slice(this.#prefix.length), JSON.parse(raw));
      } catch (error) {
        log.warn({ err: error }, 'dropped a malformed broadcast');
      }
    });
  }

  async publish(stream: string, message: unknown) {
    try {
      await this.#publisher.publish(this.#prefix + stream, JSON.stringify(message));
    } catch (error) {
      // The change itself is committed and answered (callers only log this); its watchers are told later.
      this.#remember([stream]);
      // A publish can fail while the connection stays up (a lost reply): no 'ready' would come to announce it.
      if (this.#publisher.status === 'ready') void this.#announceUnpublished();
      throw error;
    }
    if (this.#unpublished === 'all' || this.#unpublished.size > 0) void this.#announceUnpublished();
  }

  #remember(streams: MissedStreams) {
    if (this.#unpublished === 'all') return;
    if (streams === 'all') {
      this.#unpublished = 'all';
      return;
    }
    for (const stream of streams) this.#unpublished.add(stream);
    if (this.#unpublished.size > MAX_MISSED_STREAMS) this.#unpublished = 'all';
  }

  /** Tells every process which streams this one failed to publish to; kept for the next try if it fails. */
  async #announceUnpublished() {
    const unpublished = this.#unpublished;
    if (unpublished !== 'all' && unpublished.size === 0) return;
    this.#unpublished = new Set();
    const notice = unpublished === 'all' ? { all: true } : { streams: [...unpublished] };
    try {
      await this.#publisher.publish(this.#resyncChannel, JSON.stringify(notice));
    } catch {
      this.#remember(unpublished === 'all' ? 'all' : [...unpublished]);
    }
  }

  #notifyResumed(missed: MissedStreams) {
    for (const listener of this.#resumedListeners) listener(missed);
  }

  subscribe(stream: string, handler: Handler) {
    const { first, remove } = this.#handlers.add(stream, handler);
    // Not awaited, so never left rejected: a connection that ends before Redis answers rejects the command
    // ("Connection is closed."), and an unhandled rejection ends the process. ioredis subscribes again to
    // what it holds as it reconnects; a channel left subscribed only carries messages nobody dispatches.
    if (first) this.#subscriber.subscribe(this.#prefix + stream).catch(ignoreEndedConnection);
    return () => {
      if (remove()) this.#subscriber.unsubscribe(this.#prefix + stream).catch(ignoreEndedConnection);
    };
  }

  onResumed(listener: (missed: MissedStreams) => void) {
    this.#resumedListeners.add(listener);
    return () => void this.#resumedListeners.delete(listener);
  }

  /** Whether the publisher is connected now (health reports it). */
  get connected(): boolean {
    return this.#publisher.status === 'ready';
  }

  /** For presence and other shared state. */
  get redis(): Redis {
    return this.#publisher;
  }

  async close() {
    // QUIT is a command: a client that is not connected (Redis unreachable, reconnecting for ever) queues
    // it until it reconnects, and a shutdown would wait out SHUTDOWN_TIMEOUT. Such a client has nothing
    // in flight to finish, so it is cut; a connected one still gets its replies first.
    await Promise.allSettled(
      [this.#subscriber, this.#publisher].map(async (client) => {
        if (client.status === 'ready') await client.quit();
        else client.disconnect();
      }),
    );
  }
}

function ignoreEndedConnection() {}

/** Resolves once the client is connected; rejects on its first connection error or after `withinMs`. */
function whenReady(client: Redis, withinMs: number): Promise<void> {
  if (client.status === 'ready') return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => settle(new Error(`no answer within ${withinMs / 1000} s`)), withinMs);
    const onReady = () => settle();
    const onError = (error: Error) => settle(error);
    function settle(error?: Error) {
      clearTimeout(timer);
      client.off('ready', onReady);
      client.off('error', onError);
      if (error) reject(error);
      else resolve();
    }
    client.once('ready', onReady);
    client.once('error', onError);
  });
}
