import { MAX_STACK_QUANTITY } from '@haversack/contracts';
import { Button, Group, Modal, NumberInput, Stack, Text } from '@mantine/core';
import { useEffect, useState } from 'react';

export interface QuantityRequest {
  title: string;
  message: string;
  confirmLabel: string;
  /** The largest amount (the stack's quantity); null = only the server's cap (marketplace). */
  max: number | null;
  initial: number;
  onConfirm: (quantity: number) => void;
}

/** Asks how many of a stack to move or add; defaults to the whole stack (or 1 from the marketplace). */
export function QuantityDialog({
  request,
  onClose,
}: {
  request: QuantityRequest | null;
  onClose: () => void;
}) {
  const [quantity, setQuantity] = useState<number | string>(request?.initial ?? 1);
  // The last request keeps its texts while the modal animates out.
  const [shown, setShown] = useState<QuantityRequest | null>(request);
  useEffect(() => {
    if (request) {
      setQuantity(request.initial);
      setShown(request);
    }
  }, [request]);
  const amount = typeof quantity === 'number' ? quantity : Number.parseInt(quantity, 10);
  const largest = request?.max === null ? MAX_STACK_QUANTITY : (request?.max ?? 1);
  const valid = Number.isInteger(amount) && amount >= 1 && amount <= largest;
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
          <Text size="sm">{shown?.message}</Text>
          <NumberInput
            label="Quantity"
            value={quantity}
            onChange={setQuantity}
            min={1}
            max={request?.max ?? MAX_STACK_QUANTITY}
            allowDecimal={false}
            allowNegative={false}
            data-autofocus
            description={request?.max ? `1 to ${request.max}` : undefined}
            error={valid ? undefined : 'Enter a whole number in range'}
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
