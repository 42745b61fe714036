import { inventoryMessages, MAX_STACK_QUANTITY } from '@haversack/contracts';
import { Button, Group, Modal, NumberInput, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { isApiError } from '../../../lib/http-client';
import { quantityError, quantityFieldProps } from '../../../lib/quantity-field';
import { toast } from '../../../lib/toast';
import { itemInstanceQuery } from '../api/inventory-api';

export interface QuantityRequest {
  title: string;
  /** What is asked, given how many the stack holds now. */
  message: string | ((left: number) => string);
  confirmLabel: string;
  /** The largest amount (the stack's quantity); null = only the server's cap (marketplace). */
  max: number | null;
  initial: number;
  onConfirm: (quantity: number) => void;
  /**
   * The stack being moved: the dialog follows it while open, as teammates may move or use part of it
   * meanwhile (a live update refreshes its container). A smaller stack lowers the most and the number; a
   * stack gone closes the dialog and says so.
   */
  stack?: { containerId: string; itemId: string };
}

/** How many the request's stack holds now: its live count once read, else what it held when asked. */
function useLiveLargest(request: QuantityRequest | null, onGone: () => void): number | null {
  const stack = request?.stack;
  const live = useQuery({
    ...itemInstanceQuery(stack?.containerId ?? '', stack?.itemId ?? ''),
    enabled: stack !== undefined,
  });
  const movedAway =
    live.data !== undefined && stack !== undefined && live.data.container_id !== stack.containerId;
  const gone = movedAway || (isApiError(live.error) && live.error.status === 404);
  useEffect(() => {
    if (!gone) return;
    toast.error(inventoryMessages.itemGone);
    onGone();
  }, [gone, onGone]);
  if (!request) return null;
  if (stack && live.data && !gone) return live.data.quantity;
  return request.max;
}

/** Asks how many of a stack to move or add; defaults to the whole stack (or 1 from the marketplace). */
export function QuantityDialog({
  request,
  onClose,
}: {
  request: QuantityRequest | null;
  onClose: () => void;
}) {
  // What the user typed; until they type, the number is the request's own, within what the stack holds now.
  const [typed, setTyped] = useState<number | string | null>(null);
  // The last request keeps its texts while the modal animates out.
  const [shown, setShown] = useState<QuantityRequest | null>(request);
  useEffect(() => {
    if (request) {
      setTyped(null);
      setShown(request);
    }
  }, [request]);
  const max = useLiveLargest(request, onClose);
  const largest = max === null ? MAX_STACK_QUANTITY : max;
  // A stack that shrank while the dialog was open brings the number down with it, unless the user typed
  // one (which then shows its error).
  const quantity = typed ?? Math.min(request?.initial ?? 1, largest);
  const amount = Number(quantity);
  // The most is what the stack holds now, or for the marketplace only what a stack ever holds.
  const problem = quantityError(quantity, max);
  const valid = problem === null;
  // While the modal animates out (no request), its text keeps the last count it showed.
  const [lastLargest, setLastLargest] = useState(largest);
  useEffect(() => {
    if (request) setLastLargest(largest);
  }, [request, largest]);
  const count = request ? largest : lastLargest;
  const message = typeof shown?.message === 'function' ? shown.message(count) : shown?.message;
  const confirm = () => {
    if (!request || !valid) return;
    request.onConfirm(amount);
    onClose();
  };
  return (
    <Modal
      opened={request !== null}
      onClose={onClose}
      title={shown?.title}
      closeButtonProps={{ 'aria-label': 'Close' }}
      centered
    >
      <form
        onSubmit={(event) => {
          event.preventDefault();
          confirm();
        }}
      >
        <Stack gap="md">
          <Text size="sm">{message}</Text>
          <NumberInput
            label="Quantity"
            value={quantity}
            onChange={setTyped}
            {...quantityFieldProps}
            max={largest}
            data-autofocus
            description={max ? `1 to ${max}` : undefined}
            error={problem}
          />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={!valid}>
              {shown?.confirmLabel ?? 'Confirm'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
