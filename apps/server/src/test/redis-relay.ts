import { createServer, connect as netConnect, type Server, type Socket } from 'node:net';

/**
 * A TCP relay to Redis that a test cuts, as a Redis restart or a network fault would: the app under test
 * is given the relay's port instead of Redis's own.
 */
export class RedisRelay {
  #server: Server | undefined;
  readonly #sockets = new Set<Socket>();
  port = 0;

  constructor(private readonly redis: URL) {}

  /** Listens (again, on the same port after a cut, once it has one). */
  async open(): Promise<void> {
    const server = createServer((client) => {
      const upstream = netConnect(Number(this.redis.port || 6379), this.redis.hostname);
      for (const socket of [client, upstream]) {
        this.#sockets.add(socket);
        socket.on('close', () => this.#sockets.delete(socket));
        socket.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream).pipe(client);
    });
    this.#server = server;
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.port = (server.address() as { port: number }).port;
  }

  /** Drops every connection and stops listening. */
  async cut(): Promise<void> {
    for (const socket of this.#sockets) socket.destroy();
    await new Promise<void>((resolve) => (this.#server ? this.#server.close(() => resolve()) : resolve()));
  }
}
