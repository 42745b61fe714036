/**
 * Where the browser has `scheduler.yield` (Chromium), a promise that resolves in a new task, ahead of the
 * tasks already queued: work started after it runs in a short task of its own instead of lengthening the
 * one that asked for it (issue 13 §1). Elsewhere undefined: the caller goes on at once, as before.
 */
export function browserTurn(): Promise<void> | undefined {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  return scheduler?.yield?.();
}
