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
