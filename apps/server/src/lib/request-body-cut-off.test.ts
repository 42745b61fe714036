import { IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from './db-errors.js';
import { requestBodyCutOff } from './request-body-cut-off.js';

/** What Node's HTTP server gives a request body stream whose socket closed before the body was whole. */
const abortedError = () => Object.assign(new Error('aborted'), { code: 'ECONNRESET' });
/** What node-postgres throws when the database's connection is reset mid-query, under drizzle's wrapper. */
const driverResetError = () =>
  new Error('Failed query: select 1', {
    cause: Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET', syscall: 'read' }),
  });

function incomingRequest(): { incoming: IncomingMessage; socket: Socket } {
  const socket = new Socket();
  socket.on('error', () => {});
  const incoming = new IncomingMessage(socket);
  incoming.on('error', () => {});
  return { incoming, socket };
}

describe('requestBodyCutOff', () => {
  it('names the request body’s own abort a client abort', () => {
    const { incoming } = incomingRequest();
    const aborted = abortedError();
    incoming.destroy(aborted);
    expect(requestBodyCutOff(aborted, incoming)).toBe('client_aborted');
  });

  it('names it a timeout when the server closed the socket for the request timeout', () => {
    const { incoming, socket } = incomingRequest();
    socket.destroy(Object.assign(new Error('Request timeout'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' }));
    const aborted = abortedError();
    incoming.destroy(aborted);
    expect(requestBodyCutOff(aborted, incoming)).toBe('timed_out');
  });

  it('leaves a database connection reset, the same code, to the database checks', () => {
    const { incoming } = incomingRequest();
    const reset = driverResetError();
    expect(requestBodyCutOff(reset, incoming)).toBeUndefined();
    expect(isDatabaseUnavailable(reset)).toBe(true);
    // Even when the client also left: only the request stream's own error is the client's.
    incoming.destroy(abortedError());
    expect(requestBodyCutOff(reset, incoming)).toBeUndefined();
    expect(requestBodyCutOff(abortedError(), incoming)).toBeUndefined();
    expect(requestBodyCutOff(undefined, incoming)).toBeUndefined();
    expect(requestBodyCutOff('aborted', incoming)).toBeUndefined();
  });
});
