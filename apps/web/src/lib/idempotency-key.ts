/**
 * Each change the app asks for carries a key of its own (`Idempotency-Key`), kept when the request is sent
 * again: the server makes the change once and answers a repeat from what it kept (docs/decisions.md
 * "Idempotency keys"). `getRandomValues`, as in tab-id.ts, since `randomUUID` needs https.
 */
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';

export function newIdempotencyKey(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}
