import type { Container, ItemInstance, ItemInstanceUpdate } from '@haversack/contracts';
import { formatEnUs, planConversion } from '@haversack/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '../../../lib/toast';
import {
  addFromTemplate,
  type ConversionRequest,
  convertCurrency,
  deleteContainer,
  destroyItem,
  invalidateContainers,
  mergeItem,
  splitItem,
  type TransferRequest,
  transferItem,
  updateItem,
} from '../api/inventory-api';
import { toastRefusal, toastTransferFailure } from '../api/transfer-messages';
import { toastMoveWithUndo } from './move-undo';
import { transferMutationKey } from './use-moving-item';

export const mergeFailed = 'Failed to merge stacks';
export const conversionFailed = 'Failed to convert coins';
export const deleteContainerFailed = 'Failed to delete container';

/** POST containers/transfer with the spec/02 §8 toasts; refreshes both containers. */
/**
 * `showsRefusal`: which refusals the caller says itself, beside the field to change (the quantity dialog
 * says a capacity refusal on its quantity), so that they are not toasted as well.
 */
export function useTransferItem(
  options: { quiet?: boolean; showsRefusal?: (error: unknown) => boolean } = {},
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: transferMutationKey,
    mutationFn: (request: TransferRequest) => transferItem(request),
    onSuccess: (result, request) => {
      // Undo is offered after every move, by mouse, keyboard or menu, as after a quick transfer.
      if (!options.quiet)
        toastMoveWithUndo(result, () =>
          invalidateContainers(queryClient, [request.sourceContainerId, request.targetContainerId]),
        );
    },
    onError: (error) => {
      if (!options.showsRefusal?.(error)) toastTransferFailure(error);
    },
    onSettled: (result, _error, request) =>
      invalidateContainers(
        queryClient,
        [request.sourceContainerId, request.targetContainerId],
        result?.source_instance === null ? [request.itemInstanceId] : [],
      ),
  });
}

export interface AddFromMarketRequest {
  templateId: string;
  templateName: string;
  containerId: string;
  quantity: number;
}

/**
 * Marketplace → container: POST item_instances (spec/02 §4). `showsRefusal`: which refusals the caller says
 * in its own dialog, beside the fields to change, so that they are not toasted as well.
 */
export function useAddFromMarket(options: { showsRefusal?: (error: unknown) => boolean } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: AddFromMarketRequest) =>
      addFromTemplate(request.templateId, request.containerId, request.quantity),
    onSuccess: (_stacks, request) =>
      toast.success(`Added ${formatEnUs(request.quantity)} × ${request.templateName}`),
    onError: (error) => {
      if (!options.showsRefusal?.(error)) toastTransferFailure(error);
    },
    // Not awaited: the add is done once answered, and its dialog closes then; the container's refetch
    // (a page of items, its capacity) follows on screen instead of holding the dialog open for a second.
    onSettled: (_stacks, _error, request) => {
      void invalidateContainers(queryClient, [request.containerId]);
    },
  });
}

export function useUpdateItem(item: ItemInstance) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: ItemInstanceUpdate) => updateItem(item.id, change),
    onSuccess: () => toast.success('Item updated'),
    onSettled: () => invalidateContainers(queryClient, [item.container_id]),
  });
}

/** spec/02 §4: a split failure is only logged; the client's error toast still names it. */
export function useSplitItem(item: ItemInstance) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (quantity: number) => splitItem(item.id, quantity),
    onSuccess: () => toast.success('Stack split'),
    onError: (error) => console.error('Split failed', error),
    onSettled: () => invalidateContainers(queryClient, [item.container_id]),
  });
}

export function useDestroyItem(item: ItemInstance) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => destroyItem(item.id),
    onSuccess: () => toast.success(`${item.name} destroyed`),
    onSettled: (_result, error) =>
      invalidateContainers(queryClient, [item.container_id], error ? [] : [item.id]),
  });
}

/** POST item_instances/{id}/merge: this stack joins the target stack; a refusal shows the server's reason. */
export function useMergeItem(item: ItemInstance) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (targetInstanceId: string) => mergeItem(item.id, targetInstanceId),
    onSuccess: (merged) => toast.success(`Stacks merged: ${merged.name} ×${formatEnUs(merged.quantity)}`),
    onError: (error) => toastRefusal(error, mergeFailed),
    // This stack joins the target and is gone.
    onSettled: (_merged, error) =>
      invalidateContainers(queryClient, [item.container_id], error ? [] : [item.id]),
  });
}

/** POST containers/{id}/convert_currency; a refusal (422) shows the server's reason. */
export function useConvertCurrency(containerId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    // `held`: how many of the "from" coin the container holds, to say how many were converted (the server
    // converts by the same `planConversion` and answers with the container only).
    mutationFn: ({ held: _held, ...request }: ConversionRequest & { held: number }) =>
      convertCurrency(containerId, request),
    onSuccess: (_container, { held, ...request }) => {
      const plan = planConversion(request.from, request.to, held, request.quantity);
      toast.success(
        plan
          ? `Converted ${formatEnUs(plan.spend)} ${request.from} to ${formatEnUs(plan.receive)} ${request.to}`
          : `Coins converted from ${request.from} to ${request.to}`,
      );
    },
    onError: (error) => toastRefusal(error, conversionFailed),
    onSettled: () => invalidateContainers(queryClient, [containerId]),
  });
}

/**
 * DELETE containers/{id}, its items going to `destination` when it holds any. The deleted container's own
 * entry is left to expire: the caller moves the panel away from it, and refetching it would only 404.
 */
export function useDeleteContainer(container: Container) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (destination: string | null) => deleteContainer(container.id, destination),
    onSuccess: async (_result, destination) => {
      toast.success(`Container "${container.name}" deleted`);
      await invalidateContainers(queryClient, destination ? [destination] : []);
    },
    onError: (error) => toastRefusal(error, deleteContainerFailed),
  });
}
