import {
  formatCopper,
  formatEnUs,
  inventoryMessages,
  type ShopInstance,
  shopMessages,
} from '@haversack/contracts';
import { Alert, Button, Group, Paper, Select, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useRef, useState } from 'react';
import { noItemsFound } from '../../../components/empty-state';
import { NumberField } from '../../../components/number-field';
import { isApiError } from '../../../lib/http-client';
import { toast } from '../../../lib/toast';
import { partyCharactersQuery } from '../../characters/api/characters-api';
import type { ActionScope } from '../../inventory/api/allowance-api';
import { containerItemsQuery, invalidateContainers, noItemFilters } from '../../inventory/api/inventory-api';
import { containerSearchProps, groupedByOwner } from '../../inventory/components/container-source-select';
import { refusedButtonProps, SpentAllowanceNote } from '../../inventory/components/spent-allowance-note';
import { useOwnerContainers } from '../../inventory/hooks/use-owner-containers';
import { invalidateShop, isMoneyItem, stockShop } from '../api/shops-api';
import { gpAmountError, gpToCp } from './gp-amount';
import { OwnPriceInput } from './own-price-input';

/**
 * A shop has one price per item (DESIGN §4: `prices` by template), so what is already on the shelf sells at
 * the price the new units bring, or keeps its own when none is typed: said before the GM commits to it.
 */
function samePriceHint(
  shop: ShopInstance,
  templateId: string,
  name: string,
  priceCp: number | null,
): string | null {
  const shelved = shop.container.item_instances.filter((stack) => stack.item_template_id === templateId);
  const count = shelved.reduce((sum, stack) => sum + stack.quantity, 0);
  if (count === 0) return null;
  const current = shelved[0];
  if (priceCp !== null) {
    return `One price for every ${name} in this shop: the ${formatEnUs(count)} already on the shelf will sell at this price too.`;
  }
  if (current?.has_own_price && current.buy_price_cp !== null) {
    return `${name} has a price of its own in this shop (players pay ${formatCopper(current.buy_price_cp)} each); the new ones sell at it too.`;
  }
  return null;
}

/**
 * GM and managers put an item of theirs (the party stash, or their own character's) on the shop's shelf,
 * optionally at a price of its own (spec/02 §3 Stock payload: item_id, source_container_id, quantity, price).
 */
export function StockShopForm({
  shop,
  allowanceSpent = null,
}: {
  shop: ShopInstance;
  /**
   * The allowance stocking spends, used up this month (the shop party's: shops.service stockItem): Put on
   * the Shelf stays in place, focusable but closed, described by why; nothing is sent to be refused.
   */
  allowanceSpent?: ActionScope | null;
}) {
  const queryClient = useQueryClient();
  const refusalId = useId();
  const characters = useQuery(partyCharactersQuery(shop.party_id));
  const mine = (characters.data?.characters ?? []).filter((c) => c.is_owner);
  const sources = useOwnerContainers([
    { type: 'party', id: shop.party_id },
    ...mine.map((c) => ({ type: 'character' as const, id: c.id })),
  ]);
  const containers = sources.containers.filter((c) => c.can_act);
  const [sourceId, setSourceId] = useState<string | null>(null);
  const source = containers.find((c) => c.id === sourceId) ?? containers[0] ?? null;
  const items = useInfiniteQuery({
    ...containerItemsQuery(source?.id ?? '', noItemFilters),
    enabled: source !== null,
  });
  const wares = (items.data?.pages.flatMap((page) => page.items) ?? []).filter((i) => !isMoneyItem(i));
  const [itemId, setItemId] = useState<string | null>(null);
  const item = wares.find((i) => i.id === itemId) ?? null;
  const [quantity, setQuantity] = useState<number | string>(1);
  const [price, setPrice] = useState<number | string>('');
  // Typed past the stack, the number stays and the form says why, as the other quantity fields do: it was
  // brought down to the stack's size on leaving the field, and 2 of a lone Longsword shelved 1 unsaid.
  const amount = quantity === '' ? null : Number(quantity);
  const quantityError =
    amount === null || !item
      ? null
      : amount > item.quantity
        ? inventoryMessages.onlyInStack(item.quantity)
        : amount < 1
          ? 'Stock at least 1'
          : null;
  const validAmount = amount !== null && Number.isInteger(amount) && quantityError === null;
  const form = useRef<HTMLFormElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const priceHint = item
    ? samePriceHint(shop, item.item_template_id, item.item_template.name, gpToCp(price))
    : null;
  const stock = useMutation({
    mutationFn: () => {
      if (!item || !source) throw new Error('Choose an item');
      if (amount === null || !validAmount) throw new Error(quantityError ?? 'Enter how many to stock');
      return stockShop(shop.id, {
        itemId: item.id,
        sourceContainerId: source.id,
        quantity: amount,
        price: gpToCp(price),
      });
    },
    onSuccess: () => {
      toast.success(shopMessages.stockUpdated);
      setItemId(null);
      setQuantity(1);
      setPrice('');
      // The form starts again with its button disabled, which dropped the keyboard's focus to the page
      // (scrolled away from here): it goes to the form's heading, the next Tab to its fields. Not to Item
      // itself, a searchable Select that would open its list (and a phone's keyboard) at once. Never taken
      // from wherever the user moved it meanwhile.
      const active = document.activeElement;
      if (!active || active === document.body || form.current?.contains(active)) heading.current?.focus();
    },
    onSettled: () =>
      Promise.all([
        invalidateShop(queryClient, shop.id),
        invalidateContainers(queryClient, source ? [source.id] : []),
      ]),
  });

  return (
    <Paper withBorder p="md">
      <form
        ref={form}
        onSubmit={(event) => {
          event.preventDefault();
          // Blank is the item's own value; a price finer than a copper is refused beside the field.
          if (!allowanceSpent && item && validAmount && gpAmountError(price) === null) stock.mutate();
        }}
      >
        <Stack gap="sm">
          <Title order={2} size="h5" ref={heading} tabIndex={-1}>
            Stock an item
          </Title>
          {containers.length === 0 && !sources.isPending ? (
            <Text size="sm" c="dimmed">
              Items come from the party stash or your own character in this party; neither is available.
            </Text>
          ) : (
            <>
              <SimpleGrid cols={{ base: 1, xs: 2 }}>
                <Select
                  label="From"
                  data={groupedByOwner(containers, (c) => ({
                    value: c.id,
                    label: `${c.name} (${c.owner.name})`,
                  }))}
                  value={source?.id ?? null}
                  onChange={(value) => {
                    setSourceId(value);
                    setItemId(null);
                  }}
                  allowDeselect={false}
                  comboboxProps={{ withinPortal: true }}
                  {...containerSearchProps}
                />
                <Select
                  label="Item"
                  placeholder={items.isPending ? 'Loading items…' : 'Choose an item'}
                  data={wares.map((i) => ({ value: i.id, label: `${i.name} ×${formatEnUs(i.quantity)}` }))}
                  value={itemId}
                  onChange={(value) => {
                    setItemId(value);
                    setQuantity(1);
                  }}
                  searchable
                  nothingFoundMessage={noItemsFound}
                  comboboxProps={{ withinPortal: true }}
                />
                <NumberField
                  label="Quantity"
                  min={1}
                  max={item?.quantity}
                  clampBehavior="none"
                  allowDecimal={false}
                  allowNegative={false}
                  value={quantity}
                  onChange={setQuantity}
                  error={quantityError}
                />
                <OwnPriceInput
                  shop={shop}
                  placeholder="From the item's value"
                  value={price}
                  onChange={setPrice}
                />
              </SimpleGrid>
              {priceHint ? (
                <Text size="sm" c="dimmed" data-testid="stock-price-hint">
                  {priceHint}
                </Text>
              ) : null}
              {stock.isError ? (
                <Alert color="red" variant="light" role="alert">
                  {isApiError(stock.error)
                    ? (stock.error.details[0]?.message ?? stock.error.serverMessage ?? stock.error.message)
                    : stock.error.message}
                </Alert>
              ) : null}
              {allowanceSpent ? (
                <SpentAllowanceNote id={refusalId} scope={allowanceSpent} testId="stock-allowance-refusal" />
              ) : null}
              <Group justify="flex-end">
                <Button
                  type="submit"
                  variant="light"
                  loading={stock.isPending}
                  // Closed for the allowance, it stays focusable (aria-disabled) so that why is heard.
                  {...refusedButtonProps(allowanceSpent ? refusalId : null)}
                  disabled={!allowanceSpent && (!item || !validAmount)}
                >
                  Put on the Shelf
                </Button>
              </Group>
            </>
          )}
        </Stack>
      </form>
    </Paper>
  );
}
