import { useCallback, useState } from 'react';
import { flushSync } from 'react-dom';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { generalMessages } from '../../../lib/toast';

/**
 * spec/01 §8 "You have unsaved changes.": the question an item's dialog, or the loot's Take dialog, asks
 * before what was typed in one of its forms is thrown away. `ask(discard)` opens it; Discard changes runs
 * `discard`, Keep editing (or Escape, the question's alone while it is open) goes back to the form.
 */
export function useDiscardQuestion() {
  const [discard, setDiscard] = useState<(() => void) | null>(null);
  // Discard changes leaves the focus to the item, which gives it to the form's button: Mantine's own
  // return, a moment after the question closes, went to the thrown-away field and so to the page.
  const [discarded, setDiscarded] = useState(false);
  // Asked once the Escape that asks is over: Mantine's dialogs hear Escape on the window, and a browser
  // runs React's work between one listener and the next, so a question opened at once heard the same
  // Escape and closed again. Drawn at once then (flushSync), so that Mantine notes the field the focus is
  // to go back to before the question's focus trap moves it.
  const ask = useCallback((onDiscard: () => void) => {
    window.setTimeout(() =>
      flushSync(() => {
        setDiscarded(false);
        setDiscard(() => onDiscard);
      }),
    );
  }, []);
  const dismiss = useCallback(() => setDiscard(null), []);
  const question = (
    <ConfirmDialog
      opened={discard !== null}
      title="Close without saving?"
      message={generalMessages.unsavedChanges}
      confirmLabel="Discard changes"
      cancelLabel="Keep editing"
      returnFocus={!discarded}
      onConfirm={() => {
        setDiscarded(true);
        setDiscard(null);
        discard?.();
      }}
      onClose={dismiss}
    />
  );
  return { asking: discard !== null, ask, dismiss, question };
}
