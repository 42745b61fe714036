import type { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';

/**
 * An unmasked, final text frame as a server sends it (RFC 6455 §5.2), header and payload in one Buffer:
 * built once per broadcast and written as is to every socket that gets it.
 */
export function textFrame(text: string): Buffer {
  const length = Buffer.byteLength(text);
  const header = length < 126 ? 2 : length < 65_536 ? 4 : 10;
  const frame = Buffer.allocUnsafe(header + length);
  frame[0] = 0x81; // FIN, opcode 1 (text)
  if (header === 2) frame[1] = length;
  else if (header === 4) {
    frame[1] = 126;
    frame.writeUInt16BE(length, 2);
  } else {
    frame[1] = 127;
    frame.writeBigUInt64BE(BigInt(length), 2);
  }
  frame.write(text, header);
  return frame;
}

/**
 * The TCP socket under a `ws` WebSocket. `ws` writes its own frames to it synchronously (no compression is
 * negotiated here, so its sender never queues), so bytes written to it directly between two of `ws`'s
 * writes arrive between them, as whole frames.
 */
function transport(socket: WebSocket): Duplex | undefined {
  return (socket as WebSocket & { _socket?: Duplex })._socket;
}

const sameFrames = (a: readonly Buffer[], b: readonly Buffer[]) =>
  a.length === b.length && a.every((frame, i) => frame === b[i]);

/**
 * Frames on their way to sockets, written per socket in one write, a slice of sockets per turn of the
 * event loop. A broadcast to thousands of sockets costs a system call per socket; broadcasts that come
 * while an earlier one is still being written join it for the sockets not yet written to, so under load
 * each socket takes one write for several frames, and requests are served between the slices. The frames
 * of a socket keep their order, and `flush` writes a socket's queue before anything else is sent to it.
 */
export class Outbox {
  /** One frame, or several in order: most sockets have one at a time, and need no array for it. */
  readonly #pending = new Map<WebSocket, Buffer | Buffer[]>();
  #scheduled = false;
  /** The last joined write, reused by the next socket that has the same frames queued (the usual case). */
  #lastFrames: Buffer[] = [];
  #lastJoined: Buffer | undefined;

  /** @param socketsPerTurn sockets written to before the event loop gets a turn */
  constructor(readonly socketsPerTurn = 500) {}

  /** Queues a frame built by `textFrame`; it is written on a coming turn, after those queued before it. */
  push(socket: WebSocket, frame: Buffer) {
    if (socket.readyState !== socket.OPEN) return;
    const queued = this.#pending.get(socket);
    if (queued === undefined) {
      this.#pending.set(socket, frame);
      this.#schedule();
    } else if (Array.isArray(queued)) queued.push(frame);
    else this.#pending.set(socket, [queued, frame]);
  }

  /** Writes the socket's queue now: call before sending it anything another way. */
  flush(socket: WebSocket) {
    const frames = this.#pending.get(socket);
    if (!frames) return;
    this.#pending.delete(socket);
    this.#write(socket, frames);
  }

  /** Sockets with frames still queued (for tests and diagnostics). */
  get size() {
    return this.#pending.size;
  }

  #schedule() {
    if (this.#scheduled) return;
    this.#scheduled = true;
    setImmediate(this.#drain);
  }

  readonly #drain = () => {
    this.#scheduled = false;
    let written = 0;
    // Insertion order: the sockets queued first are written first; a frame for a socket already written
    // in this pass queues it again at the end.
    for (const [socket, frames] of this.#pending) {
      this.#pending.delete(socket);
      this.#write(socket, frames);
      if (++written === this.socketsPerTurn) break;
    }
    if (this.#pending.size > 0) this.#schedule();
    else {
      this.#lastFrames = [];
      this.#lastJoined = undefined;
    }
  };

  #write(socket: WebSocket, frames: Buffer | Buffer[]) {
    const stream = transport(socket);
    if (socket.readyState !== socket.OPEN || !stream || stream.destroyed) return;
    if (!Array.isArray(frames)) {
      stream.write(frames);
      return;
    }
    if (!this.#lastJoined || !sameFrames(frames, this.#lastFrames)) {
      this.#lastFrames = frames;
      this.#lastJoined = Buffer.concat(frames);
    }
    stream.write(this.#lastJoined);
  }
}
