import { inventoryMessages, type LedgerTransaction } from '@haversack/contracts';
import { Button } from '@mantine/core';
import { IconArrowBackUp } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { isApiError } from '../../../lib/http-client';
import { toast } from '../../../lib/toast';
import { useSingleFlight } from '../../../lib/use-single-flight';
import { invalidateContainers, undoMove } from '../../inventory/api/inventory-api';
import { transactionKeys } from '../api/transactions-api';

const focusIsLost = () => document.activeElement === null || document.activeElement === document.body;

/**
 * DESIGN §4 Undo from the history: my own move goes back under the same rules, as a new entry linked to
 * this one. The server says why when it cannot (moved on since, already undone, a full container).
 *
 * Once undone the button goes (the entry now reads "Undone"); if it had the focus, `focusWhenGone` names
 * where the focus goes instead of falling to the page.
 */
export function UndoMoveButton({
  transaction,
  focusWhenGone,
}: {
  transaction: LedgerTransaction;
  focusWhenGone?: () => HTMLElement | null;
}) {
  const queryClient = useQueryClient();
  const once = useSingleFlight();
  const pressedWithFocus = useRef(false);
  const focusWhenGoneRef = useRef(focusWhenGone);
  useEffect(() => {
    focusWhenGoneRef.current = focusWhenGone;
  });
  // On unmount: the refreshed list no longer offers this Undo. The busy button had already lost the focus
  // (a disabled button cannot hold it), so "had it when pressed" and "nothing has it now" decide; anything
  // that took the focus meanwhile keeps it.
  useEffect(
    () => () => {
      if (!pressedWithFocus.current || !focusIsLost()) return;
      focusWhenGoneRef.current?.()?.focus();
    },
    [],
  );
  const undo = useMutation({
    mutationFn: () => undoMove(transaction.id),
    onSuccess: () => toast.success(inventoryMessages.undone),
    onError: (error) =>
      toast.error(
        (isApiError(error) && error.serverMessage) || 'The move could not be undone. Please try again.',
      ),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: transactionKeys.all }),
        invalidateContainers(
          queryClient,
          [transaction.source_location_data.id, transaction.destination_location_data.id].filter(
            (id): id is string => id !== null,
          ),
        ),
      ]),
  });
  return (
    <Button
      variant="subtle"
      size="compact-xs"
      className="haversack-touch-target haversack-finger-target"
      leftSection={<IconArrowBackUp size={14} aria-hidden="true" />}
      loading={undo.isPending}
      onClick={(event) => {
        pressedWithFocus.current = document.activeElement === event.currentTarget;
        once(() => undo.mutateAsync());
      }}
      aria-label={`Undo: ${transaction.transaction_summary}`}
      data-testid="history-undo"
    >
      Undo
    </Button>
  );
}
