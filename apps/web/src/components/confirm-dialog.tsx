import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { type ReactNode, useEffect, useRef, useState } from 'react';

interface ConfirmDialogProps {
  opened: boolean;
  title: string;
  message: string;
  confirmLabel: string;
  /** The button that calls the action off (default "Cancel"). */
  cancelLabel?: string;
  onConfirm: () => void;
  onClose: () => void;
  loading?: boolean;
  /** Red for destructive actions (delete, remove, leave). */
  danger?: boolean;
  /** Why the action was refused, said in the dialog that asked for it (it stays open to choose again). */
  error?: string | null;
  /** A choice the action takes (a plan to grant, say), shown above the message. */
  children?: ReactNode;
  /** Whether closing gives the focus back to where it was when the dialog opened (Mantine's default). */
  returnFocus?: boolean;
}

/**
 * A confirmation before an action that cannot be taken back. It confirms once: a double click or a second
 * Enter lands before `loading` has drawn the button busy, and would send the action twice (a success
 * toast, then "not found" for the same delete). Once the action has settled with the dialog still open
 * (it failed, say), or when the dialog opens again, it may be confirmed again.
 */
export function ConfirmDialog({
  opened,
  title,
  message,
  confirmLabel,
  cancelLabel = 'Cancel',
  onConfirm,
  onClose,
  loading = false,
  danger = true,
  error = null,
  children,
  returnFocus = true,
}: ConfirmDialogProps) {
  const confirmed = useRef(false);
  const wasLoading = useRef(loading);
  const confirmButton = useRef<HTMLButtonElement>(null);
  // Mantine notes where the focus was, to give it back on close, only when `opened` turns true: a dialog
  // drawn already open (the unsaved-changes one, loaded on demand as it is asked) gave it to <body> instead
  // of to the link that asked. Drawn closed first, it opens a moment later and notes it.
  const [drawn, setDrawn] = useState(false);
  useEffect(() => setDrawn(true), []);
  useEffect(() => {
    if (opened) confirmed.current = false;
  }, [opened]);
  useEffect(() => {
    if (wasLoading.current && !loading) {
      confirmed.current = false;
      // Refused with the dialog still open: the focus parked on the dialog goes back to its button.
      const dialog = confirmButton.current?.closest<HTMLElement>('[role="dialog"]');
      if (dialog && document.activeElement === dialog) confirmButton.current?.focus();
    }
    wasLoading.current = loading;
  }, [loading]);
  const confirm = () => {
    if (confirmed.current || loading) return;
    confirmed.current = true;
    // The button is about to be busy, so disabled, and the browser would drop its focus to the page for
    // as long as the request runs (a keyboard user's next Tab starts at the top): the dialog keeps it.
    if (document.activeElement === confirmButton.current)
      confirmButton.current?.closest<HTMLElement>('[role="dialog"]')?.focus({ preventScroll: true });
    onConfirm();
  };
  return (
    <Modal
      opened={opened && drawn}
      onClose={onClose}
      returnFocus={returnFocus}
      closeButtonProps={{ 'aria-label': 'Close' }}
      title={title}
      centered
    >
      <Stack gap="md">
        {children}
        <Text size="sm">{message}</Text>
        {error ? (
          <Alert color="red" variant="light" role="alert" data-testid="confirm-dialog-error">
            {error}
          </Alert>
        ) : null}
        <Group justify="flex-end" gap="sm">
          {/* The safe choice has the focus as it opens: Enter does not take the action by accident. */}
          <Button variant="default" onClick={onClose} disabled={loading} data-autofocus>
            {cancelLabel}
          </Button>
          {/* red.9: white on Mantine's default red is about 3.7:1, under WCAG AA. */}
          <Button
            ref={confirmButton}
            color={danger ? 'red.9' : undefined}
            onClick={confirm}
            loading={loading}
          >
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
