import { type AddressInfo, connect, type Socket } from 'node:net';
import { Writable } from 'node:stream';
import { errorEnvelopeSchema } from '@haversack/contracts';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createParty, createUser, type SignedInUser } from './test/factories.js';
import { buildTestApp, type TestContext } from './test/helper.js';

/**
 * A request whose body never arrives whole: cut off once the request timeout passes (app.ts), or left by
 * its client mid-body. Against the real server on a port, through raw sockets, as such clients behave.
 */

// Short, so that the test waits a fraction of a second where the server waits REQUEST_TIMEOUT_MS.
const requestTimeoutMs = 300;
// Far past the timeout and Node's check of it: reached only when the server never closes the socket.
const giveUpMs = 5_000;

type LogLine = { level: number; msg: string; [key: string]: unknown };
const lines: LogLine[] = [];
const lineWaiters: { msg: string; resolve: (line: LogLine) => void }[] = [];
const sink = new Writable({
  write(chunk, _encoding, callback) {
    for (const text of chunk.toString().split('\n').filter(Boolean)) {
      const line = JSON.parse(text) as LogLine;
      lines.push(line);
      for (const waiter of lineWaiters.filter((w) => w.msg === line.msg)) {
        lineWaiters.splice(lineWaiters.indexOf(waiter), 1);
        waiter.resolve(line);
      }
    }
    callback();
  },
});

/** The first log line with this message from now on. */
function nextLogLine(msg: string): Promise<LogLine> {
  return new Promise((resolve) => lineWaiters.push({ msg, resolve }));
}

let ctx: TestContext;
let port: number;
let gm: SignedInUser;

beforeAll(async () => {
  ctx = await buildTestApp({ requestTimeoutMs, logger: pino({ level: 'info' }, sink) });
  gm = await createUser(ctx);
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  port = (ctx.app.server.address() as AddressInfo).port;
});
afterAll(async () => ctx.close());

/** A raw connection that records what it receives, and when the server closes it. */
function rawConnection() {
  const socket = connect(port, '127.0.0.1');
  let received = '';
  socket.on('data', (chunk) => {
    received += chunk.toString();
  });
  socket.on('error', () => {});
  const closed = new Promise<{ closed: boolean; received: string; afterMs: number }>((resolve) => {
    const openedAt = Date.now();
    const giveUp = setTimeout(
      () => resolve({ closed: false, received, afterMs: Date.now() - openedAt }),
      giveUpMs,
    );
    socket.on('close', () => {
      clearTimeout(giveUp);
      resolve({ closed: true, received, afterMs: Date.now() - openedAt });
    });
  });
  return { socket, closed, received: () => received };
}

/** Headers announcing a body of 100,000 bytes, then the first few of them and nothing more. */
function sendHalfABody(socket: Socket) {
  socket.write(
    'POST /api/v1/auth/login HTTP/1.1\r\nHost: haversack.test\r\nContent-Type: application/json\r\n' +
      'Content-Length: 100000\r\n\r\n{"email":"',
  );
}

function bodyOf(response: string): unknown {
  return JSON.parse(response.slice(response.indexOf('\r\n\r\n') + 4));
}

describe('a request body that never arrives whole', () => {
  it('is cut off after the request timeout with 408 in the envelope, logged without alarm', async () => {
    const stalled = rawConnection();
    sendHalfABody(stalled.socket);
    const logged = Promise.race([
      nextLogLine('request timed out before its body arrived'),
      nextLogLine('database unavailable'),
    ]);
    const { closed, received, afterMs } = await stalled.closed;
    expect({ closed, status: received.slice(0, 13) }).toEqual({ closed: true, status: 'HTTP/1.1 408 ' });
    expect(afterMs).toBeGreaterThanOrEqual(requestTimeoutMs - 50);
    expect(errorEnvelopeSchema.parse(bodyOf(received)).error).toEqual({
      type: 'bad_request',
      code: 'BAD_REQUEST',
      message: 'The request took too long to arrive.',
      status: 408,
    });
    expect(await logged).toMatchObject({ level: 30, msg: 'request timed out before its body arrived' });
    expect(lines.filter((line) => line.level >= 50)).toEqual([]);
  });

  it('keeps idle keep-alive connections and WebSockets on /cable open past the timeout', async () => {
    const party = await createParty(ctx, gm);
    const cable = new WebSocket(`ws://127.0.0.1:${port}/cable?token=${gm.token}`, ['actioncable-v1-json']);
    const frames: Record<string, unknown>[] = [];
    const frameWaiters: { type: string; resolve: () => void }[] = [];
    cable.on('message', (data: Buffer) => {
      const frame = JSON.parse(data.toString()) as Record<string, unknown>;
      frames.push(frame);
      for (const waiter of frameWaiters.filter((w) => w.type === frame.type)) waiter.resolve();
    });
    const frame = (type: string) =>
      frames.some((f) => f.type === type)
        ? Promise.resolve()
        : new Promise<void>((resolve) => frameWaiters.push({ type, resolve }));
    await frame('welcome');

    const keptAlive = rawConnection();
    const health = 'GET /api/v1/health HTTP/1.1\r\nHost: haversack.test\r\n\r\n';
    keptAlive.socket.write(health);
    await new Promise<void>((resolve) => {
      const check = () => (keptAlive.received().includes('"database"') ? resolve() : undefined);
      keptAlive.socket.on('data', check);
    });

    // A stalled request closed by the timeout shows that the timeout has passed for the others too.
    const stalled = rawConnection();
    sendHalfABody(stalled.socket);
    expect((await stalled.closed).closed).toBe(true);

    const before = keptAlive.received().length;
    keptAlive.socket.write(health);
    await new Promise<void>((resolve) => {
      const check = () => (keptAlive.received().slice(before).includes('"database"') ? resolve() : undefined);
      keptAlive.socket.on('data', check);
    });
    expect(keptAlive.received().slice(before)).toMatch(/^HTTP\/1\.1 200 /);
    keptAlive.socket.destroy();

    expect(cable.readyState).toBe(WebSocket.OPEN);
    cable.send(
      JSON.stringify({
        command: 'subscribe',
        identifier: JSON.stringify({ channel: 'PartyChannel', party_id: party.id }),
      }),
    );
    await frame('confirm_subscription');
    cable.close();
  });

  it('left by its client is logged as an abort at info, not as the database being down', async () => {
    // A write first reads the site settings (maintenance mode). Cached by this whole request, they let the
    // next one reach its body at once, so the client below leaves mid-body: a client gone before Fastify
    // starts reading the body leaves no error for the handler, and this test nothing to wait on.
    const warmUp = await fetch(`http://127.0.0.1:${port}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'nobody@example.com', password: 'not this one' }),
    });
    expect(warmUp.status).toBe(401);
    const leaving = rawConnection();
    const started = nextLogLine('incoming request');
    sendHalfABody(leaving.socket);
    await started;
    // The socket is gone, so no "request completed" follows: the handler's own line is what ends it.
    const outcome = Promise.race([
      nextLogLine('client aborted the request'),
      nextLogLine('database unavailable'),
    ]);
    leaving.socket.destroy();
    expect(await outcome).toMatchObject({ level: 30, msg: 'client aborted the request', reason: 'aborted' });
    expect(lines.filter((line) => line.msg === 'database unavailable')).toEqual([]);
    expect(lines.filter((line) => line.level >= 50)).toEqual([]);
  });
});
