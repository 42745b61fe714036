import { useMutationState } from '@tanstack/react-query';
import type { TransferRequest } from '../api/inventory-api';

/** The key of every move of a stack (useTransferItem), so that a tile can tell that its move is on the way. */
export const transferMutationKey = ['inventory', 'transfer'] as const;

/**
 * Whether a move of this stack is waiting for the server's answer: its tile shows it (dimmed, a spinner) and
 * offers no second move meanwhile, which would only find the stack gone.
 */
export function useIsMoving(itemId: string): boolean {
  return (
    useMutationState({
      filters: {
        mutationKey: transferMutationKey,
        status: 'pending',
        predicate: (mutation) =>
          (mutation.state.variables as TransferRequest | undefined)?.itemInstanceId === itemId,
      },
      select: (mutation) => mutation.mutationId,
    }).length > 0
  );
}
