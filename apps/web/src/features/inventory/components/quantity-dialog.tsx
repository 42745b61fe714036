import { formatEnUs, inventoryMessages, MAX_STACK_QUANTITY } from '@haversack/contracts';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { NumberField } from '../../../components/number-field';
import { isApiError } from '../../../lib/http-client';
import { quantityError, quantityFieldProps } from '../../../lib/quantity-field';
import { toast } from '../../../lib/toast';
import { containerQuery, itemInstanceQuery } from '../api/inventory-api';
import { isCapacityRefusal, transferErrorMessage } from '../api/transfer-messages';
import { capacityRefusalText, weightRoomFor } from '../lib/weight-room';

export interface QuantityRequest {
  title: string;
  /** What is asked, given how many the stack holds now. */
  message: string | ((left: number) => string);
  confirmLabel: string;
  /** The largest amount (the stack's quantity); null = only the server's cap (marketplace). */
  max: number | null;
  initial: number;
  /**
   * Moves or adds that many. A promise keeps the dialog open until it settles: a capacity refusal (spec/02
   * §5) shows on the quantity, with the number typed kept to be changed; anything else closes it (and is
   * toasted by the action).
   */
  onConfirm: (quantity: number) => Promise<unknown> | undefined;
  /**
   * The stack being moved: the dialog follows it while open, as teammates may move or use part of it
   * meanwhile (a live update refreshes its container). A smaller stack lowers the most and the number; a
   * stack gone closes the dialog and says so.
   */
  stack?: { containerId: string; itemId: string };
  /** Where the items go, and what one weighs (when the stack is not followed): says how many fit after a refusal. */
  destination?: { containerId: string; weightEach?: number };
}

/** How many the request's stack holds now: its live count once read, else what it held when asked. */
function useLiveStack(request: QuantityRequest | null, sending: boolean, onGone: () => void) {
  const stack = request?.stack;
  // Not while the move is on its way: a whole stack moved away would read as gone before the answer closes it.
  const live = useQuery({
    ...itemInstanceQuery(stack?.containerId ?? '', stack?.itemId ?? ''),
    enabled: stack !== undefined && !sending,
  });
  const movedAway =
    live.data !== undefined && stack !== undefined && live.data.container_id !== stack.containerId;
  const gone = movedAway || (isApiError(live.error) && live.error.status === 404);
  useEffect(() => {
    if (!gone) return;
    toast.error(inventoryMessages.itemGone);
    onGone();
  }, [gone, onGone]);
  const current = stack && live.data && !gone ? live.data : null;
  return {
    largest: request ? (current?.quantity ?? request.max) : null,
    weightEach: current?.weight ?? request?.destination?.weightEach ?? null,
  };
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
  const [sending, setSending] = useState(false);
  // A capacity refusal of the number confirmed, until another number is typed.
  const [refusal, setRefusal] = useState<string | null>(null);
  useEffect(() => {
    if (request) {
      setTyped(null);
      setShown(request);
      setRefusal(null);
    }
  }, [request]);
  const { largest: max, weightEach } = useLiveStack(request, sending, onClose);
  // Read once refused: the destination as it is now, its refetch following the refusal.
  const destinationId = request?.destination?.containerId ?? '';
  const destination = useQuery({
    ...containerQuery(destinationId),
    enabled: refusal !== null && destinationId !== '',
  });
  const room =
    refusal === inventoryMessages.weightExceeded && destination.data && weightEach !== null
      ? weightRoomFor(destination.data.capacity, weightEach)
      : null;
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
    if (!request || !valid || sending) return;
    const done = request.onConfirm(amount);
    if (!done) {
      onClose();
      return;
    }
    setSending(true);
    setRefusal(null);
    done.then(
      () => {
        setSending(false);
        onClose();
      },
      (error: unknown) => {
        setSending(false);
        if (isCapacityRefusal(error)) setRefusal(transferErrorMessage(error));
        else onClose();
      },
    );
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
          <NumberField
            label="Quantity"
            value={quantity}
            onChange={(value) => {
              setTyped(value);
              setRefusal(null);
            }}
            {...quantityFieldProps}
            max={largest}
            data-autofocus
            description={max ? `1 to ${formatEnUs(max)}` : undefined}
            error={
              problem ??
              (refusal
                ? capacityRefusalText(
                    refusal,
                    room,
                    destination.data && weightEach !== null
                      ? { each: weightEach, capacity: destination.data.capacity }
                      : undefined,
                  )
                : null)
            }
          />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={!valid} loading={sending}>
              {shown?.confirmLabel ?? 'Confirm'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
