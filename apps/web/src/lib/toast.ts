import {
  TOAST_DEFAULT_MS,
  TOAST_ERROR_MS,
  TOAST_SESSION_EXPIRED_MS,
  TOAST_SUCCESS_MS,
  TOAST_TIP_MS,
} from '@haversack/contracts';
import { notifications } from '@mantine/notifications';
import { createElement } from 'react';
import { type ToastKind, useUiStore } from '../stores/ui-store';
import { type ToastAction, ToastMessageWithAction } from './toast-action';

const colors: Record<ToastKind, string> = { success: 'teal', error: 'red', info: 'blue', warning: 'yellow' };
const defaultDurations: Record<ToastKind, number> = {
  success: TOAST_SUCCESS_MS,
  error: TOAST_ERROR_MS,
  info: TOAST_DEFAULT_MS,
  warning: TOAST_DEFAULT_MS,
};
// Mantine makes every notification an assertive alert, which cuts off whatever a screen reader is saying:
// only failures and warnings (a session about to end) are worth that; a success or a tip waits its turn.
// The toasts are drawn into a live region that is in the page from the start (app/app-toasts.tsx).
const roles: Record<ToastKind, 'alert' | 'status'> = {
  success: 'status',
  error: 'alert',
  info: 'status',
  warning: 'alert',
};

/** spec/01 §8 general toasts: the messages any screen may show. */
export const generalMessages = {
  requiredFields: 'Please fill in all required fields.',
  saveFailed: 'Failed to save. Please try again.',
  deleteFailed: 'Failed to delete. Please try again.',
  unsavedChanges: 'You have unsaved changes.',
  comingSoon: 'This feature is coming soon!',
} as const;

let sequence = 0;

/**
 * A toast's own clock, in place of Mantine's: it holds still while the pointer or the focus is in the toast
 * (Mantine's holds only for the pointer, so a keyboard user's Undo vanished under them), and it starts when
 * the toast is shown, not while it waits its turn behind others.
 */
interface ToastClock {
  left: number;
  endsAt: number;
  timer?: ReturnType<typeof setTimeout>;
  hovered: boolean;
  focused: boolean;
  /** Where the focus came from into the toast: it goes back there as the toast closes. */
  cameFrom: Element | null;
}
const clocks = new Map<string, ToastClock>();
/** The least time a toast stays once the pointer and focus have left it, so that it does not vanish at once. */
const RESUME_GRACE_MS = 2_000;

function runClock(id: string): void {
  const clock = clocks.get(id);
  if (!clock || clock.hovered || clock.focused) return;
  clearTimeout(clock.timer);
  clock.endsAt = Date.now() + clock.left;
  clock.timer = setTimeout(() => notifications.hide(id), clock.left);
}

function holdClock(id: string, change: Partial<ToastClock>): void {
  const clock = clocks.get(id);
  if (!clock) return;
  if (!clock.hovered && !clock.focused && clock.timer !== undefined) {
    clearTimeout(clock.timer);
    clock.left = Math.max(clock.endsAt - Date.now(), RESUME_GRACE_MS);
  }
  Object.assign(clock, change);
  runClock(id);
}

/** A toast closed with the focus in it (its Undo ran, Escape, ×): the focus goes back, not to <body>. */
function closeClock(id: string): void {
  const clock = clocks.get(id);
  clocks.delete(id);
  if (!clock) return;
  clearTimeout(clock.timer);
  if (!clock.focused) return;
  const back =
    clock.cameFrom?.isConnected && !clock.cameFrom.closest('[data-toast]')
      ? clock.cameFrom
      : document.querySelector('main');
  if (back instanceof HTMLElement) back.focus({ preventScroll: true });
}

/**
 * Show a toast (spec/01 §9 durations: default 5 s, success 3 s, error 5 s, tip and confirm 6 s). The UI store keeps the list of
 * live toasts; Mantine notifications draws them. An action adds a link below the message.
 */
export function showToast(
  kind: ToastKind,
  message: string,
  duration = defaultDurations[kind],
  action?: ToastAction,
): string {
  // A success means the form that was short of required fields went through since: its warning is old news.
  if (kind === 'success') dismissRequiredFieldsToast();
  // The same news again (a teammate's third change in as many seconds, a third move) replaces its toast
  // rather than stacking another: a phone shows two at once, under the header, and repeats covered the
  // page. A move's Undo then undoes the latest move; earlier ones keep theirs in the history.
  // The same words once, whoever says them: a deleted account hears "Your account has been deleted." from
  // the page that deleted it and, as its socket is closed, from the session's end, in either order. The
  // first to show stays; a repeat of the same kind replaces it (newer news of the same thing).
  const shown = useUiStore.getState().toasts;
  const saidOtherwise = shown.find((same) => same.message === message && same.kind !== kind);
  if (saidOtherwise) return saidOtherwise.id;
  for (const same of shown) {
    if (same.kind === kind && same.message === message) dismissToast(same.id);
  }
  sequence += 1;
  const id = `toast-${sequence}`;
  useUiStore.getState().addToast({ id, kind, message, duration });
  notifications.show({
    id,
    message: action
      ? createElement(ToastMessageWithAction, { message, action, onFollow: () => notifications.hide(id) })
      : message,
    color: colors[kind],
    role: roles[kind],
    autoClose: false,
    withBorder: true,
    closeButtonProps: { 'aria-label': 'Dismiss notification' },
    'data-testid': `toast-${kind}`,
    'data-toast': '',
    onOpen: () => {
      if (clocks.has(id)) return;
      clocks.set(id, { left: duration, endsAt: 0, hovered: false, focused: false, cameFrom: null });
      runClock(id);
    },
    onMouseEnter: () => holdClock(id, { hovered: true }),
    onMouseLeave: () => holdClock(id, { hovered: false }),
    onFocus: (event) => {
      // From outside the toast (not from its Undo to its ×): remember where from.
      const from = event.relatedTarget;
      if (!event.currentTarget.contains(from)) holdClock(id, { focused: true, cameFrom: from });
    },
    onBlur: (event) => {
      if (!event.currentTarget.contains(event.relatedTarget)) holdClock(id, { focused: false });
    },
    onKeyDown: (event) => {
      if (event.key === 'Escape') notifications.hide(id);
    },
    onClose: () => {
      closeClock(id);
      useUiStore.getState().removeToast(id);
    },
  });
  return id;
}

/** Takes a toast away before its time (one that a newer one says better). */
export function dismissToast(id: string): void {
  notifications.hide(id);
  useUiStore.getState().removeToast(id);
}

/**
 * Takes away a standing "Please fill in all required fields.": the fields it spoke of are filled now (a
 * success, or a later submit refused for another reason), and left up it would blame the wrong thing.
 */
export function dismissRequiredFieldsToast(): void {
  for (const stale of useUiStore.getState().toasts) {
    if (stale.message === generalMessages.requiredFields) dismissToast(stale.id);
  }
}

export const toast = {
  success: (message: string, duration?: number, action?: ToastAction) =>
    showToast('success', message, duration, action),
  error: (message: string, duration?: number, action?: ToastAction) =>
    showToast('error', message, duration, action),
  info: (message: string, duration?: number) => showToast('info', message, duration),
  warning: (message: string, duration?: number) => showToast('warning', message, duration),
  /**
   * spec/01 §9: a toast that offers a choice (Undo after a quick transfer) stays 6 s, the tip and confirm
   * duration, long enough to reach its action.
   */
  confirm: (kind: ToastKind, message: string, action: ToastAction) =>
    showToast(kind, message, TOAST_TIP_MS, action),
  /** spec/01 §8: the session-expired toast stays 7 s. */
  sessionExpired: (message: string) => showToast('warning', message, TOAST_SESSION_EXPIRED_MS),
};
