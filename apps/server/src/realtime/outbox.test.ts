import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { Outbox, textFrame } from './outbox.js';

interface Pair {
  server: WebSocket;
  received: { text: string; binary: boolean }[];
}

let wss: WebSocketServer | undefined;
const clients: WebSocket[] = [];

afterEach(async () => {
  for (const client of clients.splice(0)) client.terminate();
  await new Promise<void>((resolve) => (wss ? wss.close(() => resolve()) : resolve()));
  wss = undefined;
});

/** `count` connected sockets: the server's end of each and what its client receives. */
async function pairs(count: number): Promise<Pair[]> {
  if (!wss) {
    wss = new WebSocketServer({ port: 0, host: '127.0.0.1', perMessageDeflate: false });
    await new Promise<void>((resolve) => wss?.once('listening', () => resolve()));
  }
  const { port } = wss.address() as AddressInfo;
  const result: Pair[] = [];
  for (let i = 0; i < count; i++) {
    const accepted = new Promise<WebSocket>((resolve) => wss?.once('connection', resolve));
    const client = new WebSocket(`ws://127.0.0.1:${port}`);
    clients.push(client);
    const received: Pair['received'] = [];
    client.on('message', (data: Buffer, binary: boolean) => received.push({ text: data.toString(), binary }));
    await new Promise((resolve) => client.once('open', resolve));
    result.push({ server: await accepted, received });
  }
  return result;
}

/** One connected socket. */
async function onePair(): Promise<Pair> {
  const [only] = await pairs(1);
  if (!only) throw new Error('no socket');
  return only;
}

const until = async (test: () => boolean) => {
  for (let i = 0; i < 500 && !test(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(test()).toBe(true);
};

describe('textFrame', () => {
  it('encodes the three payload length forms of RFC 6455 §5.2 as unmasked final text frames', () => {
    expect([...textFrame('hi')]).toEqual([0x81, 2, 0x68, 0x69]);
    const medium = textFrame('x'.repeat(300));
    expect([...medium.subarray(0, 4)]).toEqual([0x81, 126, 300 >> 8, 300 & 0xff]);
    expect(medium.length).toBe(304);
    const large = textFrame('y'.repeat(70_000));
    expect(large[1]).toBe(127);
    expect(large.readBigUInt64BE(2)).toBe(70_000n);
    expect(large.length).toBe(70_010);
    // Lengths count bytes, not characters.
    expect(textFrame('é')[1]).toBe(2);
  });
});

describe('Outbox', () => {
  it('delivers frames of every size as text messages a ws client reads back unchanged', async () => {
    const pair = await onePair();
    const outbox = new Outbox();
    const texts = ['{"a":1}', `{"b":"${'é'.repeat(200)}"}`, `{"c":"${'z'.repeat(70_000)}"}`];
    for (const text of texts) outbox.push(pair.server, textFrame(text));
    await until(() => pair.received.length === 3);
    expect(pair.received).toEqual(texts.map((text) => ({ text, binary: false })));
  });

  it('writes what is queued for a socket before a message sent to it another way', async () => {
    const pair = await onePair();
    const outbox = new Outbox();
    outbox.push(pair.server, textFrame('first'));
    outbox.push(pair.server, textFrame('second'));
    outbox.flush(pair.server);
    pair.server.send('third');
    await until(() => pair.received.length === 3);
    expect(pair.received.map((m) => m.text)).toEqual(['first', 'second', 'third']);
    expect(outbox.size).toBe(0);
  });

  it('joins frames queued for sockets not yet written to, keeping each socket’s order', async () => {
    const all = await pairs(3);
    const outbox = new Outbox(1);
    const writes = all.map((pair) => {
      const stream = (pair.server as WebSocket & { _socket: { write: (b: Buffer) => boolean } })._socket;
      const counter = { count: 0 };
      const write = stream.write.bind(stream);
      stream.write = (chunk: Buffer) => {
        counter.count++;
        return write(chunk);
      };
      return counter;
    });
    const first = textFrame('one');
    for (const pair of all) outbox.push(pair.server, first);
    // One socket per turn: after the first turn only the first socket has been written to.
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes.map((w) => w.count)).toEqual([1, 0, 0]);
    const second = textFrame('two');
    for (const pair of all) outbox.push(pair.server, second);
    await until(() => all.every((pair) => pair.received.length === 2));
    for (const pair of all) expect(pair.received.map((m) => m.text)).toEqual(['one', 'two']);
    // The first socket took two writes; the others one write for both frames.
    expect(writes.map((w) => w.count)).toEqual([2, 1, 1]);
  });

  it('drops frames for a socket that closed before its turn', async () => {
    const closing = await onePair();
    const open = await onePair();
    const outbox = new Outbox();
    outbox.push(closing.server, textFrame('lost'));
    closing.server.close();
    outbox.push(closing.server, textFrame('refused'));
    outbox.push(open.server, textFrame('kept'));
    await until(() => open.received.length === 1 && outbox.size === 0);
    expect(closing.received).toEqual([]);
  });
});
