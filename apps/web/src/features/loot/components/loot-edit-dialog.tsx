import { type LootInstance, lootInstanceUpdateSchema, lootMessages } from '@haversack/contracts';
import { Alert, Button, Group, Modal, Stack, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMediaQuery } from '@mantine/hooks';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { markInvalidFields, serverFieldErrors, useFocusFirstError } from '../../../lib/form-feedback';
import { validateWith } from '../../../lib/forms';
import { toast } from '../../../lib/toast';
import { invalidateLoot, lootErrorMessage, updateLootInstance } from '../api/loot-api';

interface LootEditValues {
  name: string;
  description: string;
  source: string;
  location_name: string;
}

const fields: (keyof LootEditValues)[] = ['name', 'description', 'source', 'location_name'];

/** The GM renames a loot, or says where it came from and where it lies (PATCH loot_instances/{id}). */
export function LootEditDialog({
  loot,
  opened,
  onClose,
}: {
  loot: LootInstance;
  opened: boolean;
  onClose: () => void;
}) {
  const phone = useMediaQuery('(max-width: 47.99em)');
  const queryClient = useQueryClient();
  const form = useFocusFirstError(
    useForm<LootEditValues>({
      mode: 'controlled',
      initialValues: {
        name: loot.name,
        description: loot.description,
        source: loot.source,
        location_name: loot.instance_data.location_name ?? '',
      },
      validate: validateWith(lootInstanceUpdateSchema),
      enhanceGetInputProps: markInvalidFields,
    }),
  );
  const save = useMutation({
    mutationFn: (values: LootEditValues) =>
      updateLootInstance(loot.id, {
        name: values.name.trim(),
        description: values.description.trim(),
        source: values.source.trim(),
        location_name: values.location_name.trim() || null,
      }),
    onSuccess: () => {
      toast.success(lootMessages.updated);
      onClose();
    },
    onError: (error) => {
      const fieldErrors = serverFieldErrors(error, fields, 'loot_instance.');
      // Any other refusal shows in the dialog's alert below, once (no toast as well).
      if (fieldErrors) form.setErrors(fieldErrors);
    },
    onSettled: () => invalidateLoot(queryClient, loot.party_id, loot.id),
  });

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={`Edit ${loot.name}`}
      closeButtonProps={{ 'aria-label': 'Close' }}
      fullScreen={phone === true}
      centered
    >
      <form onSubmit={form.onSubmit((values) => save.mutate(values))} noValidate aria-label="Loot details">
        <Stack gap="md">
          <TextInput label="Name" required maxLength={99} data-autofocus {...form.getInputProps('name')} />
          <TextInput
            label="Source"
            placeholder="e.g. Goblin boss"
            maxLength={100}
            {...form.getInputProps('source')}
          />
          <TextInput
            label="Location"
            placeholder="e.g. Under the throne"
            maxLength={100}
            {...form.getInputProps('location_name')}
          />
          <Textarea label="Description" rows={4} maxLength={5000} {...form.getInputProps('description')} />
          {save.error && !serverFieldErrors(save.error, fields, 'loot_instance.') ? (
            <Alert color="red" variant="light" role="alert">
              {lootErrorMessage(save.error, 'Failed to update loot')}
            </Alert>
          ) : null}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={save.isPending}>
              Save
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
