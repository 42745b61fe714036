import { Button, Group, Modal, NumberInput, Stack, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { serverFieldErrors } from '../../../lib/forms';
import { toast } from '../../../lib/toast';
import { type ContainerOwner, createContainer, invalidateContainers } from '../api/inventory-api';

/** spec/02 §5: the workspace dialog starts at 100 lbs and 20 slots. */
export const NEW_CONTAINER_MAX_WEIGHT = 100;
export const NEW_CONTAINER_MAX_SLOTS = 20;

interface ContainerDialogValues {
  name: string;
  description: string;
  maxWeight: number | string;
  maxSlots: number | string;
}

const initialValues: ContainerDialogValues = {
  name: '',
  description: '',
  maxWeight: NEW_CONTAINER_MAX_WEIGHT,
  maxSlots: NEW_CONTAINER_MAX_SLOTS,
};

/** spec/02 §5: max_weight defaults to 0 when it cannot be read; empty slots mean unlimited. */
function toContainerForm(values: ContainerDialogValues) {
  const weight = Number(values.maxWeight);
  const slots = values.maxSlots === '' ? null : Number(values.maxSlots);
  return {
    name: values.name.trim(),
    description: values.description.trim(),
    max_weight: Number.isFinite(weight) && weight >= 0 ? weight : 0,
    max_slots: slots === null || !Number.isFinite(slots) ? null : Math.max(1, Math.round(slots)),
  };
}

/** spec/02 §2 Create New Container dialog. */
export function CreateContainerDialog({
  opened,
  owner,
  onClose,
  onCreated,
}: {
  opened: boolean;
  owner: ContainerOwner | null;
  onClose: () => void;
  onCreated?: (containerId: string) => void;
}) {
  const queryClient = useQueryClient();
  const form = useForm<ContainerDialogValues>({ initialValues });
  const create = useMutation({
    mutationFn: (values: ContainerDialogValues) => {
      if (!owner) throw new Error('No owner for the new container');
      return createContainer(owner, toContainerForm(values));
    },
    onSuccess: async (container) => {
      toast.success(`Container "${container.name}" created`);
      await invalidateContainers(queryClient, [container.id]);
      form.reset();
      onCreated?.(container.id);
      onClose();
    },
    onError: (error) => {
      const fieldErrors = serverFieldErrors(
        error,
        ['name', 'description', 'max_weight', 'max_slots'],
        'container.',
      );
      if (fieldErrors) {
        form.setErrors({
          name: fieldErrors.name,
          description: fieldErrors.description,
          maxWeight: fieldErrors.max_weight,
          maxSlots: fieldErrors.max_slots,
        });
      }
    },
  });
  const blank = form.values.name.trim() === '';
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title="Create New Container"
      closeButtonProps={{ 'aria-label': 'Close' }}
      centered
    >
      <form onSubmit={form.onSubmit((values) => create.mutate(values))}>
        <Stack gap="md">
          <TextInput
            label="Container Name"
            placeholder="e.g., Backpack, Belt Pouch, Chest"
            required
            data-autofocus
            {...form.getInputProps('name')}
          />
          <Textarea label="Description (optional)" rows={2} {...form.getInputProps('description')} />
          <Group grow align="flex-start">
            <NumberInput
              label="Max Weight"
              min={0}
              step={0.1}
              decimalScale={2}
              {...form.getInputProps('maxWeight')}
            />
            <NumberInput
              label="Max Slots"
              min={1}
              allowDecimal={false}
              placeholder="Unlimited"
              {...form.getInputProps('maxSlots')}
            />
          </Group>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={blank || create.isPending} loading={create.isPending}>
              Create Container
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
