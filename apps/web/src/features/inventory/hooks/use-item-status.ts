import type { ItemInstance } from '@haversack/contracts';
import { formatEnUs } from '@haversack/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '../../../lib/toast';
import { invalidateContainers } from '../api/inventory-api';
import { giveItem, type ItemStatusChange, setItemStatus } from '../api/item-status-api';
import { toastRefusal } from '../api/transfer-messages';

export const statusFailed = 'Failed to update item';

export function isEquipped(item: ItemInstance): boolean {
  return item.instance_data.is_equipped === true;
}

export function isAttuned(item: ItemInstance): boolean {
  return item.instance_data.is_attuned === true;
}

function statusToast(item: ItemInstance, change: ItemStatusChange): string {
  if (change.is_attuned !== undefined) {
    return change.is_attuned ? `Attuned to ${item.name}` : `Attunement to ${item.name} ended`;
  }
  return change.is_equipped ? `${item.name} equipped` : `${item.name} unequipped`;
}

/**
 * Equip or attune from the tile or the dialog. A refusal shows the server's reason, e.g. "A character can
 * be attuned to at most 3 items. End an attunement first."
 */
export function useItemStatus(item: ItemInstance) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: ItemStatusChange) => setItemStatus(item.id, change),
    onSuccess: (_updated, change) => toast.success(statusToast(item, change)),
    onError: (error) => toastRefusal(error, statusFailed),
    onSettled: () => invalidateContainers(queryClient, [item.container_id]),
  });
}

export interface GiveRequest {
  characterId: string;
  characterName: string;
  /** The receiver's primary container, refreshed after the gift. */
  containerId: string | null;
  quantity: number;
}

/** Hands (part of) the stack to another character of the party; the dialog shows a refusal itself. */
export function useGiveItem(item: ItemInstance) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: GiveRequest) =>
      giveItem(item.id, { character_id: request.characterId, quantity: request.quantity }),
    onSuccess: (_result, request) =>
      toast.success(`You gave ${formatEnUs(request.quantity)} × ${item.name} to ${request.characterName}`),
    onSettled: (result, _error, request) =>
      invalidateContainers(
        queryClient,
        [item.container_id, request.containerId].filter((id): id is string => id !== null),
        // The whole stack was given: it is no longer this character's to look at.
        result?.source_instance === null ? [item.id] : [],
      ),
  });
}
