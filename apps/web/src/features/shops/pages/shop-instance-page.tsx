import { partyMessages, shopLocationLabel, shopMessages } from '@haversack/contracts';
import { Alert, Badge, Group, Skeleton, Stack, Tabs, Text, Title, VisuallyHidden } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { useParams } from 'react-router';
import { DetailLoadError } from '../../../components/detail-load-error';
import { PageBreadcrumbs } from '../../../components/page-breadcrumbs';
import { RefreshFailedNote } from '../../../components/refresh-failed-note';
import { ScrollingTabsList } from '../../../components/scrolling-tabs-list';
import { isRecordNotFound } from '../../../lib/http-client';
import { usePageTitle } from '../../../lib/page-title';
import { partyQuery } from '../../parties/api/parties-api';
import { RealtimeIndicator } from '../../realtime/components/realtime-indicator';
import { usePartyChannels } from '../../realtime/hooks/use-party-channels';
import { ShareButton } from '../../shares/components/share-button';
import { shopInstanceQuery } from '../api/shops-api';
import {
  DiscountBadge,
  ModifierBadges,
  OpenBadge,
  ShopTypeBadge,
  StockBadge,
} from '../components/shop-badges';
import { ShopManagePanel } from '../components/shop-manage-panel';
import { ShopRequestsPanel } from '../components/shop-requests-panel';
import { ShopSalesLog } from '../components/shop-sales-log';
import { SellList, ShopStockList, TraderPanel, useTradeAllowanceSpent } from '../components/shop-trading';
import { TradeDialog, type TradeOffer } from '../components/trade-dialog';
import { useTrader } from '../hooks/use-trader';

/**
 * /shops/instances/{id}: the shop at the table. Everyone in the party browses the stock and prices; players
 * with a character buy and sell (price shown before confirming); the GM and managers also run the shop.
 * The page follows the party live, so a purchase elsewhere changes the stock here at once.
 */
export function ShopInstancePage() {
  const { id = '' } = useParams();
  const query = useQuery(shopInstanceQuery(id));
  const shop = query.data;
  usePageTitle(shop?.name ?? 'Shop');
  const realtime = usePartyChannels(shop?.party_id ?? null);
  const trader = useTrader(shop?.can_trade ? shop.party_id : null);
  // Who may not trade is told why, as the server says it (shops.policy): an observer for the role, whatever
  // characters they have (DESIGN §4), anyone else for want of a character. In an archived party nobody
  // trades or runs the shop (the server refuses with partyMessages.archived), whatever their characters:
  // it says so, as the party page does, rather than ask for a character they have.
  const party = useQuery({ ...partyQuery(shop?.party_id ?? ''), enabled: shop !== undefined });
  const archived = party.data?.is_archived === true;
  const cannotTrade =
    party.data?.user_role === 'observer' ? shopMessages.observerCannotTrade : shopMessages.cannotTrade;
  const [offer, setOffer] = useState<TradeOffer | null>(null);
  const closeTrade = useCallback(() => setOffer(null), []);
  const [tab, setTab] = useState<string>('buy');
  // At the month's limit of the party's inventory actions, Buy and Sell say so rather than be refused.
  const allowanceSpent = useTradeAllowanceSpent(shop ?? { can_trade: false, party_id: '' });
  // Found closed, the shop says so in a note; closed while someone is in it, that is news, and an alert.
  const [openSeen, setOpenSeen] = useState(false);
  if (shop?.is_active && !openSeen) setOpenSeen(true);

  if (query.isPending) {
    return (
      <Stack gap="md" aria-busy="true">
        <Title order={1}>
          <VisuallyHidden>Loading shop</VisuallyHidden>
        </Title>
        <Skeleton height={32} width={240} />
        <Skeleton height={200} />
      </Stack>
    );
  }
  // A refresh that failed keeps the shop on screen with a note; a shop gone meanwhile (404) ends the page.
  if (!shop || (query.isError && isRecordNotFound(query.error))) {
    return (
      <DetailLoadError
        error={query.error ?? new Error(shopMessages.instanceNotFound)}
        onRetry={() => void query.refetch()}
        subject="Shop"
        notFoundText="The shop might not exist or you may not have permission to view it."
        // A shop deleted while open (the query keeps what it last showed): back to its party's Shops tab.
        back={{
          href: shop ? `/parties/${shop.party_id}?tab=shops` : '/shops/instances',
          label: 'Back to Shops',
        }}
      />
    );
  }
  return (
    <Stack gap="md" maw={960}>
      <PageBreadcrumbs
        trail={[
          { label: 'Shops', to: '/shops/instances' },
          { label: shop.party.name, to: `/parties/${shop.party_id}` },
        ]}
        current={shop.name}
      />
      <Stack gap={6}>
        <Group gap="sm" align="center">
          <Title order={1} style={{ overflowWrap: 'anywhere' }}>
            {shop.name}
          </Title>
          <OpenBadge active={shop.is_active} archived={archived} />
          <DiscountBadge rate={shop.discount_rate} />
          <ShareButton kind="shop" targetId={shop.id} targetName={shop.name} />
        </Group>
        <Group gap={6}>
          <ShopTypeBadge type={shop.shop_type} />
          <StockBadge count={shop.items_count} />
          <ModifierBadges buyModifier={shop.buy_modifier} sellModifier={shop.sell_modifier} />
        </Group>
        {shop.owner || shop.location ? (
          <Text size="sm" c="dimmed">
            {[shop.owner && `Kept by ${shop.owner}`, shop.location && shopLocationLabel(shop.location)]
              .filter(Boolean)
              .join(' · ')}
          </Text>
        ) : null}
        {shop.description ? <Text size="sm">{shop.description}</Text> : null}
        <RealtimeIndicator status={realtime.status} />
      </Stack>
      <RefreshFailedNote query={query} />
      {!shop.is_active ? (
        <Alert role={openSeen ? 'alert' : 'note'} color="red" variant="light" data-testid="shop-closed">
          {shopMessages.shopClosed}
        </Alert>
      ) : null}
      {archived ? (
        <Alert role="note" variant="light" color="gray" data-testid="shop-party-archived">
          {party.data?.is_gm ? partyMessages.archivedForGm : partyMessages.archived}
        </Alert>
      ) : shop.can_trade ? (
        <TraderPanel trader={trader} />
      ) : (
        <Alert role="note" variant="light" color="blue" data-testid="cannot-trade">
          {shop.can_manage
            ? 'You run this shop. Add a character to the party to trade here yourself.'
            : cannotTrade}
        </Alert>
      )}
      <Tabs value={tab} onChange={(value) => value && setTab(value)} keepMounted={false}>
        <ScrollingTabsList selected={tab}>
          <Tabs.Tab value="buy">Buy</Tabs.Tab>
          {shop.can_trade ? <Tabs.Tab value="sell">Sell</Tabs.Tab> : null}
          {shop.can_trade || shop.can_manage ? (
            <Tabs.Tab
              value="requests"
              rightSection={
                (shop.pending_requests_count ?? 0) > 0 ? (
                  <Badge size="xs" circle aria-label={`${shop.pending_requests_count} waiting`}>
                    {shop.pending_requests_count}
                  </Badge>
                ) : null
              }
            >
              Requests
            </Tabs.Tab>
          ) : null}
          {shop.can_manage ? <Tabs.Tab value="sales">Sales log</Tabs.Tab> : null}
          {shop.can_manage ? <Tabs.Tab value="manage">Manage</Tabs.Tab> : null}
        </ScrollingTabsList>
        <Tabs.Panel value="buy" pt="md">
          <ShopStockList
            shop={shop}
            trader={trader}
            tradeOpen={offer !== null}
            allowanceSpent={allowanceSpent}
            onBuy={setOffer}
          />
        </Tabs.Panel>
        {shop.can_trade ? (
          <Tabs.Panel value="sell" pt="md">
            <SellList
              shop={shop}
              trader={trader}
              tradeOpen={offer !== null}
              allowanceSpent={allowanceSpent}
              onSell={setOffer}
            />
          </Tabs.Panel>
        ) : null}
        {shop.can_trade || shop.can_manage ? (
          <Tabs.Panel value="requests" pt="md">
            <ShopRequestsPanel shopId={shop.id} />
          </Tabs.Panel>
        ) : null}
        {shop.can_manage ? (
          <Tabs.Panel value="sales" pt="md">
            <ShopSalesLog shopId={shop.id} />
          </Tabs.Panel>
        ) : null}
        {shop.can_manage ? (
          <Tabs.Panel value="manage" pt="md">
            <ShopManagePanel shop={shop} />
          </Tabs.Panel>
        ) : null}
      </Tabs>
      <TradeDialog offer={offer} onClose={closeTrade} />
    </Stack>
  );
}
