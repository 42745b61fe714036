import { type Container, type LootTakeResult, lootMessages } from '@haversack/contracts';
import { type QueryClient, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { isApiError } from '../../../lib/http-client';
import { toast } from '../../../lib/toast';
import { transactionKeys } from '../../activity/api/transactions-api';
import { partyCharactersQuery } from '../../characters/api/characters-api';
import { invalidateContainers } from '../../inventory/api/inventory-api';
import { invalidateLoot, lootErrorMessage, type TakeRequest, takeLoot } from '../api/loot-api';

/**
 * Why a take or claim failed, as the user should read it: a refused destination or quantity names the
 * field's reason ("Choose a container of one of your characters in this party.", "Only 2 left in this
 * loot."), anything else the server's message or, for a claim, "Failed to claim item" (spec/02 §8), for a
 * take "Failed to take item".
 */
export function takeErrorMessage(error: unknown, kind: 'take' | 'claim' = 'take'): string {
  if (isApiError(error) && error.details[0]?.message) return error.details[0].message;
  return lootErrorMessage(error, kind === 'claim' ? lootMessages.claimFailed : lootMessages.takeFailed);
}

/**
 * How many of a stack to take: one at first (the spec leaves it open; in a shared hoard Take defaulting to
 * everything made it Claim by another name, review newgm L5), the number to change for more. The stack may
 * shrink while the form is open (someone else took part of it: a live event, or our own take refused with
 * "Only 1 left in this loot.", refreshes the loot), and a number above what is left then comes down to it,
 * so that Take works again at once. A number typed above the stack stays as typed, with its error.
 */
export const TAKE_FIRST_OFFER = 1;

export function useTakeQuantity(left: number) {
  const [quantity, setQuantity] = useState<number | string>(Math.min(TAKE_FIRST_OFFER, left));
  const amount = typeof quantity === 'number' ? quantity : Number.parseInt(quantity, 10);
  // Adjusted while rendering, not in an effect: the form never shows the old number against the new size.
  const [seenLeft, setSeenLeft] = useState(left);
  if (left !== seenLeft) {
    setSeenLeft(left);
    if (amount > left) setQuantity(left);
  }
  const valid = Number.isInteger(amount) && amount >= 1 && amount <= left;
  return { quantity, setQuantity, amount, valid };
}

/**
 * A take form whose stack left the loot (someone else took all of it, or our refused take refreshed the
 * loot and it was gone) closes, and says why once: the form that would have shown it is gone. Not while
 * our own take is in flight: its live event may empty the stack before its answer arrives.
 */
export function useCloseWhenTaken(
  gone: boolean,
  failure: unknown,
  onClose: () => void,
  kind: 'take' | 'claim' = 'take',
) {
  useEffect(() => {
    if (!gone) return;
    toast.error(failure ? takeErrorMessage(failure, kind) : lootMessages.alreadyTaken);
    onClose();
  }, [gone, failure, onClose, kind]);
}

export interface TakeLootRequest extends TakeRequest {
  /** The loot's party: its list of loot is refreshed too. */
  partyId: string;
}

/**
 * After a take, whatever happened: the loot (and the party's list of loot), the container it went to and
 * the party's ledger.
 */
export async function afterTake(queryClient: QueryClient, request: Omit<TakeLootRequest, 'itemInstanceId'>) {
  await Promise.all([
    invalidateLoot(queryClient, request.partyId, request.lootId),
    invalidateContainers(queryClient, [request.targetContainerId]),
    queryClient.invalidateQueries({ queryKey: transactionKeys.party(request.partyId) }),
  ]);
}

/**
 * POST loot_instances/{id}/take: part or all of a stack into a container of one of my characters in the
 * party, with the "Item taken successfully" toast. A refusal is not toasted here: a form shows it (the
 * item's Take form), and a take with no form left open to show it (a drop, the quantity prompt) toasts it
 * in its own `mutate` call (docs/decisions.md: an error shows once).
 */
export function useTakeLoot(options: { onSuccess?: (result: LootTakeResult) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: TakeLootRequest) => takeLoot(request),
    onSuccess: (result) => {
      toast.success(lootMessages.taken);
      options.onSuccess?.(result);
    },
    // A refusal may mean someone else took it first: refresh either way.
    onSettled: (_result, _error, request) => afterTake(queryClient, request),
  });
}

/**
 * Where loot of a party may go (spec/02 §4 loot to container): the containers I can act on of the
 * party's characters, never the party stash. Until the party's characters are known, every character
 * container I can act on (the server refuses the others with its reason).
 */
export function useLootDestinations(partyId: string | null, containers: Container[]): Container[] {
  const characters = useQuery({ ...partyCharactersQuery(partyId ?? ''), enabled: partyId !== null });
  const inParty = characters.data ? new Set(characters.data.characters.map((c) => c.id)) : null;
  return containers.filter(
    (c) => c.can_act && c.character_id !== null && (inParty === null || inParty.has(c.character_id ?? '')),
  );
}
