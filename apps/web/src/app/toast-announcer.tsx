import { VisuallyHidden } from '@mantine/core';
import { useNotifications } from '@mantine/notifications';
import { useEffect, useRef, useState } from 'react';
import { type Toast, type ToastKind, useUiStore } from '../stores/ui-store';

type Urgency = 'polite' | 'assertive';

// Failures and warnings (a session about to end) cut in; a success, a tip or another player's notice waits
// its turn.
const urgencies: Record<ToastKind, Urgency> = {
  success: 'polite',
  error: 'assertive',
  info: 'polite',
  warning: 'assertive',
};

/**
 * What screen readers hear of the toasts. A live region is only listened to once it is in the page, and
 * only for what changes in it afterwards: a toast drawn with its text already inside, in a toast area that
 * appears with the first toast (DeferredNotifications), may never be read. These two regions are in the
 * page from the start, empty and visually hidden, and each toast's text is put into one of them when the
 * toast shows (a queued toast waits for its turn on screen); the visual toasts are no live regions
 * themselves (`lib/toast.ts`), so nothing is read twice. Another player's notice ("Bryn gave you 1 × Torch")
 * is a toast like any other.
 */
export function ToastAnnouncer() {
  const { notifications: shown } = useNotifications();
  const [said, setSaid] = useState<Record<Urgency, Toast | null>>({ polite: null, assertive: null });
  const announced = useRef(new Set<string>());

  useEffect(() => {
    const shownIds = new Set(shown.map((notification) => notification.id));
    const toasts = useUiStore.getState().toasts;
    const next = { ...said };
    for (const id of shownIds) {
      if (id === undefined || announced.current.has(id)) continue;
      announced.current.add(id);
      const toast = toasts.find((candidate) => candidate.id === id);
      if (toast) next[urgencies[toast.kind]] = toast;
    }
    // A toast gone from the screen leaves no stale text behind for a screen reader to come across later.
    for (const urgency of ['polite', 'assertive'] as const) {
      const current = next[urgency];
      if (current && !shownIds.has(current.id)) next[urgency] = null;
    }
    for (const id of announced.current) if (!shownIds.has(id)) announced.current.delete(id);
    if (next.polite !== said.polite || next.assertive !== said.assertive) setSaid(next);
  }, [shown, said]);

  // Keyed by the toast: the same words twice in a row are a new node, and are read again.
  return (
    <VisuallyHidden>
      {/* aria-live rather than role=status and role=alert: these empty regions are no status or alert of
          the page's own, which tests and assistive technology find by their role. */}
      <div aria-live="polite" aria-atomic="true" data-testid="toast-announcer-polite">
        {said.polite ? <span key={said.polite.id}>{said.polite.message}</span> : null}
      </div>
      <div aria-live="assertive" aria-atomic="true" data-testid="toast-announcer-assertive">
        {said.assertive ? <span key={said.assertive.id}>{said.assertive.message}</span> : null}
      </div>
    </VisuallyHidden>
  );
}
