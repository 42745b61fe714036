import { formatEnUs, type ItemInstance } from '@haversack/contracts';
import { Alert, Button, Group, Modal, Select, Skeleton, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { NumberField } from '../../../components/number-field';
import { RefreshFailedNote } from '../../../components/refresh-failed-note';
import { failedWithNothingToShow, refreshFailed } from '../../../lib/load-failed';
import { quantityFieldProps } from '../../../lib/quantity-field';
import { useSingleFlight } from '../../../lib/use-single-flight';
import { characterQuery, partyCharactersQuery } from '../../characters/api/characters-api';
import { useDiscardQuestion } from '../hooks/use-discard-question';
import { useGiveItem } from '../hooks/use-item-status';
import { type UnsavedForm, useUnsavedForm } from '../hooks/use-unsaved-form';
import { sheetComboboxProps } from '../lib/sheet-combobox';
import { ClampedTitle } from './clamped-title';
import { RefusalAlert } from './refusal-alert';

export const giveFailed = 'Failed to give item';

/**
 * "Give to...": choose a character of the party (not one of mine) and how many; the items go into that
 * character's primary container (issue 12 §8).
 */
export function GiveItemForm({
  item,
  ownerCharacterId,
  unsaved,
  onDone,
  onCancel = onDone,
}: {
  item: ItemInstance;
  /** The character whose container holds the item. */
  ownerCharacterId: string;
  unsaved?: UnsavedForm;
  onDone: () => void;
  /** Cancel, and Close when there is nobody to give to: leaves the form; `onDone` when not given. */
  onCancel?: () => void;
}) {
  const owner = useQuery(characterQuery(ownerCharacterId));
  const partyId = owner.data?.party_id ?? null;
  const party = useQuery({ ...partyCharactersQuery(partyId ?? ''), enabled: partyId !== null });
  const [recipientId, setRecipientId] = useState<string | null>(null);
  const [initialAmount] = useState(item.quantity);
  const [amount, setAmount] = useState<number | string>(initialAmount);
  useUnsavedForm(() => recipientId !== null || String(amount) !== String(initialAmount), unsaved);
  const give = useGiveItem(item);
  // One gift per press: Enter and a tap in the same task would give it twice (use-single-flight.ts).
  const once = useSingleFlight();

  if (owner.isPending || (partyId !== null && party.isPending)) {
    return (
      <Stack gap="sm" aria-busy="true" aria-label="Loading the party's characters">
        <Skeleton h={36} />
        <Skeleton h={36} />
      </Stack>
    );
  }
  if (failedWithNothingToShow(owner) || failedWithNothingToShow(party)) {
    return (
      <Alert color="red" title="Could not load the party's characters">
        <Group gap="sm">
          <Text size="sm">Check your connection and try again.</Text>
          <Button
            size="xs"
            variant="light"
            onClick={() => {
              void owner.refetch();
              if (partyId) void party.refetch();
            }}
          >
            Try Again
          </Button>
        </Group>
      </Alert>
    );
  }
  // A refresh that failed while the form is open keeps the characters it had, and says so.
  const refreshNote = <RefreshFailedNote query={refreshFailed(owner) ? owner : party} />;
  const recipients = (party.data?.characters ?? []).filter(
    (character) => !character.is_owner && character.id !== ownerCharacterId,
  );
  if (partyId === null || recipients.length === 0) {
    return (
      <Stack gap="sm">
        {refreshNote}
        <Text size="sm">
          {partyId === null
            ? 'This character is not in a party, so there is nobody to give it to. To hand it to another of your characters, move it into one of their containers.'
            : 'Nobody else in the party has a character yet.'}
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            Close
          </Button>
        </Group>
      </Stack>
    );
  }

  const quantity = typeof amount === 'number' ? amount : Number.parseInt(amount, 10);
  const validQuantity = Number.isInteger(quantity) && quantity >= 1 && quantity <= item.quantity;
  const recipient = recipients.find((character) => character.id === recipientId) ?? null;
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        if (!recipient || !validQuantity) return;
        once(() =>
          give.mutateAsync(
            {
              characterId: recipient.id,
              characterName: recipient.name,
              containerId: recipient.primary_container_id,
              quantity,
            },
            { onSuccess: onDone },
          ),
        );
      }}
    >
      <Stack gap="sm">
        {refreshNote}
        <Select
          label="Give to"
          // Give stays off until a character is chosen: the field says it is needed, to the eye and to a
          // screen reader, where a placeholder alone is not read as a rule.
          required
          placeholder="Choose a character"
          data={recipients.map((character) => ({
            value: character.id,
            label: character.player_name ? `${character.name} (${character.player_name})` : character.name,
          }))}
          value={recipientId}
          onChange={setRecipientId}
          comboboxProps={sheetComboboxProps}
          allowDeselect={false}
        />
        {item.quantity > 1 ? (
          <NumberField
            label="Quantity"
            value={amount}
            onChange={setAmount}
            {...quantityFieldProps}
            max={item.quantity}
            description={`1 to ${formatEnUs(item.quantity)}`}
            error={validQuantity ? undefined : `Choose between 1 and ${formatEnUs(item.quantity)}`}
          />
        ) : null}
        {give.isError ? <RefusalAlert error={give.error} fallback={giveFailed} /> : null}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" disabled={!recipient || !validQuantity} loading={give.isPending}>
            Give
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** The same form in its own dialog, for the tile's menu. */
export function GiveItemDialog({
  item,
  ownerCharacterId,
  opened,
  onClose,
}: {
  item: ItemInstance;
  ownerCharacterId: string;
  opened: boolean;
  onClose: () => void;
}) {
  // As in the item's dialog: a recipient chosen or a number typed is asked about before it is thrown away,
  // by Escape, the close button or Cancel alike.
  const unsaved = useRef<(() => boolean) | null>(null);
  const { asking, ask, question } = useDiscardQuestion();
  const close = () => {
    if (unsaved.current?.()) ask(onClose);
    else onClose();
  };
  return (
    <>
      <Modal
        opened={opened}
        onClose={close}
        closeOnEscape={!asking}
        title={<ClampedTitle text={`Give ${item.name}`} />}
        closeButtonProps={{ 'aria-label': 'Close' }}
        centered
      >
        {opened ? (
          <GiveItemForm
            item={item}
            ownerCharacterId={ownerCharacterId}
            unsaved={unsaved}
            onDone={onClose}
            onCancel={close}
          />
        ) : null}
      </Modal>
      {question}
    </>
  );
}
