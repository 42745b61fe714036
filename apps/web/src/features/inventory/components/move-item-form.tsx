import type { Container, ItemInstance } from '@haversack/contracts';
import { Button, Group, Select, Stack, Text } from '@mantine/core';
import { type FocusEvent, useLayoutEffect, useRef, useState } from 'react';
import { NumberField } from '../../../components/number-field';
import { quantityError, quantityFieldProps } from '../../../lib/quantity-field';
import { useSingleFlight } from '../../../lib/use-single-flight';
import { useTransferItem } from '../hooks/use-inventory-actions';
import { partyCollaborationLocked, usePlanLockedContainers } from '../hooks/use-plan-locked-containers';
import { moveScope, useAllowanceRefusal } from '../hooks/use-spent-allowances';
import { type UnsavedForm, useUnsavedForm } from '../hooks/use-unsaved-form';
import { sheetComboboxProps } from '../lib/sheet-combobox';
import { containerSearchProps, groupedByOwner, sourceOptionLabel } from './container-source-select';

/**
 * A text box shows the part of its text around the caret, and a value set or focused puts the caret at the
 * end: on a 375 px phone the destination read "y Stash (Friday Night Crew) · 0 lbs (unlimited)". With the
 * caret at the start it shows the name, and the theme's ellipsis cuts the end instead. The select is not
 * searchable, so the caret is never where anyone types.
 */
function showStart(input: HTMLInputElement | null): void {
  if (!input) return;
  input.setSelectionRange(0, 0);
  input.scrollLeft = 0;
}

/**
 * Said instead of an empty Destination where nothing else is open to the user in a party's stash (review
 * 2026-11: an empty select and a Transfer that stayed off). The GM is offered every character's containers
 * (DESIGN §4 Who may act), so this is a party with no character yet, or a member without one of their own.
 */
export const nowhereFromStash =
  "There is nowhere to move this: items leave the stash for a character's containers, and there is no character in this party whose containers you may use.";

/** The same, for a container whose owner has no other container the user may act on. */
export const nowhereToMove = 'There is nowhere to move this: there is no other container to move it into.';

/**
 * Moves some or all of a stack into another container (the same transfer as a drag). A destination the
 * user's plan would refuse (a party's stash without party collaboration, spec/01 §3, or a move that would
 * spend a monthly allowance already used up) is listed disabled, with why, and never chosen for them.
 */
export function MoveItemForm({
  item,
  destinations,
  unsaved,
  onDone,
  onCancel = onDone,
}: {
  item: ItemInstance;
  destinations: Container[];
  unsaved?: UnsavedForm;
  onDone: () => void;
  /** Cancel: leaves the form without saving; `onDone` when not given. */
  onCancel?: () => void;
}) {
  const choices = destinations.filter((c) => c.id !== item.container_id && c.can_act);
  const locked = usePlanLockedContainers(destinations);
  const allowanceRefusal = useAllowanceRefusal();
  const source = destinations.find((c) => c.id === item.container_id);
  // Why a destination is closed: the plan's feature, else a used-up allowance the move would spend.
  const refusal = (c: Container) =>
    locked.has(c.id) || locked.has(item.container_id)
      ? partyCollaborationLocked
      : allowanceRefusal(moveScope(source, c));
  const isLocked = (c: Container) => refusal(c) !== null;
  // The plan's answer may come after the form opened: a locked choice, even the first, is never kept.
  const [chosen, setTarget] = useState<string | null>(null);
  const target =
    choices.find((c) => c.id === chosen && !isLocked(c))?.id ?? choices.find((c) => !isLocked(c))?.id ?? null;
  const [initialQuantity] = useState(item.quantity);
  const [quantity, setQuantity] = useState<number | string>(initialQuantity);
  useUnsavedForm(() => chosen !== null || String(quantity) !== String(initialQuantity), unsaved);
  const transfer = useTransferItem();
  // One move per press: Enter and a tap in the same task would move it twice (use-single-flight.ts).
  const once = useSingleFlight();
  const destinationInput = useRef<HTMLInputElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs after each change of the shown destination
  useLayoutEffect(() => showStart(destinationInput.current), [target]);
  const amount = Number(quantity);
  const problem = quantityError(quantity, item.quantity);
  const valid = target !== null && problem === null;
  if (choices.length === 0) {
    const fromParty = destinations.find((c) => c.id === item.container_id)?.owner.type === 'party';
    return (
      <Stack gap="sm">
        <Text size="sm" data-testid="move-nowhere">
          {fromParty ? nowhereFromStash : nowhereToMove}
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
        </Group>
      </Stack>
    );
  }
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        if (!valid || !target) return;
        once(() =>
          transfer.mutateAsync(
            {
              itemInstanceId: item.id,
              sourceContainerId: item.container_id,
              targetContainerId: target,
              quantity: amount,
            },
            { onSuccess: onDone },
          ),
        );
      }}
    >
      <Stack gap="sm">
        <Select
          label="Destination"
          ref={destinationInput}
          onFocus={(event: FocusEvent<HTMLInputElement>) => showStart(event.currentTarget)}
          data={groupedByOwner(choices, (c) =>
            isLocked(c)
              ? {
                  value: c.id,
                  label: `${sourceOptionLabel(c)} · ${refusal(c)}`,
                  disabled: true,
                }
              : { value: c.id, label: sourceOptionLabel(c) },
          )}
          value={target}
          onChange={setTarget}
          allowDeselect={false}
          placeholder="Please select a destination"
          searchable
          nothingFoundMessage={
            choices.length === 0 ? 'No other container' : containerSearchProps.nothingFoundMessage
          }
          comboboxProps={sheetComboboxProps}
        />
        <NumberField
          label="Quantity to move"
          value={quantity}
          onChange={setQuantity}
          {...quantityFieldProps}
          max={item.quantity}
          error={problem}
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" disabled={!valid || transfer.isPending} loading={transfer.isPending}>
            Transfer
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
