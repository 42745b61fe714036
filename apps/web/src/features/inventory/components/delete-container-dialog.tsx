import { type Container, formatEnUs } from '@haversack/contracts';
import { Button, Group, Modal, Select, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useSingleFlight } from '../../../lib/use-single-flight';
import { deleteContainerFailed, useDeleteContainer } from '../hooks/use-inventory-actions';
import { containerSearchProps, groupedByOwner, sourceOptionLabel } from './container-source-select';
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
 * Whether `destination` has room for all that `container` holds, as far as the lists tell: its weight, and
 * a slot for each of its stacks (some may join a stack already there, so this may refuse one that fits).
 * Only the limits the party tracks count; the small slack is the server's, for decimal rounding.
 */
export function hasRoomForContents(destination: Container, container: Container): boolean {
  const { capacity } = destination;
  const weightFits =
    !capacity.enforces.weight ||
    capacity.max === null ||
    capacity.used + container.current_weight <= capacity.max + 0.0005;
  const slotsFit =
    !capacity.enforces.slots ||
    capacity.slots_max === null ||
    capacity.slots_used + container.items_count <= capacity.slots_max;
  return weightFits && slotsFit;
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
  // A destination without room would only be refused on Delete: none is chosen rather than such a one.
  const withRoom = destinations.filter((c) => hasRoomForContents(c, container));
  const [destination, setDestination] = useState<string | null>(
    withRoom.find((c) => c.is_primary)?.id ?? withRoom[0]?.id ?? null,
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
            data={groupedByOwner(destinations, (c) => ({ value: c.id, label: sourceOptionLabel(c) }))}
            value={destination}
            onChange={setDestination}
            allowDeselect={false}
            placeholder="Please select a destination"
            {...containerSearchProps}
            nothingFoundMessage={
              destinations.length === 0 ? 'No other container' : containerSearchProps.nothingFoundMessage
            }
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
              once(() =>
                remove.mutateAsync(holdsItems ? destination : null, {
                  onSuccess: () => {
                    onClose();
                    onDeleted();
                  },
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
