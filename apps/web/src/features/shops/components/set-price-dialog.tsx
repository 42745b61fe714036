import {
  formatCopper,
  formatEnUs,
  isUnpricedItem,
  type ShopInstance,
  type ShopStockItem,
  sellOfferCp,
  sellPriceCp,
  shopMessages,
} from '@haversack/contracts';
import { Alert, Button, type ButtonProps, Group, Modal, Stack, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { isApiError } from '../../../lib/http-client';
import { toast } from '../../../lib/toast';
import { useSingleFlight } from '../../../lib/use-single-flight';
import type { TradeButtonFocus } from '../../../lib/use-stock-focus';
import { invalidateShop, setShopPrice } from '../api/shops-api';
import { cpToGp, gpAmountError, gpToCp } from './gp-amount';
import { OwnPriceInput } from './own-price-input';
import type { ShelfLine } from './shop-trading';

export const setPriceFailed = 'The price could not be saved. Please try again.';
const enterAPrice = 'Enter a price in gp';

/** A shelf line's "Set price" button (GM and managers), named by its item for screen readers. */
export function SetPriceButton({
  item,
  size,
  focus,
  onClick,
}: {
  item: ShopStockItem;
  size: ButtonProps['size'];
  /** Ties the button to the list's focus keeping: focus comes back to it once the dialog closes. */
  focus?: TradeButtonFocus | undefined;
  onClick: () => void;
}) {
  return (
    <Button
      size={size}
      variant="default"
      {...focus}
      onClick={onClick}
      aria-label={`Set price of ${item.name}`}
    >
      Set price
    </Button>
  );
}

/**
 * Which shelf line's price dialog is open. One dialog per list rather than per row: a line repriced gets a
 * new key (its price is part of it) and its row is drawn anew, which must not take the dialog with it.
 */
export function usePriceDialog() {
  const [line, setLine] = useState<ShelfLine | null>(null);
  const [opened, setOpened] = useState(false);
  // Each opening starts a fresh form; the line stays while the dialog fades out.
  const [opening, setOpening] = useState(0);
  const open = useCallback((next: ShelfLine) => {
    setLine(next);
    setOpening((n) => n + 1);
    setOpened(true);
  }, []);
  const close = useCallback(() => setOpened(false), []);
  return { line, opened, opening, open, close };
}
export type PriceDialog = ReturnType<typeof usePriceDialog>;

/**
 * The shop's own price for one line of its shelf (PUT shop_instances/{id}/prices/{itemTemplateId}): every one
 * of the item on the shelf sells at it, and an unpriced one (an SRD magic item) can then be bought and sold.
 * No stocking needed; Clear goes back to the item's value.
 */
export function SetPriceDialog({ shop, dialog }: { shop: ShopInstance; dialog: PriceDialog }) {
  const [pending, setPending] = useState(false);
  return (
    <Modal
      opened={dialog.opened}
      onClose={() => {
        // Not while the request is out: its answer is shown here.
        if (!pending) dialog.close();
      }}
      title={dialog.line ? `Set price: ${dialog.line.item.name}` : 'Set price'}
      closeButtonProps={{ 'aria-label': 'Close' }}
      centered
    >
      {dialog.line ? (
        <SetPriceForm
          key={dialog.opening}
          shop={shop}
          line={dialog.line}
          onPending={setPending}
          onClose={dialog.close}
        />
      ) : null}
    </Modal>
  );
}

/**
 * What the shop would pay for one at the typed price (`sellOfferCp`, as the server's quote), when that is
 * worth saying: an unpriced item's offer goes by the price alone; a priced one's only changes when the price
 * caps it, since the shop never pays more for an item than it asks (`capped`). Null: nothing to say.
 */
export function buybackAt(
  shop: ShopInstance,
  item: ShopStockItem,
  ownPriceCp: number,
): { cp: number; capped: boolean } | null {
  const unpriced = isUnpricedItem(item);
  const cp = sellOfferCp({
    valueCp: item.value_cp,
    buyModifier: shop.buy_modifier,
    sellModifier: shop.sell_modifier,
    discountRate: shop.discount_rate,
    unpriced,
    ownPriceCp,
  });
  if (cp === null) return null;
  const uncapped = sellPriceCp({
    valueCp: unpriced ? ownPriceCp : item.value_cp,
    sellModifier: shop.sell_modifier,
  });
  if (!unpriced && cp === uncapped) return null;
  return { cp, capped: cp < uncapped };
}

/** What the line sells at now: its own price, its value's, or none. */
function currentPrice(shop: ShopInstance, item: ShopStockItem, ownCp: number | null): string {
  if (ownCp !== null) {
    const paid =
      item.buy_price_cp !== null && item.buy_price_cp !== ownCp
        ? ` (players pay ${formatCopper(item.buy_price_cp)} after the discount)`
        : '';
    return `Its own price in ${shop.name}: ${formatCopper(ownCp)} each${paid}.`;
  }
  if (item.buy_price_cp !== null)
    return `No price of its own here: it sells at ${formatCopper(item.buy_price_cp)} each, from its value.`;
  return 'It has no price here yet: players can neither buy it nor sell one to the shop.';
}

function SetPriceForm({
  shop,
  line,
  onPending,
  onClose,
}: {
  shop: ShopInstance;
  line: ShelfLine;
  onPending: (pending: boolean) => void;
  onClose: () => void;
}) {
  const { item, inStock } = line;
  const queryClient = useQueryClient();
  const ownCp = shop.own_prices_cp?.[item.item_template_id] ?? null;
  const hasOwn = item.has_own_price || ownCp !== null;
  const [price, setPrice] = useState<number | string>(cpToGp(ownCp));
  const [missing, setMissing] = useState(false);
  const once = useSingleFlight();
  const save = useMutation({
    mutationFn: (priceCp: number | null) => setShopPrice(shop.id, item.item_template_id, priceCp),
    onMutate: () => onPending(true),
    onSuccess: ({ message }, priceCp) => {
      toast.success(message ?? (priceCp === null ? shopMessages.priceCleared : shopMessages.priceSaved));
      onClose();
    },
    onSettled: () => {
      onPending(false);
      return invalidateShop(queryClient, shop.id);
    },
  });
  const send = (priceCp: number | null) => once(() => save.mutateAsync(priceCp));
  const typedCp = gpToCp(price);
  // The server's refusal of the price itself goes under the field; any other (the line sold out meanwhile)
  // above the buttons.
  const priceError = isApiError(save.error)
    ? save.error.details.find((detail) => detail.field === 'price_cp')?.message
    : undefined;
  const otherError = save.isError && !priceError ? save.error : null;
  const offer = typedCp === null ? null : buybackAt(shop, item, typedCp);

  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        // A price finer than a copper is refused beside the field (OwnPriceInput); nothing is sent.
        if (gpAmountError(price) !== null) return;
        if (typedCp === null) {
          setMissing(true);
          return;
        }
        send(typedCp);
      }}
    >
      <Stack gap="md">
        <Text size="sm" data-testid="set-price-current">
          {currentPrice(shop, item, ownCp)}
        </Text>
        <OwnPriceInput
          shop={shop}
          // The question the dialog asks, rather than its close button.
          data-autofocus
          placeholder={item.buy_price_cp === null ? 'No price yet' : 'From the item’s value'}
          value={price}
          onChange={(value) => {
            setPrice(value);
            setMissing(false);
            if (save.isError) save.reset();
          }}
          error={missing ? enterAPrice : priceError}
        />
        <Text size="sm" c="dimmed">
          One price for every {item.name} in this shop: the {formatEnUs(inStock)} on the shelf sell at it.
          {offer === null
            ? ''
            : ` The shop pays ${formatCopper(offer.cp)} for one sold to it${offer.capped ? ', no more than it asks' : ''}.`}
        </Text>
        {otherError ? (
          <Alert color="red" variant="light" role="alert">
            {isApiError(otherError)
              ? (otherError.details[0]?.message ?? otherError.serverMessage ?? otherError.message)
              : setPriceFailed}
          </Alert>
        ) : null}
        <Group justify="space-between" gap="sm">
          {hasOwn ? (
            <Button variant="subtle" color="red" onClick={() => send(null)} disabled={save.isPending}>
              Clear own price
            </Button>
          ) : (
            <span />
          )}
          <Group gap="sm" ml="auto">
            <Button variant="default" onClick={onClose} disabled={save.isPending}>
              Cancel
            </Button>
            <Button type="submit" loading={save.isPending}>
              Save
            </Button>
          </Group>
        </Group>
      </Stack>
    </form>
  );
}
