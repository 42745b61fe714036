import { inventoryMessages } from '@haversack/contracts';
import { toast } from '../../../lib/toast';
import { type transferItem, undoMove } from '../api/inventory-api';
import { toastTransferFailure } from '../api/transfer-messages';

export const transferUndone = 'Transfer undone';

type TransferResult = Awaited<ReturnType<typeof transferItem>>;

/**
 * The success toast of a move, with its Undo (DESIGN §4: the server moves the units back as a new move
 * linked to the move's ledger entry, under the same rules, once). A confirm toast (spec/01 §9: 6 s), so the
 * Undo can be reached; `settled` refreshes what the undo touched.
 */
export function toastMoveWithUndo(result: TransferResult, settled: () => Promise<unknown>) {
  const [entry] = result.transaction_ids;
  const message = result.message || inventoryMessages.transferred;
  if (!entry) {
    toast.success(message);
    return;
  }
  toast.confirm('success', message, {
    label: 'Undo',
    onClick: () =>
      void (async () => {
        let undone = false;
        try {
          await undoMove(entry);
          toast.info(transferUndone);
          undone = true;
        } catch (cause) {
          toastTransferFailure(cause);
        } finally {
          await settled();
        }
        if (undone) focusMovedBack(result);
      })(),
  });
}

/**
 * The Undo's toast closes holding the focus, and gives it to the page (`<main>`) when the tile it came from
 * went with the move: the tile of the item moved back takes it instead, keeping the keyboard's place in the
 * grid, as the history's Undo focuses the undone entry. The stack left behind (a part was moved) or the
 * stack that went whole; else the grid's own Tab stop when one grid is shown. Focus anywhere else (where it
 * came from, or where the user moved it meanwhile) stays.
 */
function focusMovedBack(result: TransferResult) {
  const ids = [result.source_instance?.id, ...result.target_instances.map((stack) => stack.id)];
  // A frame for the grid to draw what was read again.
  requestAnimationFrame(() => {
    const active = document.activeElement;
    if (active && active !== document.body && active.tagName !== 'MAIN') return;
    const grids = document.querySelectorAll('[data-item-grid]');
    const tile =
      ids
        .filter((id): id is string => id !== undefined)
        .map((id) =>
          document.querySelector<HTMLElement>(`[data-item-id="${CSS.escape(id)}"] [data-testid="item-tile"]`),
        )
        .find((found) => found) ??
      (grids.length === 1
        ? grids[0]?.querySelector<HTMLElement>('[data-testid="item-tile"][tabindex="0"]')
        : null);
    tile?.focus();
  });
}
