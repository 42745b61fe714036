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
        try {
          await undoMove(entry);
          toast.info(transferUndone);
        } catch (cause) {
          toastTransferFailure(cause);
        } finally {
          await settled();
        }
      })(),
  });
}
