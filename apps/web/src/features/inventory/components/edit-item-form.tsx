import { type ItemInstance, MAX_STACK_QUANTITY } from '@haversack/contracts';
import { Button, Group, NumberInput, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { serverFieldErrors, useFocusFirstError } from '../../../lib/forms';
import { useUpdateItem } from '../hooks/use-inventory-actions';

/** spec/02 §5 Edit item: name non-blank, quantity at least 1. */
export function EditItemForm({ item, onDone }: { item: ItemInstance; onDone: () => void }) {
  const update = useUpdateItem(item);
  const form = useFocusFirstError(
    useForm<{ name: string; quantity: number | string }>({
      initialValues: { name: item.name, quantity: item.quantity },
      validate: {
        name: (name) => (name.trim() === '' ? 'Name cannot be blank' : null),
        quantity: (q) =>
          Number.isInteger(Number(q)) && Number(q) >= 1 ? null : 'Quantity must be at least 1',
      },
    }),
  );
  return (
    <form
      onSubmit={form.onSubmit((values) =>
        update.mutate(
          {
            ...(values.name.trim() !== item.name ? { name: values.name.trim() } : {}),
            quantity: Number(values.quantity),
          },
          {
            onSuccess: onDone,
            onError: (error) => {
              const errors = serverFieldErrors(error, ['name', 'quantity'], 'item_instance.');
              if (errors) form.setErrors(errors);
            },
          },
        ),
      )}
    >
      <Stack gap="sm">
        <TextInput label="Name" required data-autofocus {...form.getInputProps('name')} />
        <NumberInput
          label="Quantity"
          min={1}
          max={MAX_STACK_QUANTITY}
          allowDecimal={false}
          allowNegative={false}
          {...form.getInputProps('quantity')}
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onDone}>
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
