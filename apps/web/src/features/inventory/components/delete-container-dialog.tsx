import { type Container, formatEnUs } from '@haversack/contracts';
import { Button, Group, Modal, Select, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useSingleFlight } from '../../../lib/use-single-flight';
import { deleteContainerFailed, useDeleteContainer } from '../hooks/use-inventory-actions';
import { sourceOptionLabel } from './container-source-select';
import { RefusalAlert } from './refusal-alert';

/** Where a deleted container's items may go: another container of the same owner the user can act on. */
export function deletionDestinations(container: Container, containers: Container[]): Container[] {
  return containers.filter(
    (c) =>
      c.id !== container.id &&
      c.can_act &&
      c.owner.type === container.owner.type &&
      c.owner.id === container.owner.id,
  );
}

/**
 * Confirms DELETE containers/{id}. A container that holds items asks where they go
 * (`destination_container_id`); the server's refusal shows in the dialog and as a toast.
 */
export function DeleteContainerDialog({
  opened,
  container,
  containers,
  onClose,
  onDeleted,
}: {
  opened: boolean;
  container: Container;
  containers: Container[];
  onClose: () => void;
  onDeleted: () => void;
}) {
  const destinations = deletionDestinations(container, containers);
  const holdsItems = container.items_count > 0;
  const [destination, setDestination] = useState<string | null>(
    destinations.find((c) => c.is_primary)?.id ?? destinations[0]?.id ?? null,
  );
  const remove = useDeleteContainer(container);
  const once = useSingleFlight();
  const close = () => {
    remove.reset();
    onClose();
  };
  const ready = !holdsItems || destination !== null;
  return (
    <Modal
      opened={opened}
      onClose={close}
      title="Delete container"
      closeButtonProps={{ 'aria-label': 'Close' }}
      centered
    >
      <Stack gap="md">
        <Text size="sm">
          {holdsItems
            ? `Delete ${container.name}? Its ${container.items_count === 1 ? '1 item stack moves' : `${formatEnUs(container.items_count)} item stacks move`} to the container you choose. This action cannot be undone.`
            : `Delete ${container.name}? It is empty. This action cannot be undone.`}
        </Text>
        {holdsItems ? (
          <Select
            label="Move its items to"
            data={destinations.map((c) => ({ value: c.id, label: sourceOptionLabel(c) }))}
            value={destination}
            onChange={setDestination}
            allowDeselect={false}
            placeholder="Please select a destination"
            nothingFoundMessage="No other container"
            comboboxProps={{ withinPortal: true }}
            error={destinations.length === 0 ? 'There is no other container to take its items' : undefined}
          />
        ) : null}
        {remove.isError ? <RefusalAlert error={remove.error} fallback={deleteContainerFailed} /> : null}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={close} disabled={remove.isPending}>
            Cancel
          </Button>
          <Button
            color="red.9"
            disabled={!ready}
            loading={remove.isPending}
            onClick={() =>
              once((settled) =>
                remove.mutate(holdsItems ? destination : null, {
                  onSuccess: () => {
                    onClose();
                    onDeleted();
                  },
                  onSettled: settled,
                }),
              )
            }
          >
            Delete Container
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
