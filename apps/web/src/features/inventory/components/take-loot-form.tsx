import { type Container, formatEnUs, type ItemInstance } from '@haversack/contracts';
import { Alert, Button, Divider, Group, Select, Stack, Text } from '@mantine/core';
import { useId, useState } from 'react';
import { NumberField } from '../../../components/number-field';
import { quantityFieldProps } from '../../../lib/quantity-field';
import { useSingleFlight } from '../../../lib/use-single-flight';
import {
  TAKE_FIRST_OFFER,
  takeErrorMessage,
  useCloseWhenTaken,
  useTakeLoot,
  useTakeQuantity,
} from '../../loot/hooks/use-take-loot';
import { useAllowanceRefusal } from '../hooks/use-spent-allowances';
import { type UnsavedForm, useUnsavedForm } from '../hooks/use-unsaved-form';
import { sheetComboboxProps } from '../lib/sheet-combobox';
import type { ItemAbout, LootSource } from '../workspace-types';
import { containerSearchProps, groupedByOwner, sourceOptionLabel } from './container-source-select';
import { ItemFacts } from './item-facts';

/**
 * A loot stack's sheet or modal: what it is, and Take (into one of my characters' containers, as many as
 * I choose, all by default) instead of edit, split and destroy. Loot nobody may take from says why.
 */
export function LootItemBody({
  item,
  about = null,
  loot,
  gone = false,
  destinations,
  unsaved,
  onAddToQueue,
  onClose,
}: {
  item: ItemInstance;
  about?: ItemAbout | null;
  loot: LootSource;
  /** The stack has left the loot since this opened. */
  gone?: boolean;
  destinations: Container[];
  /** Whether Take would lose what was typed, read as the dialog is asked to close. */
  unsaved?: UnsavedForm;
  onAddToQueue?: () => void;
  onClose: () => void;
}) {
  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed">
        From {loot.lootName}
      </Text>
      <ItemFacts item={item} about={about} />
      <Divider />
      {loot.blocked ? (
        <Alert role="note" variant="light" color="blue" data-testid="loot-take-blocked">
          {loot.blocked}
        </Alert>
      ) : (
        <TakeLootForm
          item={item}
          loot={loot}
          gone={gone}
          destinations={destinations}
          unsaved={unsaved}
          onDone={onClose}
        />
      )}
      {onAddToQueue && !loot.blocked ? (
        <Group>
          <Button variant="light" onClick={onAddToQueue}>
            Add to Queue
          </Button>
        </Group>
      ) : null}
    </Stack>
  );
}

/**
 * POST loot_instances/{id}/take: where to, and how many (one by default, as the loot's page). A refusal shows here,
 * once, and not as a toast as well; a stack taken whole meanwhile closes the form with the reason as a toast.
 */
export function TakeLootForm({
  item,
  loot,
  gone = false,
  destinations,
  unsaved,
  onDone,
}: {
  item: ItemInstance;
  loot: LootSource;
  /** The stack has left the loot: the form closes and says why. */
  gone?: boolean;
  destinations: Container[];
  unsaved?: UnsavedForm;
  onDone: () => void;
}) {
  const primary = destinations.find((c) => c.is_primary) ?? destinations[0] ?? null;
  const [firstTarget] = useState<string | null>(primary?.id ?? null);
  const [target, setTarget] = useState(firstTarget);
  // `item` is the stack as the loot has it now (useOpenItem), so the quantity follows it.
  const { quantity, setQuantity, amount, valid: validAmount } = useTakeQuantity(item.quantity);
  // As the item's own forms: another container or number is asked about before it is thrown away.
  useUnsavedForm(() => target !== firstTarget || String(quantity) !== String(TAKE_FIRST_OFFER), unsaved);
  const take = useTakeLoot({ onSuccess: onDone });
  useCloseWhenTaken(gone && !take.isPending, take.error, onDone);
  const once = useSingleFlight();
  // A take counts as a party action wherever it goes (loot.service): with the party's allowance used up
  // this month, Take stays in its place, disabled, and says why rather than send what would be refused.
  const refusal = useAllowanceRefusal()('party');
  const refusalId = useId();
  const submit = () => {
    if (!target || !validAmount || refusal) return;
    once(() =>
      take.mutateAsync({
        lootId: loot.lootId,
        partyId: loot.partyId,
        itemInstanceId: item.id,
        targetContainerId: target,
        quantity: amount,
      }),
    );
  };
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <Stack gap="sm">
        <Select
          label="Take into"
          placeholder="Choose a container"
          data={groupedByOwner(destinations, (c) => ({ value: c.id, label: sourceOptionLabel(c) }))}
          value={target}
          onChange={setTarget}
          allowDeselect={false}
          comboboxProps={sheetComboboxProps}
          {...containerSearchProps}
          nothingFoundMessage={
            destinations.length === 0 ? 'No containers' : containerSearchProps.nothingFoundMessage
          }
          disabled={take.isPending}
        />
        {item.quantity > 1 ? (
          <NumberField
            label="Quantity"
            value={quantity}
            onChange={setQuantity}
            {...quantityFieldProps}
            max={item.quantity}
            description={`1 to ${formatEnUs(item.quantity)}`}
            error={validAmount ? undefined : 'Enter a whole number in range'}
            disabled={take.isPending}
          />
        ) : null}
        {take.error ? (
          <Alert color="red" variant="light" role="alert" data-testid="take-error">
            {takeErrorMessage(take.error)}
          </Alert>
        ) : null}
        {refusal ? (
          <Text size="sm" c="dimmed" id={refusalId}>
            {refusal}.
          </Text>
        ) : null}
        <Group justify="flex-end">
          <Button
            type="submit"
            disabled={!target || !validAmount}
            loading={take.isPending}
            aria-disabled={refusal ? true : undefined}
            data-disabled={refusal ? true : undefined}
            aria-describedby={refusal ? refusalId : undefined}
          >
            Take
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
