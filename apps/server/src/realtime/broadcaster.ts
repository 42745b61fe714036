import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';

type Handler = (message: unknown) => void;

/**
 * Fan-out of stream messages (DESIGN §6): in-process by default; through Redis pub/sub when REDIS_URL is
 * set, so that several server processes behind one address behave as one.
 */
export interface Broadcaster {
  publish(stream: string, message: unknown): Promise<void>;
  subscribe(stream: string, handler: Handler): () => void;
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

  async close() {}
}

export class RedisBroadcaster implements Broadcaster {
  readonly #publisher: Redis;
  readonly #subscriber: Redis;
  readonly #handlers = new StreamHandlers();
  readonly #prefix = 'haversack:stream:';
  readonly origin = randomUUID();

  /** ioredis is loaded only when REDIS_URL is set: a single process never pays for it at start. */
  static async connect(url: string, log: FastifyBaseLogger) {
    const { Redis } = await import('ioredis');
    return new RedisBroadcaster(
      new Redis(url, { maxRetriesPerRequest: 3, lazyConnect: false }),
      new Redis(url, { maxRetriesPerRequest: null }),
      log,
    );
  }

  private constructor(publisher: Redis, subscriber: Redis, log: FastifyBaseLogger) {
    this.#publisher = publisher;
    this.#subscriber = subscriber;
    for (const client of [this.#publisher, this.#subscriber]) {
      client.on('error', (error) => log.warn({ err: error }, 'redis connection problem'));
    }
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
