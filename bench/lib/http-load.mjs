// The load generator of the server benches (transfers, container read): keep-alive HTTP/1.1 through
// node:http, one socket per worker, answers read to their last byte and counted, never decoded.
//
// Why not fetch: undici's fetch spent 0.7–1.0 ms of the bench process's CPU per request (WHATWG streams,
// inflating the answer, decoding it to a string), as much as the server spent answering it. On 2 cores
// shared by the bench, the server and PostgreSQL, that measured the client: a transfer's "share of the
// bare loop" and a read's "peak" were the bench's own limits. A load generator is meant to cost little
// next to what it loads (wrk, autocannon); this one asks for what fetch asked for (the same
// `accept-encoding`, so the server compresses exactly as before) and does nothing with the bytes.
import { Agent, request } from 'node:http';

/** What fetch (undici) sends on plain http by default, so the server's work per request is unchanged. */
export const FETCH_ACCEPT_ENCODING = 'gzip, deflate';

/**
 * A client for `base` (http://host:port) keeping up to `sockets` connections open. `send` answers the
 * status and the number of bytes of the body as sent (compressed if the server compressed it), and the
 * body itself when `keepBody` is set (for an error message).
 */
export function loadClient(base, { sockets }) {
  const url = new URL(base);
  const agent = new Agent({ keepAlive: true, maxSockets: sockets, maxFreeSockets: sockets });
  const send = (method, path, { headers = {}, body, keepBody = false } = {}) =>
    new Promise((resolve, reject) => {
      const outgoing = request(
        {
          agent,
          host: url.hostname,
          port: url.port,
          method,
          path,
          headers: {
            'accept-encoding': FETCH_ACCEPT_ENCODING,
            ...(body === undefined ? {} : { 'content-length': Buffer.byteLength(body) }),
            ...headers,
          },
        },
        (incoming) => {
          let bytes = 0;
          const chunks = [];
          incoming.on('data', (chunk) => {
            bytes += chunk.length;
            if (keepBody || incoming.statusCode >= 400) chunks.push(chunk);
          });
          incoming.on('end', () =>
            resolve({
              status: incoming.statusCode,
              bytes,
              encoding: incoming.headers['content-encoding'] ?? 'identity',
              body: chunks.length ? Buffer.concat(chunks) : null,
            }),
          );
          incoming.on('error', reject);
        },
      );
      outgoing.on('error', reject);
      outgoing.end(body);
    });
  return { send, close: () => agent.destroy() };
}
