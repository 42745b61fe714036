import type { IncomingMessage } from 'node:http';

/** Why a request's body stopped before it was whole. */
export type RequestBodyCutOff = 'client_aborted' | 'timed_out';

/**
 * Whether `error` is the request body's own stream ending early, and why: the client went away mid-body
 * (closed the tab, lost its network), or the server cut it off for taking longer than the request timeout
 * (app.ts, answered 408 on the socket by clientErrorHandler). Node reports both as the body stream's error
 * "aborted" with the code ECONNRESET, the very code a database connection lost mid-query carries ("read
 * ECONNRESET"): only the request stream holding this same error says it came from the client's side.
 * undefined: the error is not the request body's.
 */
export function requestBodyCutOff(error: unknown, incoming: IncomingMessage): RequestBodyCutOff | undefined {
  if (error === null || typeof error !== 'object' || incoming.errored !== error) return undefined;
  const socketError = incoming.socket?.errored;
  const timedOut =
    socketError instanceof Error && 'code' in socketError && socketError.code === 'ERR_HTTP_REQUEST_TIMEOUT';
  return timedOut ? 'timed_out' : 'client_aborted';
}
