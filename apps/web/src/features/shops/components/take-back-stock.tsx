import { formatEnUs, type ShopInstance, type ShopStockItem, shopMessages } from '@haversack/contracts';
import { Alert, Button, Group, Modal, Paper, Select, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { NumberField } from '../../../components/number-field';
import { UpgradePrompt } from '../../../components/upgrade-prompt';
import { isApiError } from '../../../lib/http-client';
import { quantityFieldProps } from '../../../lib/quantity-field';
import { toast } from '../../../lib/toast';
import { isPlanRefusal } from '../../../lib/upgrade-link';
import { useSingleFlight } from '../../../lib/use-single-flight';
import { partyCharactersQuery } from '../../characters/api/characters-api';
import type { ActionScope } from '../../inventory/api/allowance-api';
import { invalidateContainers } from '../../inventory/api/inventory-api';
import { containerSearchProps, groupedByOwner } from '../../inventory/components/container-source-select';
import { refusedButtonProps, SpentAllowanceNote } from '../../inventory/components/spent-allowance-note';
import { useOwnerContainers } from '../../inventory/hooks/use-owner-containers';
import { invalidateShop, unstockShop } from '../api/shops-api';
import { type ShelfLine, shelfLines } from './shop-trading';
import { askingPriceLabel } from './stock-line';

export const takeBackFailed = 'The stock could not be taken back. Please try again.';

/**
 * One option per shelf line, as the shop page lists them (ten quivers' worth of arrows are one line of
 * 200); the server takes a line's quantity from its stacks, the named (largest) one first.
 */
function shelfOptions(shelf: ShopStockItem[]) {
  return shelfLines(shelf).map(({ key, inStock, item }) => ({
    value: key,
    label: `${item.name} ×${formatEnUs(inStock)} · ${askingPriceLabel(item.buy_price_cp)}${item.buy_price_cp === null ? '' : ' each'}`,
  }));
}

/** The line with this key on the shelf now, or null when nothing of it is left. */
function lineOf(shelf: ShopStockItem[], key: string | null): ShelfLine | null {
  return key === null ? null : (shelfLines(shelf).find((line) => line.key === key) ?? null);
}

/**
 * GM and managers take stock back off the shelf (a mis-stocked item, the party's only +1 sword) into the party
 * stash or one of their own characters in the party. Goods held for a purchase request are not on the shelf
 * (they wait in the request's hold) and cannot be taken here.
 */
export function TakeBackStock({
  shop,
  allowanceSpent = null,
}: {
  shop: ShopInstance;
  /**
   * The allowance taking back spends, used up this month (the shop party's: shops.service unstockItem):
   * Take Back… stays in place, focusable but closed, described by why; no dialog opens to be refused.
   */
  allowanceSpent?: ActionScope | null;
}) {
  const shelf = shop.container.item_instances;
  const refusalId = useId();
  const [lineKey, setLineKey] = useState<string | null>(null);
  const line = lineOf(shelf, lineKey);
  // What the dialog takes, as it was when it opened: a purchase meanwhile must not swap it for another. It
  // stays while the dialog closes (its fade-out shows it still); `opening` gives each opening a fresh form.
  const [taking, setTaking] = useState<ShelfLine | null>(null);
  const [opened, setOpened] = useState(false);
  const [opening, setOpening] = useState(0);
  const [pending, setPending] = useState(false);

  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <Title order={2} size="h5">
          Take stock back
        </Title>
        {shelf.length === 0 ? (
          <Text size="sm" c="dimmed">
            The shelf is empty: there is nothing to take back.
          </Text>
        ) : (
          <>
            <Text size="sm" c="dimmed">
              Move an item off the shelf into the party stash or one of your characters. Goods held for a
              purchase request stay with the request.
            </Text>
            <Group align="flex-end" gap="sm" wrap="wrap">
              <Select
                label="Item on the shelf"
                placeholder="Choose an item"
                data={shelfOptions(shelf)}
                value={line?.key ?? null}
                onChange={setLineKey}
                searchable
                nothingFoundMessage="Nothing on the shelf by that name"
                comboboxProps={{ withinPortal: true }}
                style={{ flex: '1 1 16rem' }}
              />
              {/* Disabled until an item is chosen, as Put on the Shelf is (not an error after the fact). */}
              <Button
                variant="light"
                {...refusedButtonProps(allowanceSpent ? refusalId : null)}
                disabled={!allowanceSpent && !line}
                onClick={() => {
                  if (allowanceSpent || !line) return;
                  setTaking(line);
                  setOpening((n) => n + 1);
                  setOpened(true);
                }}
              >
                Take Back…
              </Button>
            </Group>
            {allowanceSpent ? (
              <SpentAllowanceNote
                id={refusalId}
                scope={allowanceSpent}
                testId="take-back-allowance-refusal"
              />
            ) : null}
          </>
        )}
      </Stack>
      <Modal
        opened={opened}
        onClose={() => {
          // Not while the request is out: its answer is shown here.
          if (!pending) setOpened(false);
        }}
        title="Take stock back"
        closeButtonProps={{ 'aria-label': 'Close' }}
        centered
      >
        {taking ? (
          <TakeBackForm
            key={opening}
            shop={shop}
            item={taking.item}
            // What is left of its line on the shelf now (a live event refreshes the shop): a sale meanwhile.
            // The largest stack left is the one named to the server, which takes the rest from the line.
            now={lineOf(shelf, taking.key)}
            open={opened}
            onPending={setPending}
            onClose={() => setOpened(false)}
          />
        ) : null}
      </Modal>
    </Paper>
  );
}

/** The dialog's form: how many, where to, what will move, and the server's refusal if any. */
function TakeBackForm({
  shop,
  item,
  now,
  open,
  onPending,
  onClose,
}: {
  shop: ShopInstance;
  item: ShopStockItem;
  now: ShelfLine | null;
  open: boolean;
  onPending: (pending: boolean) => void;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const characters = useQuery(partyCharactersQuery(shop.party_id));
  // Every character of the party: the containers the user may act on are the GM's to fill (any character)
  // or a manager's (their own); `can_act` tells them apart.
  const places = useOwnerContainers([
    { type: 'party', id: shop.party_id },
    ...(characters.data?.characters ?? []).map((c) => ({ type: 'character' as const, id: c.id })),
  ]);
  const targets = places.containers.filter((c) => c.can_act);
  const [targetId, setTargetId] = useState<string | null>(null);
  const target = targets.find((c) => c.id === targetId) ?? targets[0] ?? null;
  const onShelf = now?.inStock ?? 0;
  const [quantity, setQuantity] = useState<number | string>(onShelf);
  const available = onShelf;
  const amount = Number(quantity);
  const validAmount = Number.isInteger(amount) && amount >= 1 && amount <= available;
  const once = useSingleFlight();
  const take = useMutation({
    mutationFn: (request: { itemId: string; targetContainerId: string; quantity: number }) =>
      unstockShop(shop.id, request),
    onMutate: () => onPending(true),
    onSuccess: (_shop, request) => {
      toast.success(`${shopMessages.unstocked}: ${formatEnUs(request.quantity)} × ${item.name}`);
      onClose();
    },
    onSettled: (_shop, _error, request) => {
      onPending(false);
      return Promise.all([
        invalidateShop(queryClient, shop.id),
        invalidateContainers(queryClient, [request.targetContainerId]),
      ]);
    },
  });
  // Sold (or taken) meanwhile, all of it: nothing left to take back, so say so once and close.
  const gone = open && onShelf === 0 && !take.isPending && !take.isSuccess;
  useEffect(() => {
    if (!gone) return;
    toast.error(shopMessages.unstockNotInShop);
    onClose();
  }, [gone, onClose]);
  // A refusal was about the choice it was given: a new choice starts clean.
  const choose =
    <T,>(set: (value: T) => void) =>
    (value: T) => {
      set(value);
      if (take.isError) take.reset();
    };
  const failedOn = (field: string) =>
    isApiError(take.error) && take.error.details.some((detail) => detail.field === field);
  const submit = () => {
    if (!target || !validAmount || !now) return;
    once(() => take.mutateAsync({ itemId: now.item.id, targetContainerId: target.id, quantity: amount }));
  };
  const where = target ? `${target.name} (${target.owner.name})` : null;

  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <Stack gap="md">
        <Text size="sm">
          {formatEnUs(available)} × {item.name} on the shelf of {shop.name}.
        </Text>
        <NumberField
          // The question the dialog asks first (how many), rather than its close button.
          data-autofocus
          label="Quantity"
          {...quantityFieldProps}
          max={available}
          value={quantity}
          onChange={choose(setQuantity)}
          error={validAmount ? failedOn('quantity') : `Take between 1 and ${formatEnUs(available)}`}
        />
        {targets.length === 0 && !places.isPending ? (
          <Text size="sm" c="dimmed" role="status">
            Goods go to the party stash or your own character in this party; neither is available.
          </Text>
        ) : (
          <Select
            label="Put it in"
            placeholder={places.isPending ? 'Loading containers…' : 'Choose a container'}
            data={groupedByOwner(targets, (c) => ({ value: c.id, label: `${c.name} (${c.owner.name})` }))}
            value={target?.id ?? null}
            onChange={choose(setTargetId)}
            allowDeselect={false}
            comboboxProps={{ withinPortal: true }}
            {...containerSearchProps}
            error={failedOn('target_container_id')}
          />
        )}
        {where && validAmount ? (
          <Text size="sm" fw={500} data-testid="take-back-summary">
            {formatEnUs(amount)} × {item.name} leaves the shelf and goes into {where}.
            {item.has_own_price
              ? ' The shop keeps its price for this item, for when it is stocked again.'
              : ''}
          </Text>
        ) : null}
        {take.isError ? <TakeBackError error={take.error} /> : null}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose} disabled={take.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={take.isPending} disabled={!target || !validAmount}>
            Take Back
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** The server's reason (a full container's own message, "Item not found in this shop."), or a plan refusal. */
function TakeBackError({ error }: { error: unknown }) {
  if (isApiError(error) && isPlanRefusal(error)) return <UpgradePrompt error={error} />;
  const message = isApiError(error)
    ? (error.details[0]?.message ?? error.serverMessage ?? error.message)
    : takeBackFailed;
  return (
    <Alert color="red" variant="light" role="alert">
      {message || takeBackFailed}
    </Alert>
  );
}
