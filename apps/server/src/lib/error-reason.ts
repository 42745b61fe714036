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
  return current instanceof Error ? current.message || current.name : String(current);
}
