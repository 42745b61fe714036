/**
 * spec/01 §4: a failed refresh emits a session-expired event; the session manager answers it with a logout.
 * A plain EventTarget keeps the HTTP client free of React.
 */
const SESSION_EXPIRED = 'session-expired';
const target = new EventTarget();

export function emitSessionExpired(): void {
  target.dispatchEvent(new Event(SESSION_EXPIRED));
}

export function onSessionExpired(listener: () => void): () => void {
  target.addEventListener(SESSION_EXPIRED, listener);
  return () => target.removeEventListener(SESSION_EXPIRED, listener);
}
