import { useDndContext, useDroppable } from '@dnd-kit/core';
import type { Container, ItemInstance, ItemTemplate } from '@haversack/contracts';
import { Group, Paper, Tabs, Text } from '@mantine/core';
import { IconLock, IconWeight } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { selectFirstOrLastTab } from '../../../lib/select-first-or-last-tab';
import { LootSourceView } from '../../loot/components/loot-source-view';
import { ShopSourceView } from '../../shops/components/shop-source-view';
import type { TradeOffer } from '../../shops/components/trade-dialog';
import type { ItemFilters } from '../api/inventory-api';
import { noRoomFor, planDrop } from '../drop-plan';
import { partyCollaborationLocked } from '../hooks/use-plan-locked-containers';
import type {
  DropZone,
  LayoutMode,
  LootSource,
  PanelSide,
  PanelState,
  PanelTab,
  QueuedItem,
  ViewMode,
} from '../workspace-types';
import { containerLabel, tabLabels } from '../workspace-types';
import { ContainerView } from './container-view';
import { MarketBrowser } from './market-browser';

export const joinPartyForShopsMessage = 'Join a party to access shops/loots';

const tabs: PanelTab[] = ['container', 'shop', 'loot', 'market'];
const zoneKinds: Record<PanelTab, DropZone['kind']> = {
  container: 'container',
  shop: 'shop',
  loot: 'loot',
  market: 'marketplace',
};

export interface InventoryPanelProps {
  side: PanelSide;
  state: PanelState;
  onChange: (state: PanelState) => void;
  viewMode: ViewMode;
  containers: Container[];
  /** Containers the user's plan cannot change: a drag over one shows the lock instead of a drop target. */
  planLocked: ReadonlySet<string>;
  inParty: boolean;
  /** The party whose shops and loot the Shop and Loot tabs offer (issues 10, 11); null outside a party. */
  partyId: string | null;
  filters: ItemFilters;
  layout: LayoutMode;
  draggable: boolean;
  swipeable: boolean;
  /** Where the Market adds by default: the other panel's container in dual view, else this one's. */
  marketTargetId: string | null;
  onOpen: (item: ItemInstance) => void;
  onQuickTransfer: (item: QueuedItem) => void;
  onAddToQueue: (item: QueuedItem) => void;
  onAddTemplate: (template: ItemTemplate, containerId: string) => void;
  /** "Move to..." on the item tiles (issue 12): the containers an item may go to, and the move. */
  moveDestinations: Container[];
  onMoveTo: (item: ItemInstance, containerId: string) => void;
  onTrade: (offer: TradeOffer) => void;
  /** The Loot tab (issue 11): where loot may be taken, a loot stack's sheet, and "Take to...". */
  lootDestinations: Container[];
  onOpenLoot: (item: ItemInstance, source: LootSource) => void;
  onTakeLoot: (item: ItemInstance, source: LootSource, containerId: string) => void;
}

/** spec/02 §2: shops and loot need a party. */
function JoinParty() {
  return (
    <Paper withBorder p="lg" data-testid="join-party-for-sources">
      <Text c="dimmed" size="sm" ta="center">
        {joinPartyForShopsMessage}
      </Text>
    </Paper>
  );
}

/** Said on a drop target's outline, like a legend, so the panel's content does not shift under the pointer. */
function DropLegend({ testId, icon, children }: { testId: string; icon: ReactNode; children: string }) {
  return (
    <Group
      gap={6}
      c="red"
      data-testid={testId}
      wrap="nowrap"
      px={6}
      bg="var(--mantine-color-body)"
      style={{ position: 'absolute', top: -11, left: 12, maxWidth: 'calc(100% - 24px)', zIndex: 1 }}
    >
      {icon}
      {/* One line, so that it never covers the panel's tabs: a narrow panel ends it with "…", whole on hover. */}
      <Text size="xs" fw={700} truncate="end" title={children}>
        {children}
      </Text>
    </Group>
  );
}

/** One side of the workspace: its tab, its source and what the source holds. A drop zone for drags. */
export function InventoryPanel(props: InventoryPanelProps) {
  const { state, side } = props;
  const zone: DropZone = {
    side,
    containerId: state.containerId,
    kind: zoneKinds[state.tab],
    shopId: state.shopId ?? null,
    lootId: state.lootId ?? null,
  };
  const drop = useDroppable({ id: `panel:${side}`, data: zone });
  const labels = tabLabels[props.viewMode];
  const selectFirstOrLast = selectFirstOrLastTab(tabs, (tab) => props.onChange({ ...state, tab }));
  // The region says what it shows ("Backpack (Aria)", "Shops"): "First panel" told a screen reader nothing.
  // Side by side, the two may show the same container, so dual view says which side too (axe landmark-unique).
  const shownContainer = props.containers.find((container) => container.id === state.containerId);
  const shown =
    state.tab === 'container' && shownContainer ? containerLabel(shownContainer) : labels[state.tab];
  const panelName =
    props.viewMode === 'dual' ? `${side === 'left' ? 'First' : 'Second'} panel: ${shown}` : shown;
  const lockedOver =
    drop.isOver && zone.kind === 'container' && !!zone.containerId && props.planLocked.has(zone.containerId);
  const { active } = useDndContext();
  const noRoom =
    drop.isOver && !lockedOver && active
      ? noRoomFor(planDrop(active.data.current, zone, props.planLocked), (id) =>
          props.containers.find((container) => container.id === id),
        )
      : null;
  const refusedOver = lockedOver || noRoom !== null;
  return (
    <Paper
      ref={drop.setNodeRef}
      withBorder
      p="sm"
      component="section"
      aria-label={panelName}
      data-testid={`panel-${side}`}
      data-drop-over={drop.isOver ? (lockedOver ? 'locked' : noRoom ? 'full' : 'true') : undefined}
      style={{
        outline: drop.isOver
          ? `2px dashed var(--mantine-color-${refusedOver ? 'red' : 'teal'}-5)`
          : undefined,
        minWidth: 0,
        position: 'relative',
      }}
    >
      {lockedOver ? (
        <DropLegend
          testId="drop-locked"
          icon={<IconLock size={16} aria-hidden="true" style={{ flexShrink: 0 }} />}
        >
          {partyCollaborationLocked}
        </DropLegend>
      ) : null}
      {noRoom ? (
        <DropLegend
          testId="drop-no-room"
          icon={<IconWeight size={16} aria-hidden="true" style={{ flexShrink: 0 }} />}
        >
          {noRoom}
        </DropLegend>
      ) : null}
      <Tabs
        value={state.tab}
        onChange={(tab) => tab && props.onChange({ ...state, tab: tab as PanelTab })}
        keepMounted={false}
      >
        <Tabs.List grow mb="sm">
          {tabs.map((tab) => (
            // Home and End select too, as the arrow keys do (as the party's tabs).
            <Tabs.Tab key={tab} value={tab} onKeyDown={selectFirstOrLast}>
              {labels[tab]}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        <Tabs.Panel value="container">
          <ContainerView
            containers={props.containers}
            containerId={state.containerId}
            onSelect={(containerId) => props.onChange({ ...state, containerId })}
            filters={props.filters}
            layout={props.layout}
            draggable={props.draggable}
            swipeable={props.swipeable}
            onOpen={props.onOpen}
            onQuickTransfer={props.onQuickTransfer}
            onAddToQueue={props.onAddToQueue}
            moveDestinations={props.moveDestinations}
            onMoveTo={props.onMoveTo}
            marketTab={labels.market}
          />
        </Tabs.Panel>
        <Tabs.Panel value="shop">
          {props.partyId ? (
            <ShopSourceView
              partyId={props.partyId}
              shopId={state.shopId ?? null}
              onSelect={(shopId) => props.onChange({ ...state, shopId })}
              draggable={props.draggable}
              onTrade={props.onTrade}
            />
          ) : (
            <JoinParty />
          )}
        </Tabs.Panel>
        <Tabs.Panel value="loot">
          {props.partyId ? (
            <LootSourceView
              partyId={props.partyId}
              lootId={state.lootId ?? null}
              onSelect={(lootId) => props.onChange({ ...state, lootId })}
              filters={props.filters}
              layout={props.layout}
              draggable={props.draggable}
              swipeable={props.swipeable}
              destinations={props.lootDestinations}
              onOpen={props.onOpenLoot}
              onQuickTransfer={props.onQuickTransfer}
              onAddToQueue={props.onAddToQueue}
              onTake={props.onTakeLoot}
            />
          ) : (
            <JoinParty />
          )}
        </Tabs.Panel>
        <Tabs.Panel value="market">
          <MarketBrowser
            containers={props.containers}
            defaultTargetId={props.marketTargetId}
            draggable={props.draggable}
            onAdd={props.onAddTemplate}
          />
        </Tabs.Panel>
      </Tabs>
    </Paper>
  );
}
