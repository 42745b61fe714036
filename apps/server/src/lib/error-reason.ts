import { inspect } from 'node:util';

/**
 * What went wrong, in the words of whoever found it: drizzle wraps a driver's error in "Failed query: …"
 * with the real reason as its cause, and a refused connection to a name with several addresses is an
 * AggregateError without a message of its own.
 */
export function reasonOf(error: unknown): string {
  let current = error;
  while (current instanceof Error && current.cause instanceof Error) current = current.cause;
  if (current instanceof AggregateError && !current.message) {
    return current.errors.map((inner) => reasonOf(inner)).join('; ');
  }
  if (current instanceof Error) return current.message || current.name;
  // PGlite (Emscripten) throws plain objects: their message if they have one, else what they hold, never
  // "[object Object]".
  if (current !== null && typeof current === 'object') {
    const message = (current as { message?: unknown }).message;
    if (typeof message === 'string' && message) return message;
    return inspect(current, { depth: 2, breakLength: Number.POSITIVE_INFINITY });
  }
  return String(current);
}
