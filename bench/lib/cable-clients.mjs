// A process of raw Action Cable clients for bench/cable-broadcast.bench.mjs, forked by it so that the
// clients do not share the server's (or the coordinator's) event loop. Each socket is a plain TCP socket
// speaking RFC 6455 itself: the opening handshake (checked: 101, the accept hash, the subprotocol), then
// just enough of Action Cable (welcome, subscribe, confirm), then only noting when a broadcast frame
// arrives. Every frame is still framed and delimited properly (several frames may come in one read, a
// frame may span reads), but nothing else is done per frame: no `ws` stream machinery, no per-read
// allocation (reads land in one buffer shared by the process), no JSON.parse. A broadcast is recognised
// by its item id, found by a byte search. So the clients measure the server, not themselves.
//
// Messages from the parent:
//   { type: 'connect', group, url, count, identifier }  open `count` more sockets in `group`
//   { type: 'collect' }                                  answer the receipt times gathered so far
//   { type: 'close' }                                    close every socket and exit
// Messages to the parent:
//   { type: 'connected', group, total }   the sockets of the group, all subscribed
//   { type: 'delivered', id }              every socket of the group received the broadcast `id`
//   { type: 'receipts', receipts }         { [id]: epoch ms (fractional) of each receipt }
import { createHash, randomBytes } from 'node:crypto';
import { connect } from 'node:net';

const PROTOCOL = 'actioncable-v1-json';
const GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';
const MARKER = Buffer.from('"item_instance_id":"');
const ACTION = Buffer.from('"action":"item_added"');
const ID_LENGTH = 36;
/** Epoch milliseconds with sub-millisecond precision, comparable between processes. */
const now = () => performance.timeOrigin + performance.now();

/** Sockets per group. */
const groups = new Map();
/** @type {Map<string, number[]>} */
let receipts = new Map();
let cpuMark = process.cpuUsage();
/** Every read of every socket of this process lands here (net's `onread`); leftovers are copied out. */
const readBuffer = Buffer.allocUnsafe(256 * 1024);

/** A client-to-server text frame: masked, as RFC 6455 §5.3 requires of clients. */
function maskedTextFrame(text) {
  const payload = Buffer.from(text);
  const extended = payload.length > 125;
  const header = Buffer.alloc(extended ? 8 : 6);
  header[0] = 0x81;
  let offset = 2;
  if (extended) {
    header[1] = 0x80 | 126;
    header.writeUInt16BE(payload.length, 2);
    offset = 4;
  } else header[1] = 0x80 | payload.length;
  const mask = randomBytes(4);
  mask.copy(header, offset);
  for (let i = 0; i < payload.length; i++) payload[i] ^= mask[i & 3];
  return Buffer.concat([header, payload]);
}

function onBroadcast(client, data, start, end) {
  // A view of this frame's payload only: a search of `data` would run on into the frames after it.
  const payload = data.subarray(start, end);
  if (payload.indexOf(ACTION) === -1) return;
  const at = payload.indexOf(MARKER);
  if (at === -1) return;
  const from = at + MARKER.length;
  const id = payload.toString('latin1', from, from + ID_LENGTH);
  let times = receipts.get(id);
  if (!times) {
    times = [];
    receipts.set(id, times);
  }
  times.push(now());
  if (times.length === client.group.length) process.send({ type: 'delivered', id });
}

/**
 * The frames in data[0, length): each text frame's payload goes to `client.onText`; an incomplete tail
 * is kept (copied, since `data` is the shared read buffer) for the next read.
 */
function consume(client, data, length) {
  let offset = 0;
  while (length - offset >= 2) {
    const opcode = data[offset] & 0x0f;
    let size = data[offset + 1] & 0x7f;
    let header = 2;
    if (size === 126) {
      if (length - offset < 4) break;
      size = data.readUInt16BE(offset + 2);
      header = 4;
    } else if (size === 127) {
      if (length - offset < 10) break;
      size = Number(data.readBigUInt64BE(offset + 2));
      header = 10;
    }
    if (length - offset < header + size) break;
    const start = offset + header;
    // Text frames only: the server sends nothing else but its close frame.
    if (opcode === 0x1) client.onText(client, data, start, start + size);
    offset = start + size;
  }
  client.tail = offset < length ? Buffer.from(data.subarray(offset, length)) : null;
}

function open(url, identifier, group) {
  const { hostname, port, pathname, search } = new URL(url);
  const key = randomBytes(16).toString('base64');
  const accept = createHash('sha1')
    .update(key + GUID)
    .digest('base64');
  return new Promise((resolve, reject) => {
    const client = { group, tail: null, onText: null, socket: null };
    let handshake = '';
    const fail = (error) => {
      client.socket.destroy();
      reject(error);
    };
    // During the opening handshake and the subscription the payloads are small JSON documents.
    const subscribing = (c, data, start, end) => {
      const text = data.toString('utf8', start, end);
      if (text.includes('"welcome"'))
        c.socket.write(maskedTextFrame(JSON.stringify({ command: 'subscribe', identifier })));
      else if (text.includes('"confirm_subscription"')) {
        c.onText = onBroadcast;
        resolve(c);
      } else if (text.includes('"reject_subscription"') || text.includes('"disconnect"'))
        fail(new Error(text));
    };
    client.socket = connect({
      host: hostname,
      port: Number(port),
      noDelay: true,
      onread: {
        buffer: readBuffer,
        callback: (length, data) => {
          if (client.onText === null) {
            handshake += data.toString('latin1', 0, length);
            const end = handshake.indexOf('\r\n\r\n');
            if (end === -1) return;
            const head = handshake.slice(0, end).toLowerCase();
            if (
              !head.startsWith('http/1.1 101') ||
              !head.includes(`sec-websocket-accept: ${accept.toLowerCase()}`) ||
              !head.includes(`sec-websocket-protocol: ${PROTOCOL}`)
            )
              return fail(new Error(`handshake refused: ${handshake.slice(0, end)}`));
            client.onText = subscribing;
            const rest = Buffer.from(handshake.slice(end + 4), 'latin1');
            handshake = '';
            if (rest.length > 0) consume(client, rest, rest.length);
            return;
          }
          if (client.tail) {
            const joined = Buffer.concat([client.tail, data.subarray(0, length)]);
            consume(client, joined, joined.length);
          } else consume(client, data, length);
        },
      },
    });
    client.socket.on('error', reject);
    client.socket.on('connect', () => {
      client.socket.write(
        `GET ${pathname}${search} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nUpgrade: websocket\r\n` +
          `Connection: Upgrade\r\nSec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\n` +
          `Sec-WebSocket-Protocol: ${PROTOCOL}\r\n\r\n`,
      );
    });
  });
}

process.on('message', async (command) => {
  if (command.type === 'connect') {
    const sockets = groups.get(command.group) ?? [];
    groups.set(command.group, sockets);
    let left = command.count;
    while (left > 0) {
      const batch = Math.min(100, left);
      const opened = await Promise.all(
        Array.from({ length: batch }, () => open(command.url, command.identifier, sockets)),
      );
      sockets.push(...opened);
      left -= batch;
    }
    process.send({ type: 'connected', group: command.group, total: sockets.length });
  } else if (command.type === 'collect') {
    // The process's CPU time since the last collect (ms), to tell the clients' cost from the server's.
    const cpu = process.cpuUsage(cpuMark);
    cpuMark = process.cpuUsage();
    process.send({
      type: 'receipts',
      receipts: Object.fromEntries(receipts),
      cpu: (cpu.user + cpu.system) / 1000,
    });
    receipts = new Map();
  } else if (command.type === 'close') {
    for (const sockets of groups.values()) for (const client of sockets) client.socket.destroy();
    process.exit(0);
  }
});
