/** Postgres reports a unique violation as SQLSTATE 23505; drizzle may wrap the driver's error in `cause`. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  for (let current: unknown = error, depth = 0; current && depth < 4; depth++) {
    const candidate = current as { code?: unknown; constraint?: unknown; cause?: unknown };
    if (candidate.code === '23505') return constraint === undefined || candidate.constraint === constraint;
    current = candidate.cause;
  }
  return false;
}

/**
 * PostgreSQL ended the transaction because it waited on another in a cycle (40P01, deadlock) or could not
 * serialise it (40001). Nothing was written: the request can be made again as it was.
 */
export function isTransactionConflict(error: unknown): boolean {
  for (let current: unknown = error, depth = 0; current && depth < 4; depth++) {
    const candidate = current as { code?: unknown; cause?: unknown };
    if (candidate.code === '40P01' || candidate.code === '40001') return true;
    current = candidate.cause;
  }
  return false;
}

/**
 * PostgreSQL refused a lock taken with NOWAIT because another transaction holds it (55P03,
 * lock_not_available). Nothing was written: the request can be made again once the other one is done.
 */
export function isLockNotAvailable(error: unknown): boolean {
  for (let current: unknown = error, depth = 0; current && depth < 4; depth++) {
    const candidate = current as { code?: unknown; cause?: unknown };
    if (candidate.code === '55P03') return true;
    current = candidate.cause;
  }
  return false;
}

/**
 * PostgreSQL refused a statement because an earlier one of its transaction failed (25P02, "current
 * transaction is aborted"): the earlier failure is the one to answer (db/abort-cause.ts).
 */
export function isAbortedTransaction(error: unknown): boolean {
  for (let current: unknown = error, depth = 0; current && depth < 4; depth++) {
    const candidate = current as { code?: unknown; cause?: unknown };
    if (candidate.code === '25P02') return true;
    current = candidate.cause;
  }
  return false;
}

/** Error codes of a connection that could not be made or was lost (Node's net, DNS). */
const connectionErrorCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * node-postgres says these in words, without a code: the server closed the connection ("Connection
 * terminated unexpectedly"), the pool gave up waiting for one ("timeout exceeded when trying to connect"),
 * or a client that already failed was asked again.
 */
const connectionErrorMessages =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed)/;

/**
 * SQLSTATEs PostgreSQL answers a new connection with when it will not serve it: 57P01–57P03 a server
 * shutting down, restarting or not yet accepting connections; 53300 no connection slot left; 3D000 the
 * database gone (dropped or renamed); 28000 and 28P01 the role gone or its password changed.
 */
const refusedConnectionCodes = new Set(['57P01', '57P02', '57P03', '53300', '3D000', '28000', '28P01']);

/** 55000 is a refused connection only when the database is closed to connections (`allow_connections`). */
const notAcceptingConnections = /is not currently accepting connections/;

/**
 * The database could not be reached or went away mid-request: nothing the request did is to blame, and the
 * same request may succeed once it is back, so it is answered 503 like the health check, not 500. SQLSTATE
 * class 08 is a connection exception; the others are above.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const pending: unknown[] = [error];
  for (let seen = 0; pending.length > 0 && seen < 8; seen++) {
    const candidate = pending.shift() as
      | { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown }
      | null
      | undefined;
    if (!candidate || typeof candidate !== 'object') continue;
    const { code, message } = candidate;
    if (typeof code === 'string') {
      if (connectionErrorCodes.has(code) || code.startsWith('08')) return true;
      if (refusedConnectionCodes.has(code)) return true;
      if (code === '55000' && typeof message === 'string' && notAcceptingConnections.test(message))
        return true;
    }
    if (typeof message === 'string' && connectionErrorMessages.test(message)) return true;
    // drizzle wraps the driver's error in `cause`; a refused connection to a name with several addresses
    // is an AggregateError holding one error per address.
    if (candidate.cause) pending.push(candidate.cause);
    if (Array.isArray(candidate.errors)) pending.push(...candidate.errors);
  }
  return false;
}
