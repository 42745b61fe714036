import { formatEnUs, type ItemInstance } from '@haversack/contracts';
import { Button, Group, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { NumberField } from '../../../components/number-field';
import { quantityFieldProps } from '../../../lib/quantity-field';
import { useSingleFlight } from '../../../lib/use-single-flight';
import { useSplitItem } from '../hooks/use-inventory-actions';
import { type UnsavedForm, useUnsavedForm } from '../hooks/use-unsaved-form';

/** spec/02 §4: the default split is half the stack (rounded down, at least 1). */
export function defaultSplitAmount(quantity: number): number {
  return Math.max(1, Math.floor(quantity / 2));
}

/** spec/02 §4/§5: a split needs 1 <= amount < quantity. */
export function isValidSplit(amount: number, quantity: number): boolean {
  return Number.isInteger(amount) && amount >= 1 && amount < quantity;
}

export function SplitItemForm({
  item,
  unsaved,
  onDone,
  onCancel = onDone,
}: {
  item: ItemInstance;
  unsaved?: UnsavedForm;
  onDone: () => void;
  /** Cancel: leaves the form without saving; `onDone` when not given. */
  onCancel?: () => void;
}) {
  const [initial] = useState(() => defaultSplitAmount(item.quantity));
  const [amount, setAmount] = useState<number | string>(initial);
  useUnsavedForm(() => String(amount) !== String(initial), unsaved);
  const split = useSplitItem(item);
  const once = useSingleFlight();
  const value = typeof amount === 'number' ? amount : Number.parseInt(amount, 10);
  const valid = isValidSplit(value, item.quantity);
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        if (valid) once(() => split.mutateAsync(value, { onSuccess: onDone }));
      }}
    >
      <Stack gap="sm">
        <Text size="sm">
          Move some of the {formatEnUs(item.quantity)} into a new stack in the same container.
        </Text>
        <NumberField
          label="Split amount"
          value={amount}
          onChange={setAmount}
          {...quantityFieldProps}
          max={item.quantity - 1}
          description={`1 to ${formatEnUs(item.quantity - 1)}`}
          error={valid ? undefined : `Choose between 1 and ${formatEnUs(item.quantity - 1)}`}
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" disabled={!valid || split.isPending} loading={split.isPending}>
            Split Stack
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
