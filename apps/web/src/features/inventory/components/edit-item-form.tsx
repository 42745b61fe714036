import { type ItemInstance, MAX_STACK_QUANTITY } from '@haversack/contracts';
import { Button, Group, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useEffect, useRef, useState } from 'react';
import { NumberField } from '../../../components/number-field';
import { serverFieldErrors, useFocusFirstError } from '../../../lib/form-feedback';
import { isApiError } from '../../../lib/http-client';
import { quantityError, quantityFieldProps } from '../../../lib/quantity-field';
import { useSingleFlight } from '../../../lib/use-single-flight';
import { useUpdateItem } from '../hooks/use-inventory-actions';
import { type UnsavedForm, useUnsavedForm } from '../hooks/use-unsaved-form';

/**
 * spec/02 §5 Edit item: name non-blank, quantity at least 1. The stack may change while the form is open (a
 * move, a gift or a take merged into it, shown live): an untouched quantity follows it, and a typed one is
 * sent with the number it was typed over, so that the server refuses it (409) rather than undo that change.
 */
export function EditItemForm({
  item,
  quantityRefusal = null,
  unsaved,
  onDone,
  onCancel = onDone,
}: {
  item: ItemInstance;
  /**
   * Why a new quantity cannot be saved now (it spends an inventory action, and that allowance is used up
   * this month): the field is disabled and says so; the name, which spends nothing, stays open.
   */
  quantityRefusal?: string | null;
  /** Where the item's dialog reads whether closing it would lose what was typed (it asks first then). */
  unsaved?: UnsavedForm;
  onDone: () => void;
  /** Cancel: leaves the form without saving; `onDone` when not given. */
  onCancel?: () => void;
}) {
  const update = useUpdateItem(item);
  const once = useSingleFlight();
  const [typedOver, setTypedOver] = useState(item.quantity);
  const latestQuantity = useRef(item.quantity);
  latestQuantity.current = item.quantity;
  const form = useFocusFirstError(
    useForm<{ name: string; quantity: number | string }>({
      initialValues: { name: item.name, quantity: item.quantity },
      validate: {
        name: (name) => (name.trim() === '' ? 'Name cannot be blank' : null),
        quantity: (q) => quantityError(q, null),
      },
    }),
  );

  const quantityTouched = Number(form.values.quantity) !== typedOver;
  // spec/01 §8 "You have unsaved changes.": a new name, or a quantity typed (not one that followed the
  // stack's changes), is lost by leaving the page or closing the item, so both ask first.
  useUnsavedForm(() => form.isDirty('name') || Number(form.getValues().quantity) !== typedOver, unsaved);
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a new number from the server moves the field.
  useEffect(() => {
    if (quantityTouched) return;
    form.setFieldValue('quantity', item.quantity);
    setTypedOver(item.quantity);
  }, [item.quantity]);

  return (
    <form
      onSubmit={form.onSubmit((values) =>
        // One change at a time: a second Enter before the first answer would be refused as a conflict.
        once(() =>
          update.mutateAsync(
            {
              ...(values.name.trim() !== item.name ? { name: values.name.trim() } : {}),
              ...(Number(values.quantity) !== typedOver
                ? { quantity: Number(values.quantity), expected_quantity: typedOver }
                : {}),
            },
            {
              onSuccess: onDone,
              onError: (error) => {
                const errors = serverFieldErrors(error, ['name', 'quantity'], 'item_instance.');
                if (errors) form.setErrors(errors);
                // Refused because the stack changed: the number it holds now is the one to type over.
                if (isApiError(error) && error.code === 'CONFLICT') setTypedOver(latestQuantity.current);
              },
            },
          ),
        ),
      )}
    >
      <Stack gap="sm">
        <TextInput label="Name" required data-autofocus {...form.getInputProps('name')} />
        <NumberField
          label="Quantity"
          {...quantityFieldProps}
          max={MAX_STACK_QUANTITY}
          {...form.getInputProps('quantity')}
          disabled={quantityRefusal !== null}
          description={quantityRefusal ?? undefined}
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={update.isPending}>
            Save
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
