import {
  formatCopper,
  formatEnUs,
  type ItemInstance,
  type LootInstance,
  type LootTakeResult,
  lootMessages,
} from '@haversack/contracts';
import { Alert, Button, Group, Modal, Select, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { NumberField } from '../../../components/number-field';
import { quantityFieldProps } from '../../../lib/quantity-field';
import { toast } from '../../../lib/toast';
import { transactionKeys } from '../../activity/api/transactions-api';
import { invalidateContainers } from '../../inventory/api/inventory-api';
import { containerSearchProps, groupedByOwner } from '../../inventory/components/container-source-select';
import { useDiscardQuestion } from '../../inventory/hooks/use-discard-question';
import { useUnsavedForm } from '../../inventory/hooks/use-unsaved-form';
import { claimLoot, invalidateLoot, takeLoot } from '../api/loot-api';
import {
  TAKE_FIRST_OFFER,
  takeErrorMessage,
  useCloseWhenTaken,
  useTakeQuantity,
} from '../hooks/use-take-loot';
import { containerLabel, type LootTaker } from './loot-instance-taker';
import { lootLineOf, lootLines } from './loot-lines';

/** What a member asked to do with one line of the loot: `item` is the line's first stack, which names it. */
export interface LootPick {
  kind: 'take' | 'claim';
  item: ItemInstance;
}

type TakeInput =
  | { kind: 'take'; itemId: string; containerId: string; quantity: number }
  | { kind: 'claim'; itemId: string; characterId: string };

/**
 * POST take or claim with the spec's success toasts; refreshes the loot, the receiving container and the
 * ledger. A refusal is not toasted: the dialog shows it (docs/decisions.md: an error shows once).
 */
function useTakeLoot(loot: { id: string; party_id: string }, onDone: () => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: TakeInput): Promise<LootTakeResult> =>
      input.kind === 'take'
        ? takeLoot({
            lootId: loot.id,
            itemInstanceId: input.itemId,
            targetContainerId: input.containerId,
            quantity: input.quantity,
          })
        : claimLoot(loot.id, input.itemId, input.characterId),
    onSuccess: (result) => {
      toast.success(result.kind === 'claim' ? lootMessages.claimed : lootMessages.taken);
      onDone();
    },
    onSettled: async (result, _error, input) => {
      const received = result?.item_instances.map((item) => item.container_id) ?? [];
      await Promise.all([
        invalidateLoot(queryClient, loot.party_id, loot.id),
        invalidateContainers(
          queryClient,
          input.kind === 'take' ? [input.containerId, ...received] : received,
        ),
        queryClient.invalidateQueries({ queryKey: transactionKeys.party(loot.party_id) }),
      ]);
    },
  });
}

/**
 * Take part or all of a line of the loot (its identical stacks, `lootLines`; one at first) into one of my
 * characters' containers, or Claim all of it for one of my characters (it goes into the character's main container).
 * The request names the line's first stack as it is now; the server takes the rest from the line's others.
 * Two taps on a phone: Take on the list, then the button here.
 */
export function TakeLootDialog({
  loot,
  pick,
  taker,
  onClose,
}: {
  loot: Pick<LootInstance, 'id' | 'party_id' | 'container'>;
  pick: LootPick | null;
  taker: LootTaker;
  onClose: () => void;
}) {
  const phone = useMediaQuery('(max-width: 47.99em)');
  // Kept while the dialog closes so its content does not vanish mid-transition.
  const [shown, setShown] = useState<LootPick | null>(pick);
  // The line as the loot has it now: someone else may take part of it, or all of it, while this is open
  // (a live event or our own refused request refreshes the loot). The quantity follows it.
  const pickedLine = pick ? lootLineOf(pick.item) : null;
  const live = lootLines(loot.container.item_instances).find((line) => line.key === pickedLine);
  const item = live?.item ?? shown?.item;
  const max = live?.quantity ?? item?.quantity ?? 1;
  const { quantity, setQuantity, amount, valid: validAmount } = useTakeQuantity(max);
  const [containerId, setContainerId] = useState<string | null>(null);
  const [characterId, setCharacterId] = useState<string | null>(null);
  const mutation = useTakeLoot(loot, onClose);
  const { reset } = mutation;

  useEffect(() => {
    if (!pick) return;
    setShown(pick);
    setQuantity(TAKE_FIRST_OFFER);
    setContainerId(null);
    setCharacterId(null);
    reset();
  }, [pick, reset, setQuantity]);

  // spec/01 §8 "You have unsaved changes.": as in the item dialog's forms, a number typed or a container
  // or character chosen is asked about before Escape, Cancel, the close button or leaving the page throws
  // it away. A stack taken meanwhile closes without asking: there is nothing left to take.
  const changed =
    pick !== null &&
    (pick.kind === 'take'
      ? containerId !== null || String(quantity) !== String(TAKE_FIRST_OFFER)
      : characterId !== null);
  useUnsavedForm(() => changed);
  const { asking, ask, dismiss, question } = useDiscardQuestion();
  if (pick === null && asking) dismiss();
  const close = () => {
    if (changed) ask(onClose);
    else onClose();
  };

  const gone = pick !== null && live === undefined && !mutation.isPending;
  useCloseWhenTaken(gone, mutation.error, onClose, mutation.variables?.kind);

  // Mantine notes where the focus was, to give it back on close, only when `opened` turns true: a dialog
  // first drawn already open (the first Take of a visit) gave it back to nobody. The same dialog, closed,
  // is drawn in the same place until there is a pick to show.
  if (!shown || !item)
    return (
      <>
        <Modal opened={false} onClose={onClose} />
        {question}
      </>
    );
  const { kind } = shown;
  const firstCharacter = taker.characters[0];
  const defaultContainer =
    taker.containers.find((c) => c.is_primary && c.owner.id === firstCharacter?.id) ??
    taker.containers[0] ??
    null;
  const container = taker.containers.find((c) => c.id === containerId) ?? defaultContainer;
  const character = taker.characters.find((c) => c.id === characterId) ?? firstCharacter ?? null;
  const ready = kind === 'take' ? validAmount && container !== null : character !== null;

  const submit = () => {
    if (!ready || mutation.isPending) return;
    if (kind === 'take' && container) {
      mutation.mutate({ kind: 'take', itemId: item.id, containerId: container.id, quantity: amount });
    } else if (kind === 'claim' && character) {
      mutation.mutate({ kind: 'claim', itemId: item.id, characterId: character.id });
    }
  };

  return (
    <>
      <Modal
        opened={pick !== null}
        onClose={close}
        closeOnEscape={!asking}
        title={kind === 'take' ? `Take ${item.name}` : `Claim ${item.name}`}
        closeButtonProps={{ 'aria-label': 'Close' }}
        fullScreen={phone === true}
        centered
      >
        <form
          onSubmit={(event) => {
            event.preventDefault();
            submit();
          }}
          noValidate
        >
          <Stack gap="md">
            <Text size="sm" data-testid="take-facts">
              {/* As the loot's list says it: the SRD gives magic items no price, which is not "0 gp". */}
              {item.item_template.metadata.priced === false
                ? `${formatEnUs(max)} in this loot. ${lootMessages.unpriced}.`
                : `${formatEnUs(max)} in this loot, worth ${formatCopper(item.value_cp)} each.`}
            </Text>
            {kind === 'take' ? (
              <>
                {max > 1 ? (
                  <NumberField
                    label="Quantity"
                    value={quantity}
                    onChange={setQuantity}
                    {...quantityFieldProps}
                    max={max}
                    description={`1 to ${formatEnUs(max)}`}
                    error={validAmount ? undefined : `Enter a whole number from 1 to ${formatEnUs(max)}`}
                  />
                ) : null}
                <Select
                  label="Put it in"
                  placeholder="Choose a container"
                  data={groupedByOwner(taker.containers, (c) => ({ value: c.id, label: containerLabel(c) }))}
                  value={container?.id ?? null}
                  onChange={setContainerId}
                  allowDeselect={false}
                  comboboxProps={{ withinPortal: true }}
                  {...containerSearchProps}
                  nothingFoundMessage={
                    taker.containers.length === 0
                      ? 'None of your characters in this party has a container'
                      : containerSearchProps.nothingFoundMessage
                  }
                  error={taker.isPending || container ? undefined : lootMessages.containerNotCharacters}
                />
              </>
            ) : (
              <>
                <Select
                  label="Claim for"
                  placeholder="Choose a character"
                  data={taker.characters.map((c) => ({ value: c.id, label: c.name }))}
                  value={character?.id ?? null}
                  onChange={setCharacterId}
                  allowDeselect={false}
                  comboboxProps={{ withinPortal: true }}
                  error={taker.isPending || character ? undefined : lootMessages.notYourCharacter}
                />
                <Text size="xs" c="dimmed">
                  All of it goes into the character's main container.
                </Text>
              </>
            )}
            {mutation.error ? (
              <Alert color="red" variant="light" role="alert" data-testid="take-error">
                {takeErrorMessage(mutation.error, kind)}
              </Alert>
            ) : null}
            <Group justify="flex-end" gap="sm">
              <Button variant="default" onClick={close}>
                Cancel
              </Button>
              {/* A disabled button cannot take the focus the dialog gives on opening: it would stay behind. */}
              <Button
                type="submit"
                disabled={!ready}
                loading={mutation.isPending}
                data-autofocus={ready || undefined}
                // "Claim for Bartholomew Ironfoot-Stonehammer the Third" wraps in the button (global.css).
                maw="100%"
              >
                {kind === 'take'
                  ? `Take ${validAmount ? formatEnUs(amount) : ''}`.trim()
                  : character
                    ? `Claim for ${character.name}`
                    : 'Claim'}
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
      {question}
    </>
  );
}
