// A process of raw Action Cable clients for bench/cable-broadcast.bench.mjs, forked by it so that the
// clients do not share the server's (or the coordinator's) event loop. Each socket speaks just enough of
// the protocol (welcome, subscribe, confirm) and then only notes when a broadcast frame arrives. Work per
// frame is kept tiny (a byte search, no JSON.parse), so the clients measure the server, not themselves.
//
// Messages from the parent:
//   { type: 'connect', group, url, count, identifier }  open `count` more sockets in `group`
//   { type: 'collect' }                                  answer the receipt times gathered so far
//   { type: 'close' }                                    close every socket and exit
// Messages to the parent:
//   { type: 'connected', group, total }   the sockets of the group, all subscribed
//   { type: 'delivered', id }              every socket of the group received the broadcast `id`
//   { type: 'receipts', receipts }         { [id]: epoch ms (fractional) of each receipt }
import { WebSocket } from 'ws';

const MARKER = Buffer.from('"item_instance_id":"');
const ACTION = Buffer.from('"action":"item_added"');
const ID_LENGTH = 36;
/** Epoch milliseconds with sub-millisecond precision, comparable between processes. */
const now = () => performance.timeOrigin + performance.now();

/** @type {Map<string, WebSocket[]>} */
const groups = new Map();
/** @type {WeakMap<WebSocket, string>} */
const groupOf = new WeakMap();
/** @type {Map<string, number[]>} */
let receipts = new Map();

// One listener shared by every subscribed socket (`this` is the socket).
function onBroadcast(data) {
  if (data.indexOf(ACTION) === -1) return;
  const at = data.indexOf(MARKER);
  if (at === -1) return;
  const start = at + MARKER.length;
  const id = data.toString('latin1', start, start + ID_LENGTH);
  let times = receipts.get(id);
  if (!times) {
    times = [];
    receipts.set(id, times);
  }
  times.push(now());
  if (times.length === groups.get(groupOf.get(this))?.length) process.send({ type: 'delivered', id });
}

function open(url, identifier) {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, ['actioncable-v1-json'], {
      perMessageDeflate: false,
      skipUTF8Validation: true,
    });
    const handshake = (data) => {
      const text = data.toString();
      if (text.includes('"welcome"')) socket.send(JSON.stringify({ command: 'subscribe', identifier }));
      else if (text.includes('"confirm_subscription"')) {
        socket.off('message', handshake);
        socket.on('message', onBroadcast);
        resolve(socket);
      } else if (text.includes('"reject_subscription"') || text.includes('"disconnect"'))
        reject(new Error(text));
    };
    socket.on('message', handshake);
    socket.on('error', reject);
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
        Array.from({ length: batch }, () => open(command.url, command.identifier)),
      );
      for (const socket of opened) {
        groupOf.set(socket, command.group);
        sockets.push(socket);
      }
      left -= batch;
    }
    process.send({ type: 'connected', group: command.group, total: sockets.length });
  } else if (command.type === 'collect') {
    process.send({ type: 'receipts', receipts: Object.fromEntries(receipts) });
    receipts = new Map();
  } else if (command.type === 'close') {
    for (const sockets of groups.values()) for (const socket of sockets) socket.terminate();
    process.exit(0);
  }
});
