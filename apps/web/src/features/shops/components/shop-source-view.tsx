import { useDraggable } from '@dnd-kit/core';
import { formatEnUs, type ShopInstance, type ShopStockItem, shopMessages } from '@haversack/contracts';
import {
  Alert,
  Anchor,
  Button,
  Center,
  Group,
  Paper,
  SegmentedControl,
  Select,
  Skeleton,
  Stack,
  Text,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { Link } from 'react-router';
import { noItemsFound } from '../../../components/empty-state';
import { ErrorPanel } from '../../../components/error-panel';
import { RefreshFailedNote } from '../../../components/refresh-failed-note';
import { useDragId } from '../../../lib/drag-id';
import { failedWithNothingToShow } from '../../../lib/load-failed';
import { type TradeButtonFocus, useStockFocus } from '../../../lib/use-stock-focus';
import { refusedButtonProps, SpentAllowanceNote } from '../../inventory/components/spent-allowance-note';
import { partyQuery } from '../../parties/api/parties-api';
import { partyShopsQuery, shopInstanceQuery } from '../api/shops-api';
import { useTrader } from '../hooks/use-trader';
import { isShopManagedParty } from './deploy-access';
import { LineName } from './line-name';
import { SetPriceButton, SetPriceDialog, usePriceDialog } from './set-price-dialog';
import { DiscountBadge, OpenBadge } from './shop-badges';
import {
  SellList,
  shelfKey,
  shelfLines,
  TraderPanel,
  tradeBlocker,
  traderLoading,
  UnpricedLineNote,
  useTradeAllowanceSpent,
} from './shop-trading';
import { askingPriceLabel, LINE_NAME_FLEX } from './stock-line';
import type { TradeOffer } from './trade-dialog';

/** What a dragged shop item carries (dnd-kit `data`); the workspace buys it when it lands on a container. */
export interface DraggedShopItem {
  kind: 'shop-item';
  shopId: string;
  shopName: string;
  itemId: string;
  name: string;
  /** How many its shelf line holds: one purchase may take them all. */
  quantity: number;
  /** Its shelf line (`shelfKey`), from which the purchase is made if this stack sells out meanwhile. */
  shelf: string;
  /** Null: unpriced, and the shop has no price for it; a drop is refused (`planDrop`), not bought. */
  unitCp: number | null;
  /** lbs each. */
  weight: number;
}

export function isDraggedShopItem(data: unknown): data is DraggedShopItem {
  return (
    !!data && typeof data === 'object' && 'kind' in data && data.kind === 'shop-item' && 'shopId' in data
  );
}

/**
 * The workspace's Shop tab (spec/02 §2): the party's shops as sources. Each stack shows its price; Buy (or
 * dragging it onto one of my containers) buys it after the price is confirmed; dropping one of my items on
 * this panel sells it.
 */
export function ShopSourceView({
  partyId,
  shopId,
  onSelect,
  draggable,
  onTrade,
}: {
  partyId: string;
  shopId: string | null;
  onSelect: (shopId: string) => void;
  draggable: boolean;
  onTrade: (offer: TradeOffer) => void;
}) {
  const shops = useQuery(partyShopsQuery(partyId));
  const list = shops.data?.instances ?? [];
  const current = shopId ?? list[0]?.id ?? null;
  useEffect(() => {
    if (!shopId && list[0]) onSelect(list[0].id);
  }, [shopId, list, onSelect]);
  const shop = useQuery({ ...shopInstanceQuery(current ?? ''), enabled: current !== null });
  // With no shop yet, Deploy Shop Template is offered only to who may deploy one (the party's Shops tab
  // does the same); the others are told shops appear here once one is.
  const party = useQuery({ ...partyQuery(partyId), enabled: shops.data !== undefined && list.length === 0 });
  const canDeploy = party.data !== undefined && isShopManagedParty(party.data);
  const trader = useTrader(shop.data?.can_trade ? partyId : null);

  if (shops.isPending) return <Skeleton height={44} />;
  if (shops.isError && !shops.data) {
    return (
      <ErrorPanel
        title={shopMessages.unableToLoad}
        message={shopMessages.loadFailed}
        onRetry={() => void shops.refetch()}
      />
    );
  }
  if (list.length === 0) {
    return (
      <Paper withBorder p="lg" data-testid="workspace-no-shops">
        <Stack gap="xs" align="center" ta="center">
          <Text c="dimmed" size="sm">
            {canDeploy ? shopMessages.noPartyShops : shopMessages.noPartyShopsForMember}
          </Text>
          {canDeploy ? (
            <Anchor component={Link} to="/shops" size="sm">
              Deploy Shop Template
            </Anchor>
          ) : null}
        </Stack>
      </Paper>
    );
  }
  return (
    <Stack gap="sm" data-testid="workspace-shop">
      <Select
        label="Shop"
        data={list.map((s) => ({
          value: s.id,
          label: `${s.name} · ${s.is_active ? 'Open' : 'Closed'} · ${formatEnUs(s.items_count)} items`,
        }))}
        value={current}
        onChange={(value) => value && onSelect(value)}
        allowDeselect={false}
        comboboxProps={{ withinPortal: true }}
      />
      <RefreshFailedNote query={shop} />
      {shop.isPending ? (
        <Skeleton height={96} />
      ) : failedWithNothingToShow(shop) ? (
        <ErrorPanel
          title={shopMessages.unableToLoad}
          message={shopMessages.fetchItemsFailed}
          onRetry={() => void shop.refetch()}
        />
      ) : (
        <ShopShelf shop={shop.data} trader={trader} draggable={draggable} onTrade={onTrade} />
      )}
    </Stack>
  );
}

function ShopShelf({
  shop,
  trader,
  draggable,
  onTrade,
}: {
  shop: ShopInstance;
  trader: ReturnType<typeof useTrader>;
  draggable: boolean;
  onTrade: (offer: TradeOffer) => void;
}) {
  const blocked = tradeBlocker(shop, trader);
  // At the month's limit of the party's inventory actions, Buy stays in place, disabled, and says why (as
  // on the shop's page), and a line cannot be picked up: every drop of it would be a purchase, refused.
  const allowanceSpent = useTradeAllowanceSpent(shop);
  const refusalId = useId();
  const refused = allowanceSpent !== null && blocked === null;
  // An observer is told it is the role (shops.policy, DESIGN §4), as the shop page says, not a character.
  const party = useQuery({ ...partyQuery(shop.party_id), enabled: !shop.can_trade });
  const refusal =
    blocked === shopMessages.cannotTrade && party.data?.user_role === 'observer'
      ? shopMessages.observerCannotTrade
      : blocked;
  // Why Buy is off, unless the trader panel above says so already: my containers are loading, or I have
  // no character in the party to trade with (said where "Pay from and carry into" goes, as on the shop page).
  const notice =
    shop.can_trade && (blocked === traderLoading || blocked === shopMessages.cannotTrade) ? null : refusal;
  // On a phone there is no second panel to drag from: selling happens here, from the chosen container.
  // Without a character of mine in the party there is nothing to sell from, so no Sell side either.
  const [side, setSide] = useState<'buy' | 'sell'>('buy');
  const canSell = shop.can_trade && trader.hasCharacter;
  const selling = canSell && side === 'sell';
  const lines = shelfLines(shop.container.item_instances);
  // The workspace returns focus from its trade dialog itself; the price dialog's is kept here.
  const pricing = usePriceDialog();
  const focus = useStockFocus(
    lines.map((line) => line.key),
    pricing.opened,
  );
  return (
    <Stack gap="sm">
      <Group gap={6}>
        <OpenBadge active={shop.is_active} />
        <DiscountBadge rate={shop.discount_rate} />
        <Anchor component={Link} to={`/shops/instances/${shop.id}`} size="sm">
          Open shop page
        </Anchor>
      </Group>
      {shop.can_trade ? <TraderPanel trader={trader} /> : null}
      {canSell ? (
        <SegmentedControl
          aria-label="Buy or sell"
          value={side}
          onChange={(value) => setSide(value === 'sell' ? 'sell' : 'buy')}
          data={[
            { value: 'buy', label: 'Buy' },
            { value: 'sell', label: 'Sell' },
          ]}
          fullWidth
          data-testid="workspace-shop-side"
        />
      ) : null}
      {notice ? (
        <Alert variant="light" color={shop.is_active ? 'blue' : 'red'}>
          {notice}
        </Alert>
      ) : draggable && blocked !== shopMessages.cannotTrade && !refused ? (
        <Text size="xs" c="dimmed">
          Drag an item onto your container to buy it; drop your items here to sell them.
        </Text>
      ) : null}
      {selling ? (
        <SellList shop={shop} trader={trader} allowanceSpent={allowanceSpent} onSell={onTrade} />
      ) : shop.container.item_instances.length === 0 ? (
        <Center py="xl">
          <Text c="dimmed">{noItemsFound}</Text>
        </Center>
      ) : (
        <Stack gap={6} data-testid="workspace-shop-stock" ref={focus.list} tabIndex={-1}>
          {refused && allowanceSpent ? (
            <SpentAllowanceNote id={refusalId} scope={allowanceSpent} testId="trade-allowance-refusal" />
          ) : null}
          {lines.map((line, index) => (
            <ShelfRow
              key={line.key}
              shop={shop}
              item={line.item}
              inStock={line.inStock}
              priceButton={focus.tradeButton(line.key, index, 'price')}
              onSetPrice={() => pricing.open(line)}
              draggable={draggable && blocked === null && !refused}
              disabled={blocked !== null || line.item.quantity < 1}
              refusalId={refused ? refusalId : null}
              onBuy={() => {
                if (refused || !trader.container || !trader.characterId) return;
                onTrade({
                  side: 'buy',
                  shopId: shop.id,
                  shopName: shop.name,
                  itemId: line.item.id,
                  shelf: shelfKey(line.item),
                  name: line.item.name,
                  max: line.inStock,
                  unitCp: line.item.buy_price_cp,
                  characterId: trader.characterId,
                  containerId: trader.container.id,
                });
              }}
            />
          ))}
        </Stack>
      )}
      {shop.can_manage ? <SetPriceDialog shop={shop} dialog={pricing} /> : null}
    </Stack>
  );
}

function ShelfRow({
  shop,
  item,
  inStock,
  draggable,
  disabled,
  refusalId,
  onBuy,
  priceButton,
  onSetPrice,
}: {
  shop: ShopInstance;
  item: ShopStockItem;
  inStock: number;
  draggable: boolean;
  disabled: boolean;
  /** Why Buy is refused though in place (a used-up allowance): the id of the line that says it. */
  refusalId: string | null;
  onBuy: () => void;
  /** Ties the Set price button (GM and managers) to the list's focus keeping. */
  priceButton: TradeButtonFocus;
  onSetPrice: () => void;
}) {
  const payload: DraggedShopItem = {
    kind: 'shop-item',
    shopId: shop.id,
    shopName: shop.name,
    itemId: item.id,
    name: item.name,
    quantity: inStock,
    shelf: shelfKey(item),
    unitCp: item.buy_price_cp,
    weight: item.weight,
  };
  const drag = useDraggable({ id: useDragId(`shop-item:${item.id}`), data: payload, disabled: !draggable });
  return (
    <Paper
      ref={drag.setNodeRef}
      withBorder
      p="xs"
      data-testid="shop-stock-item"
      data-item-name={item.name}
      style={{ opacity: drag.isDragging ? 0.5 : 1 }}
    >
      <Group justify="space-between" gap="xs" wrap="wrap">
        <Stack
          gap={0}
          style={{ minWidth: 0, flex: LINE_NAME_FLEX, cursor: draggable ? 'grab' : undefined }}
          {...(draggable
            ? { ...drag.attributes, ...drag.listeners, 'aria-roledescription': 'draggable' }
            : {})}
          aria-label={draggable ? `${item.name}, ${formatEnUs(inStock)} in stock, drag to buy` : undefined}
        >
          <LineName name={item.name} />
          <Text size="xs" c="dimmed" data-testid="stock-quantity">
            {formatEnUs(inStock)} in stock
          </Text>
          {item.buy_price_cp === null ? <UnpricedLineNote canManage={shop.can_manage} /> : null}
        </Stack>
        <Group gap="xs" wrap="wrap" justify="flex-end" ml="auto" miw={0}>
          <Text size="sm" fw={600} style={{ whiteSpace: 'nowrap' }} data-testid="stock-price">
            {askingPriceLabel(item.buy_price_cp)}
          </Text>
          {item.buy_price_cp === null ? null : (
            <Button
              size="xs"
              {...refusedButtonProps(refusalId)}
              onClick={onBuy}
              disabled={disabled}
              aria-label={`Buy ${item.name}`}
            >
              Buy
            </Button>
          )}
          {shop.can_manage ? (
            <SetPriceButton item={item} size="xs" focus={priceButton} onClick={onSetPrice} />
          ) : null}
        </Group>
      </Group>
    </Paper>
  );
}
