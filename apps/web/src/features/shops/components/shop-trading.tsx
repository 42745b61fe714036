import {
  emptyPurse,
  formatCopper,
  formatEnUs,
  type ItemInstance,
  inventoryMessages,
  itemSellOfferCp,
  type ShopInstance,
  type ShopStockItem,
  sellLineKey,
  shopMessages,
} from '@haversack/contracts';
import {
  Alert,
  Badge,
  Button,
  Center,
  Group,
  Loader,
  Paper,
  Select,
  Skeleton,
  Stack,
  Text,
} from '@mantine/core';
import { IconCoins } from '@tabler/icons-react';
import { useInfiniteQuery } from '@tanstack/react-query';
import { memo, useCallback, useId, useMemo, useRef } from 'react';
import { ErrorPanel } from '../../../components/error-panel';
import { RefreshFailedNote } from '../../../components/refresh-failed-note';
import { failedWithNothingToShow } from '../../../lib/load-failed';
import { type TradeButtonFocus, useStockFocus } from '../../../lib/use-stock-focus';
import type { ActionScope } from '../../inventory/api/allowance-api';
import { containerItemsQuery, noItemFilters } from '../../inventory/api/inventory-api';
import { containerSearchProps, groupedByOwner } from '../../inventory/components/container-source-select';
import { refusedButtonProps, SpentAllowanceNote } from '../../inventory/components/spent-allowance-note';
import { partyActionAt, useAllowanceSpentAt } from '../../inventory/hooks/use-spent-allowances';
import { isMoneyItem } from '../api/shops-api';
import { purseWorth } from '../api/use-trade';
import type { Trader } from '../hooks/use-trader';
import { LineName } from './line-name';
import { SetPriceButton, SetPriceDialog, usePriceDialog } from './set-price-dialog';
import { askingPriceLabel, LINE_NAME_FLEX } from './stock-line';
import type { TradeOffer } from './trade-dialog';

function traderLabel(container: Trader['containers'][number]): string {
  return container.owner.name && container.owner.name !== container.name
    ? `${container.name} (${container.owner.name})`
    : container.name;
}

/** Why the Buy and Sell buttons are off while my characters and their containers load. */
export const traderLoading = 'Loading your containers…';

/** "Shopping as": the container I pay from and carry into, and the coins in it. */
export function TraderPanel({ trader }: { trader: Trader }) {
  if (trader.isPending) {
    return (
      <Paper withBorder p="sm" mih={64} data-testid="trader-loading" aria-busy="true">
        <Group gap="xs" wrap="nowrap" role="status">
          <Loader size="xs" aria-hidden="true" />
          <Text size="sm" c="dimmed">
            {traderLoading}
          </Text>
        </Group>
      </Paper>
    );
  }
  if (trader.isError) {
    return (
      <ErrorPanel
        title="Failed to load your containers"
        message="Your characters' containers could not be loaded, so you cannot trade yet."
        onRetry={trader.retry}
      />
    );
  }
  if (!trader.hasCharacter || !trader.container) {
    return (
      <Alert role="note" variant="light" color="blue" data-testid="cannot-trade">
        {shopMessages.cannotTrade}
      </Alert>
    );
  }
  return (
    <Paper withBorder p="sm" data-testid="trader-panel">
      <Group justify="space-between" align="flex-end" gap="sm">
        <Select
          label="Pay from and carry into"
          data={groupedByOwner(trader.containers, (c) => ({ value: c.id, label: traderLabel(c) }))}
          value={trader.container.id}
          onChange={(value) => value && trader.choose(value)}
          allowDeselect={false}
          comboboxProps={{ withinPortal: true }}
          {...containerSearchProps}
          style={{ flex: '1 1 220px' }}
        />
        <Group gap={6} wrap="nowrap" data-testid="my-coins" aria-live="polite">
          <IconCoins size={18} aria-hidden="true" />
          <Text size="sm" fw={600}>
            {trader.coinsPending
              ? 'Counting coins…'
              : `Your coins: ${purseWorth({ ...emptyPurse(), ...trader.coins })}`}
          </Text>
        </Group>
      </Group>
    </Paper>
  );
}

/** A line of the shop's shelf: every stack of one item at one price, bought from its largest stack. */
export interface ShelfLine {
  key: string;
  item: ShopStockItem;
  inStock: number;
}

/**
 * Items that do not stack (a backpack) sit in the shop as one instance each, and stackable ones in stacks of
 * their stack size: the shelf shows one line per item and price with the total in stock. A purchase names
 * the line's largest stack and may take the whole line (the server takes the rest from its other stacks).
 */
export function shelfLines(stock: readonly ShopStockItem[]): ShelfLine[] {
  const lines = new Map<string, ShelfLine>();
  for (const item of stock) {
    const key = shelfKey(item);
    const line = lines.get(key);
    if (!line) lines.set(key, { key, item, inStock: item.quantity });
    else {
      line.inStock += item.quantity;
      if (item.quantity > line.item.quantity) line.item = item;
    }
  }
  return [...lines.values()];
}

/**
 * My items as a shop buys them: one line per kind (`sellLineKey`: three daggers, a stack each, are one line
 * of 3; a renamed or equipped one is a line of its own), named by its largest stack; a sale of more than
 * that stack takes the rest from the line's others.
 */
export function sellLines(
  items: readonly ItemInstance[],
): { key: string; item: ItemInstance; quantity: number }[] {
  const lines = new Map<string, { key: string; item: ItemInstance; quantity: number }>();
  for (const item of items) {
    const key =
      sellLineKey({
        itemTemplateId: item.item_template_id,
        instanceData: item.instance_data,
        notes: item.notes,
        isIdentified: item.is_identified,
      }) ?? `stack:${item.id}`;
    const line = lines.get(key);
    if (!line) lines.set(key, { key, item, quantity: item.quantity });
    else {
      line.quantity += item.quantity;
      if (item.quantity > line.item.quantity) line.item = item;
    }
  }
  return [...lines.values()];
}

/**
 * The shelf line a stack sits on: one item at one price, one weight and one value (a stack with its own
 * weight or value is a line of its own). The public share page groups the same way (server `shelfRows`).
 */
export function shelfKey(item: ShopStockItem): string {
  return `${item.item_template_id}:${item.name}:${item.buy_price_cp}:${item.weight}:${item.value_cp}`;
}

/** Why the Buy buttons are off, if they are. */
export function tradeBlocker(shop: ShopInstance, trader: Trader): string | null {
  if (!shop.is_active) return shopMessages.shopClosed;
  if (!shop.can_trade) return shopMessages.cannotTrade;
  // Until my containers arrive there is nothing to pay from or carry into: a trade begun now would go nowhere.
  if (trader.isPending) return traderLoading;
  if (!trader.container) return shopMessages.cannotTrade;
  return null;
}

/**
 * The allowance a trade here would spend, when the server says it is used up this month, else null: every
 * purchase and sale is an action of the shop's party, whoever trades and wherever the goods go
 * (shops.service, `partyActionAt`). Asked only of someone who may trade here; an answer not yet in, failed
 * or unlimited spends nothing, and the server still decides.
 */
export function useTradeAllowanceSpent(
  shop: Pick<ShopInstance, 'can_trade' | 'party_id'>,
): ActionScope | null {
  return useAllowanceSpentAt(shop.can_trade ? partyActionAt(shop.party_id) : null);
}

/**
 * With the trade's allowance used up (`spent`), Buy and Sell stay in their place, focusable but disabled,
 * described by the line that says why above them (with the upgrade link): nothing is sent to be refused.
 */
function useSpentTrade(spent: ActionScope | null, blocked: string | null) {
  const refusalId = useId();
  const refused = spent !== null && blocked === null;
  return {
    refusalId: refused ? refusalId : null,
    note: refused ? (
      <SpentAllowanceNote id={refusalId} scope={spent} testId="trade-allowance-refusal" />
    ) : null,
  };
}

const listReset = { listStyle: 'none', margin: 0, padding: 0 } as const;

/** What the shop sells: each stack with its price here and a Buy button (the first of two taps). */
export function ShopStockList({
  shop,
  trader,
  tradeOpen,
  allowanceSpent = null,
  onBuy,
}: {
  shop: ShopInstance;
  trader: Trader;
  /** The trade dialog is open: once it closes, focus comes back to the row that opened it. */
  tradeOpen: boolean;
  /** The allowance a purchase would spend, used up this month (`useTradeAllowanceSpent`). */
  allowanceSpent?: ActionScope | null;
  onBuy: (offer: TradeOffer) => void;
}) {
  const stock = useMemo(() => shelfLines(shop.container.item_instances), [shop.container.item_instances]);
  const blocked = tradeBlocker(shop, trader);
  const spent = useSpentTrade(allowanceSpent, blocked);
  const pricing = usePriceDialog();
  const focus = useStockFocus(
    stock.map((line) => line.key),
    tradeOpen || pricing.opened,
  );
  // The rows are memoised: their Buy and Set price answer through these, the same on every render, which
  // read this render's shop, trader and allowance; opening a dialog then draws no row again.
  const latest = useRef({ stock, buy: (_line: ShelfLine) => {}, setPrice: (_line: ShelfLine) => {} });
  latest.current = {
    stock,
    buy: ({ key, item, inStock }) => {
      if (spent.refusalId || !trader.container || !trader.characterId) return;
      onBuy({
        side: 'buy',
        shopId: shop.id,
        shopName: shop.name,
        itemId: item.id,
        shelf: key,
        name: item.name,
        max: inStock,
        unitCp: item.buy_price_cp,
        characterId: trader.characterId,
        containerId: trader.container.id,
      });
    },
    setPrice: (line) => pricing.open(line),
  };
  const buyOf = useCallback((key: string) => {
    const line = latest.current.stock.find((l) => l.key === key);
    if (line) latest.current.buy(line);
  }, []);
  const setPriceOf = useCallback((key: string) => {
    const line = latest.current.stock.find((l) => l.key === key);
    if (line) latest.current.setPrice(line);
  }, []);
  if (stock.length === 0) {
    return (
      <Center py="xl" data-testid="shop-stock-empty" ref={focus.list} tabIndex={-1}>
        <Text c="dimmed">This shop has nothing for sale right now.</Text>
      </Center>
    );
  }
  return (
    <Stack gap={6} data-testid="shop-stock" ref={focus.list} tabIndex={-1}>
      {spent.note}
      {/* A list, a line a ware, as the loot's contents are: a screen reader says how many and steps through. */}
      <Stack gap={6} component="ul" aria-label={`${shop.name} stock`} style={listReset}>
        {stock.map((line, index) => {
          const { key, item, inStock } = line;
          return (
            <li key={key}>
              <StockRow
                shelfKey={key}
                item={item}
                inStock={inStock}
                canManage={shop.can_manage}
                tradeButton={focus.tradeButton(key, index)}
                priceButton={focus.tradeButton(key, index, 'price')}
                onSetPrice={setPriceOf}
                disabled={blocked !== null || item.quantity < 1}
                refusalId={spent.refusalId}
                onBuy={buyOf}
              />
            </li>
          );
        })}
      </Stack>
      {shop.can_manage ? <SetPriceDialog shop={shop} dialog={pricing} /> : null}
    </Stack>
  );
}

/**
 * Why an unpriced line of the shelf (`askingPriceCp` null) has no Buy button: for players, that the GM must
 * price it; for the GM and managers, how (the line's own Set price button).
 */
export function UnpricedLineNote({ canManage }: { canManage: boolean }) {
  return (
    <Text size="xs" c="orange" data-testid="stock-unpriced">
      {canManage ? shopMessages.unpricedOnShelfGm : shopMessages.unpricedNotForSale}
    </Text>
  );
}

const StockRow = memo(function StockRow({
  shelfKey,
  item,
  inStock,
  canManage,
  tradeButton,
  priceButton,
  disabled,
  refusalId,
  onBuy,
  onSetPrice,
}: {
  item: ShopStockItem;
  inStock: number;
  canManage: boolean;
  /** Ties the Buy button to the list's focus keeping. */
  tradeButton: TradeButtonFocus;
  /** The same for the Set price button (GM and managers). */
  priceButton: TradeButtonFocus;
  disabled: boolean;
  /** Why Buy is refused though in place (a used-up allowance): the id of the line that says it. */
  refusalId: string | null;
  /** The row's line of the shelf, which `onBuy` and `onSetPrice` are told. */
  shelfKey: string;
  onBuy: (key: string) => void;
  onSetPrice: (key: string) => void;
}) {
  return (
    <Paper withBorder p="xs" data-testid="shop-stock-item" data-item-name={item.name}>
      <Group justify="space-between" gap="xs" wrap="wrap">
        <Stack gap={0} style={{ minWidth: 0, flex: LINE_NAME_FLEX }}>
          <LineName name={item.name} />
          <Group gap={6}>
            <Text size="xs" c="dimmed" data-testid="stock-quantity">
              {formatEnUs(inStock)} in stock
            </Text>
            {item.has_own_price ? (
              <Badge size="xs" variant="light" color="grape">
                Shop price
              </Badge>
            ) : null}
          </Group>
          {item.buy_price_cp === null ? <UnpricedLineNote canManage={canManage} /> : null}
        </Stack>
        <Group gap="xs" wrap="wrap" justify="flex-end" ml="auto" miw={0}>
          <Text size="sm" fw={600} data-testid="stock-price" style={{ whiteSpace: 'nowrap' }}>
            {askingPriceLabel(item.buy_price_cp)}
          </Text>
          {item.buy_price_cp === null ? null : (
            <Button
              size="sm"
              {...tradeButton}
              {...refusedButtonProps(refusalId)}
              onClick={() => onBuy(shelfKey)}
              disabled={disabled}
              aria-label={`Buy ${item.name}`}
            >
              Buy
            </Button>
          )}
          {canManage ? (
            <SetPriceButton item={item} size="sm" focus={priceButton} onClick={() => onSetPrice(shelfKey)} />
          ) : null}
        </Group>
      </Group>
    </Paper>
  );
});

/** My items, each with what this shop pays for it; coins are money, not wares. */
export function SellList({
  shop,
  trader,
  tradeOpen = false,
  allowanceSpent = null,
  onSell,
}: {
  shop: ShopInstance;
  trader: Trader;
  /** The allowance a sale would spend, used up this month (`useTradeAllowanceSpent`). */
  allowanceSpent?: ActionScope | null;
  /**
   * The trade dialog is open: once it closes, focus comes back to the row that opened it. The workspace's
   * Shop tab leaves it out (the workspace returns focus from its dialog itself); a sold row that took focus
   * with it still hands it on.
   */
  tradeOpen?: boolean;
  onSell: (offer: TradeOffer) => void;
}) {
  const containerId = trader.container?.id ?? '';
  const query = useInfiniteQuery({
    ...containerItemsQuery(containerId, noItemFilters),
    enabled: trader.container !== null,
  });
  const blocked = tradeBlocker(shop, trader);
  const spent = useSpentTrade(allowanceSpent, blocked);
  const lines = sellLines(
    (query.data?.pages ?? []).flatMap((page) => page.items).filter((item) => !isMoneyItem(item)),
  );
  const focus = useStockFocus(
    lines.map((line) => line.key),
    tradeOpen,
  );
  if (!trader.container) return null;
  if (query.isPending) return <Skeleton height={96} />;
  if (failedWithNothingToShow(query)) {
    return (
      <ErrorPanel
        title="Error loading items"
        message="Your items could not be loaded."
        onRetry={() => void query.refetch()}
      />
    );
  }
  // My items failed to refresh: what was loaded stays to sell from, with a note (the sale is checked anew).
  const refreshNote = <RefreshFailedNote query={query} />;
  if (lines.length === 0) {
    return (
      <>
        {refreshNote}
        <Center py="xl" data-testid="sell-list-empty" ref={focus.list} tabIndex={-1}>
          <Text c="dimmed">Nothing to sell in {trader.container.name}.</Text>
        </Center>
      </>
    );
  }
  return (
    <Stack gap={6} data-testid="sell-list" ref={focus.list} tabIndex={-1}>
      {spent.note}
      {refreshNote}
      <Stack gap={6} component="ul" aria-label="Your items to sell" style={listReset}>
        {lines.map(({ key, item, quantity }, index) => (
          <li key={key}>
            <SellRow
              item={item}
              quantity={quantity}
              tradeButton={focus.tradeButton(key, index)}
              // The server's figure, as its quote and the sale give it: never more than the shop asks.
              priceCp={itemSellOfferCp(shop, item)}
              disabled={blocked !== null}
              refusalId={spent.refusalId}
              onSell={(unitCp) => {
                if (spent.refusalId || !trader.characterId) return;
                onSell({
                  side: 'sell',
                  shopId: shop.id,
                  shopName: shop.name,
                  itemId: item.id,
                  name: item.name,
                  max: quantity,
                  unitCp,
                  characterId: trader.characterId,
                  containerId: item.container_id,
                });
              }}
            />
          </li>
        ))}
      </Stack>
      {query.hasNextPage ? (
        <Button
          variant="subtle"
          onClick={() => void query.fetchNextPage()}
          loading={query.isFetchingNextPage}
          style={{ alignSelf: 'center' }}
        >
          Load more items
        </Button>
      ) : null}
    </Stack>
  );
}

function SellRow({
  item,
  quantity,
  priceCp,
  tradeButton,
  disabled,
  refusalId,
  onSell,
}: {
  item: ItemInstance;
  /** How many its line holds (several stacks of an item that does not stack). */
  quantity: number;
  /** What the shop pays for one (`itemSellOfferCp`); null: unpriced, and the shop has no price for it. */
  priceCp: number | null;
  /** Ties the Sell button to the list's focus keeping. */
  tradeButton: TradeButtonFocus;
  disabled: boolean;
  /** Why Sell is refused though in place (a used-up allowance): the id of the line that says it. */
  refusalId: string | null;
  onSell: (unitCp: number) => void;
}) {
  return (
    <Paper withBorder p="xs" data-testid="sell-item" data-item-name={item.name}>
      <Group justify="space-between" gap="xs" wrap="wrap">
        <Stack gap={0} style={{ minWidth: 0, flex: LINE_NAME_FLEX }}>
          <LineName name={item.name} />
          <Text size="xs" c="dimmed">
            You have {formatEnUs(quantity)}
          </Text>
          {priceCp === null ? (
            <Text size="xs" c="orange" data-testid="sell-no-offer">
              {shopMessages.unpricedNoOffer}
            </Text>
          ) : null}
        </Stack>
        <Group gap="xs" wrap="wrap" justify="flex-end" ml="auto" miw={0}>
          <Text size="sm" fw={600} style={{ whiteSpace: 'nowrap' }} data-testid="sell-price">
            {priceCp === null ? inventoryMessages.unpriced : formatCopper(priceCp)}
          </Text>
          {priceCp === null ? null : (
            <Button
              size="sm"
              variant="light"
              {...tradeButton}
              {...refusedButtonProps(refusalId)}
              onClick={() => onSell(priceCp)}
              disabled={disabled}
              aria-label={`Sell ${item.name}`}
            >
              Sell
            </Button>
          )}
        </Group>
      </Group>
    </Paper>
  );
}
