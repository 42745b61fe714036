import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import { withoutPassword } from '../lib/redacted-url.js';

type Handler = (message: unknown) => void;

/**
 * Fan-out of stream messages (DESIGN §6): in-process by default; through Redis pub/sub when REDIS_URL is
 * set, so that several server processes behind one address behave as one.
 */
export interface Broadcaster {
  publish(stream: string, message: unknown): Promise<void>;
  subscribe(stream: string, handler: Handler): () => void;
  /**
   * Calls `listener` whenever this process hears broadcasts again after a time it may have missed some
   * (its Redis subscriber reconnected); never in-process, where nothing is missed. Returns how to stop.
   */
  onResumed(listener: () => void): () => void;
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

  onResumed(_listener: () => void) {
    return () => {};
  }

  async close() {}
}

export class RedisBroadcaster implements Broadcaster {
  readonly #publisher: Redis;
  readonly #subscriber: Redis;
  readonly #handlers = new StreamHandlers();
  readonly #resumedListeners = new Set<() => void>();
  readonly #prefix = 'haversack:stream:';
  readonly origin = randomUUID();

  /**
   * ioredis is loaded only when REDIS_URL is set: a single process never pays for it at start. A Redis that
   * cannot be reached at start stops the start, as a database that cannot be opened does.
   */
  static async connect(url: string, log: FastifyBaseLogger, readyWithinMs = 10_000) {
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
    return new RedisBroadcaster(publisher, subscriber, log);
  }

  private constructor(publisher: Redis, subscriber: Redis, log: FastifyBaseLogger) {
    this.#publisher = publisher;
    this.#subscriber = subscriber;
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
      for (const listener of this.#resumedListeners) listener();
    });
    this.#subscriber.on('message', (channel: string, raw: string) => {
      if (!channel.startsWith(this.#prefix)) return;
      try {
        this.#handlers.dispatch(channel.slice(this.#prefix.length), JSON.parse(raw));
      } catch (error) {
        log.warn({ err: error }, 'dropped a malformed broadcast');
      }
    });
  }

  async publish(stream: string, message: unknown) {
    await this.#publisher.publish(this.#prefix + stream, JSON.stringify(message));
  }

  subscribe(stream: string, handler: Handler) {
    const { first, remove } = this.#handlers.add(stream, handler);
    if (first) void this.#subscriber.subscribe(this.#prefix + stream);
    return () => {
      if (remove()) void this.#subscriber.unsubscribe(this.#prefix + stream);
    };
  }

  onResumed(listener: () => void) {
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
