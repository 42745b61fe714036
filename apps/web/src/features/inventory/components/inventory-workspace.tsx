import {
  DndContext,
  type DragEndEvent,
  DragOverlay,
  type DragStartEvent,
  KeyboardSensor,
  MouseSensor,
  TouchSensor,
  useSensor,
  useSensors,
} from '@dnd-kit/core';
import type { Container, ItemInstance, ItemTemplate, LootInstance, ShopInstance } from '@haversack/contracts';
import { formatEnUs, lootMessages } from '@haversack/contracts';
import { Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { useFocusReturn } from '@mantine/hooks';
import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, type RefObject, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router';
import { PageSkipLink } from '../../../components/page-skip-link';
import { toast } from '../../../lib/toast';
import { upgradeLinkLabel } from '../../../lib/upgrade-link';
import { useCurrentUser } from '../../../stores/auth-store';
import { lootKeys } from '../../loot/api/loot-api';
import { takeErrorMessage, useLootDestinations, useTakeLoot } from '../../loot/hooks/use-take-loot';
import { PartyRealtimeIndicator } from '../../realtime/components/party-realtime-indicator';
import { shopKeys } from '../../shops/api/shops-api';
import { type DraggedShopItem, isDraggedShopItem } from '../../shops/components/shop-source-view';
import { TradeDialog, type TradeOffer } from '../../shops/components/trade-dialog';
import { type ActionScope, allowanceUpgradePath } from '../api/allowance-api';
import { type ContainerOwner, type ItemFilters, searchableItemFilters } from '../api/inventory-api';
import { isCapacityRefusal } from '../api/transfer-messages';
import { panelCollision, panelJumpCoordinates, TOUCH_DRAG_DELAY_MS, TOUCH_DRAG_TOLERANCE_PX } from '../dnd';
import { dragAnnouncements, dragInstructions } from '../drag-announcements';
import { dropElsewhere, noRoomFor, planDrop, sellElsewhere } from '../drop-plan';
import { useDeviceClass } from '../hooks/use-device-class';
import { useAddFromMarket, useTransferItem } from '../hooks/use-inventory-actions';
import { useOpenItem } from '../hooks/use-open-item';
import { usePanelsInUrl } from '../hooks/use-panels-in-url';
import {
  partyCollaborationLocked,
  partyCollaborationUpgradePath,
  usePlanLockedContainers,
} from '../hooks/use-plan-locked-containers';
import {
  allowanceSpentMessage,
  containerScope,
  moveScope,
  SpentAllowancesContext,
  useSpentAllowances,
} from '../hooks/use-spent-allowances';
import { useTransferQueue } from '../hooks/use-transfer-queue';
import {
  asDragPayload,
  containerLabel,
  type DraggedLootItem,
  type DragPayload,
  type DropZone,
  isDraggedLootItem,
  type LayoutMode,
  type LootSource,
  type PanelSide,
  type PanelState,
  type QueuedItem,
  type ViewMode,
} from '../workspace-types';
import { AllowanceNotice } from './allowance-notice';
import { CreateContainerDialog } from './create-container-dialog';
import { InventoryPanel } from './inventory-panel';
import { ItemDetail } from './item-detail';
import { nowhereFromStash } from './move-item-form';
import { QuantityDialog, type QuantityRequest } from './quantity-dialog';
import { TransferQueueBar } from './transfer-queue-bar';
import { TransferQueueCover } from './transfer-queue-cover';
import { WorkspaceTopBar } from './workspace-top-bar';

export interface InventoryWorkspaceProps {
  /** Whose inventory this is (a character's or a party's name): the subtitle of "Inventory Management". */
  owner: string;
  titleOrder?: 1 | 2;
  /** The top bar's optional back button (spec/02 §2). */
  back?: { href: string; label: string };
  /** Shown under the top bar: a character's purse and load (issue 12 §4). */
  summary?: ReactNode;
  /** Every container the panels may show (the owner's, the party stash, my other characters'). */
  containers: Container[];
  initialLeft: PanelState;
  initialRight: PanelState;
  initialView?: ViewMode;
  inParty: boolean;
  /** The party whose shops and loot the Shop and Loot tabs offer (issues 10, 11). */
  partyId?: string | null;
  /** Whether the top bar tells the party's live status; not where the page around it already does. */
  showsLiveStatus?: boolean;
  /**
   * Where the add-container button creates containers; null: the owner of the first panel's container;
   * false: nowhere (the page says why, e.g. the plan lacks party collaboration), the button is disabled.
   */
  createOwner: ContainerOwner | null | false;
  /**
   * Where the Marketplace adds by default, when it may be added to: on the party's page its stash (review
   * newgm M2: the GM stocking the stash filled the player's backpack in the other panel). Without one, the
   * other panel's container in the two-column view, else the panel's own.
   */
  marketTargetId?: string | null;
}

/**
 * spec/02 §2 Inventory screen and transfer workspace: one or two panels, each with its tab and source;
 * drag and drop between them (pointer and keyboard), the Market as a source of new items, the item
 * detail modal (desktop) or bottom sheet (phones and tablets) and, on phones and tablets, swipes and the
 * transfer queue.
 */
export function InventoryWorkspace(props: InventoryWorkspaceProps) {
  const device = useDeviceClass();
  const wide = device === 'desktop';
  const touch = !wide;
  const {
    panels,
    setPanels,
    viewMode: viewModeChoice,
    setViewMode,
  } = usePanelsInUrl(
    props.containers,
    { left: props.initialLeft, right: props.initialRight },
    props.initialView ?? 'single',
  );
  const [layoutChoice, setLayout] = useState<LayoutMode>('grid');
  const viewMode: ViewMode = wide ? viewModeChoice : 'single';
  const layout: LayoutMode = wide ? layoutChoice : 'list';
  const [searchOpen, setSearchOpen] = useState(false);
  const [search, setSearch] = useState('');
  const [valueFilters, setValueFilters] = useState<Pick<ItemFilters, 'rarity' | 'minValue' | 'maxValue'>>({
    rarity: null,
    minValue: null,
    maxValue: null,
  });
  const filters: ItemFilters = searchableItemFilters({ search, ...valueFilters });
  const [creating, setCreating] = useState(false);
  const [quantityRequest, setQuantityRequest] = useState<QuantityRequest | null>(null);
  const [dragging, setDragging] = useState<DragPayload | DraggedShopItem | DraggedLootItem | null>(null);
  const [tradeOffer, setTradeOffer] = useState<TradeOffer | null>(null);
  const queryClient = useQueryClient();
  const detail = useOpenItem();
  // These dialogs are drawn only while open, so they unmount as they close, before Mantine's Modal can give
  // the keyboard's focus back: the workspace, which stays, gives it back to the button or item that opened
  // them (otherwise it fell to the top of the page).
  const createButton = useRef<HTMLButtonElement>(null);
  useFocusBackAtOnce(creating, createButton);
  useFocusReturn({ opened: quantityRequest !== null });
  useFocusReturn({ opened: tradeOffer !== null });
  useFocusReturn({ opened: detail.item !== null });
  const user = useCurrentUser();
  const { pathname } = useLocation();
  const byId = new Map(props.containers.map((c) => [c.id, c]));
  // The month's allowances already used up (the notice's check_limit answers): what would spend one is
  // shown disabled with why, and is not sent from here, as the server would only refuse it (DESIGN §5).
  const spent = useSpentAllowances(props.containers, props.partyId ?? null);
  /** What a queued stack's move or take would spend: a take the party's (loot.service), a move as moves do. */
  const queuedScope = (item: QueuedItem, destination: string): ActionScope | null =>
    item.loot ? 'party' : moveScope(byId.get(item.container_id), byId.get(destination));
  const spentReasonOf = (item: QueuedItem, destination: string) => {
    const scope = queuedScope(item, destination);
    return scope && spent.has(scope) ? allowanceSpentMessage(scope) : null;
  };
  /** Says why an action that would spend `scope` is not sent, and stops it; false when it may go. */
  const refuseSpent = (scope: ActionScope | null): boolean => {
    if (!scope || !spent.has(scope)) return false;
    toast.error(`${allowanceSpentMessage(scope)}.`, undefined, {
      label: upgradeLinkLabel,
      href: allowanceUpgradePath(scope),
    });
    return true;
  };
  // One queue per page and person: a reload keeps it, another page or account starts its own.
  const queue = useTransferQueue(`${user?.id ?? 'signed-out'}:${pathname}`, {
    refusalOf: (item, destination) => spentReasonOf(item, destination),
  });
  // Phones and tablets always show the queue (swipes fill it); a desktop once something is queued in it
  // (Q, Ctrl+click, or Add to Queue in an item's dialog) and until its run and any refusal are over.
  const showsQueue = touch || queue.items.length > 0 || queue.progress !== null || queue.error !== null;
  // How much of the screen the floating queue bar covers: a list that scrolls on its own pads its end by it.
  const [queueCover, setQueueCover] = useState(0);
  const transfer = useTransferItem();
  // Moved or added through the quantity dialog: a capacity refusal shows on its quantity, not in a toast.
  const transferAsked = useTransferItem({ showsRefusal: isCapacityRefusal });
  const addFromMarket = useAddFromMarket({ showsRefusal: isCapacityRefusal });
  const takeLoot = useTakeLoot();
  const lootDestinations = useLootDestinations(props.partyId ?? null, props.containers);
  const sensors = useSensors(
    // A mouse drags once it has moved 8 px (a click still opens the item). A finger drags after a press
    // and hold, so a finger that moves at once still scrolls the page (the tiles keep touch panning).
    useSensor(MouseSensor, { activationConstraint: { distance: 8 } }),
    useSensor(TouchSensor, {
      activationConstraint: { delay: TOUCH_DRAG_DELAY_MS, tolerance: TOUCH_DRAG_TOLERANCE_PX },
    }),
    // Enter opens an item, so only Space picks it up; Space or Enter drops, Escape cancels.
    useSensor(KeyboardSensor, {
      coordinateGetter: panelJumpCoordinates,
      keyboardCodes: { start: ['Space'], cancel: ['Escape'], end: ['Space', 'Enter'] },
    }),
  );

  const setPanel = (side: PanelSide) => (state: PanelState) =>
    setPanels((all) => ({ ...all, [side]: state }));
  const containerOf = (side: PanelSide) => panels[side].containerId;
  const marketTarget = (side: PanelSide): string | null => {
    const preferred = props.marketTargetId ? byId.get(props.marketTargetId) : undefined;
    if (preferred?.can_act) return preferred.id;
    const other = panels[side === 'left' ? 'right' : 'left'];
    if (viewMode === 'dual' && other.tab === 'container' && other.containerId) return other.containerId;
    return panels[side].containerId;
  };
  // The page says where new containers go; without that, the owner of the first panel's container.
  const createOwner: ContainerOwner | null = (() => {
    if (props.createOwner === false) return null;
    if (props.createOwner) return props.createOwner;
    const current = containerOf('left');
    const container = current ? byId.get(current) : undefined;
    return container?.can_act ? { type: container.owner.type, id: container.owner.id } : null;
  })();

  // "Backpack (Aria)": in a party every character's first container is a Backpack.
  const labelOf = (id: string, fallback: string) => {
    const container = byId.get(id);
    return container ? containerLabel(container) : fallback;
  };

  const askTransfer = (
    payload: { itemId: string; containerId: string; quantity: number; name: string },
    targetId: string,
  ) => {
    if (refuseSpent(moveScope(byId.get(payload.containerId), byId.get(targetId)))) return;
    const request = (quantity: number) => ({
      itemInstanceId: payload.itemId,
      sourceContainerId: payload.containerId,
      targetContainerId: targetId,
      quantity,
    });
    if (payload.quantity <= 1) return transfer.mutate(request(1));
    const target = labelOf(targetId, 'the container');
    setQuantityRequest({
      title: `Move ${payload.name}`,
      message: (left) => `How many of ${left} go to ${target}?`,
      confirmLabel: 'Move',
      max: payload.quantity,
      initial: payload.quantity,
      onConfirm: (quantity) => transferAsked.mutateAsync(request(quantity)),
      stack: { containerId: payload.containerId, itemId: payload.itemId },
      destination: { containerId: targetId },
    });
  };

  const askAdd = (template: Pick<ItemTemplate, 'id' | 'name'> & { weight?: number }, containerId: string) => {
    const container = byId.get(containerId);
    if (container && refuseSpent(containerScope(container))) return;
    const target = labelOf(containerId, 'the container');
    setQuantityRequest({
      title: `Add ${template.name}`,
      message: `How many go to ${target}?`,
      confirmLabel: 'Add',
      max: null,
      initial: 1,
      onConfirm: (quantity) =>
        addFromMarket.mutateAsync({
          templateId: template.id,
          templateName: template.name,
          containerId,
          quantity,
        }),
      destination: { containerId, ...(template.weight === undefined ? {} : { weightEach: template.weight }) },
    });
  };

  /** Shop → one of my character's containers: a purchase, confirmed with its price first (issue 10). */
  const askBuy = (item: DraggedShopItem, containerId: string | null) => {
    const target = containerId ? byId.get(containerId) : undefined;
    if (!target?.character_id || !target.can_act) {
      toast.error(dropElsewhere('buy', props.containers));
      return;
    }
    // A trade counts as a party action (shops.service), wherever in the party the goods go.
    if (refuseSpent('party')) return;
    setTradeOffer({
      side: 'buy',
      shopId: item.shopId,
      shopName: item.shopName,
      itemId: item.itemId,
      shelf: item.shelf,
      name: item.name,
      max: item.quantity,
      unitCp: item.unitCp,
      characterId: target.character_id,
      containerId: target.id,
    });
  };

  /** One of my items → a shop: a sale, confirmed with the shop's price first. */
  const askSell = (
    item: { itemId: string; containerId: string; quantity: number; name: string },
    shopId: string,
  ) => {
    const source = byId.get(item.containerId);
    if (!source?.character_id || !source.can_act) {
      toast.error(sellElsewhere(props.containers));
      return;
    }
    if (refuseSpent('party')) return;
    const shop = queryClient.getQueryData<ShopInstance>(shopKeys.instance(shopId));
    setTradeOffer({
      side: 'sell',
      shopId,
      shopName: shop?.name ?? 'The shop',
      itemId: item.itemId,
      name: item.name,
      max: item.quantity,
      unitCp: null,
      characterId: source.character_id,
      containerId: source.id,
    });
  };

  /**
   * Loot → one of my characters' containers: a take (issue 11), asking how many of a stack first (all by
   * default). Loot nobody may take from, or a container that is not a character's in the party, says why.
   */
  const askTake = (
    item: { itemId: string; name: string; quantity: number },
    loot: LootSource,
    containerId: string | null,
  ) => {
    if (loot.blocked) {
      toast.error(loot.blocked);
      return;
    }
    const target = lootDestinations.find((c) => c.id === containerId);
    if (!target) {
      toast.error(
        lootDestinations.length === 0 ? lootMessages.cannotTake : dropElsewhere('take', lootDestinations),
      );
      return;
    }
    // A take counts as a party action (loot.service), into whichever character's container.
    if (refuseSpent('party')) return;
    // No dialog is left open to show a refusal (the prompt closed as it confirmed): a toast says it.
    const run = (quantity: number) =>
      takeLoot.mutate(
        {
          lootId: loot.lootId,
          partyId: loot.partyId,
          itemInstanceId: item.itemId,
          targetContainerId: target.id,
          quantity,
        },
        { onError: (error) => toast.error(takeErrorMessage(error)) },
      );
    if (item.quantity <= 1) return run(1);
    setQuantityRequest({
      title: `Take ${item.name}`,
      message: `How many of ${formatEnUs(item.quantity)} go to ${target.name}?`,
      confirmLabel: 'Take',
      max: item.quantity,
      initial: item.quantity,
      onConfirm: (quantity) => void run(quantity),
    });
  };

  /**
   * Swipe right (Quick Transfer): a single item goes at once; for a stack, how many is asked first (all by
   * default). The toast that follows offers Undo.
   */
  const askQuickTransfer = (item: QueuedItem) => {
    const destination = queue.destination;
    if (destination && !item.loot?.blocked && refuseSpent(queuedScope(item, destination))) return;
    if (item.quantity <= 1 || item.loot?.blocked || !destination) {
      void queue.quickTransfer(item);
      return;
    }
    const target = labelOf(destination, 'the destination');
    setQuantityRequest({
      title: `${item.loot ? 'Take' : 'Move'} ${item.name}`,
      message: (left) => `How many of ${left} go to ${target}?`,
      confirmLabel: item.loot ? 'Take' : 'Move',
      max: item.quantity,
      initial: item.quantity,
      onConfirm: (quantity) => void queue.quickTransfer({ ...item, quantity }),
      // A loot's stack is followed by the loot's own refresh, not by the item's.
      ...(item.loot ? {} : { stack: { containerId: item.container_id, itemId: item.id } }),
    });
  };

  // A party stash the plan cannot change stops a drop before anything is asked (the menus lock it too).
  const planLocked = usePlanLockedContainers(props.containers);
  const containerLabelOf = (containerId: string) => {
    const container = byId.get(containerId);
    return container ? containerLabel(container) : 'the party stash';
  };

  /** A drop zone as a screen reader hears it during a keyboard drag: what the panel shows. */
  const zoneName = (zone: DropZone): string => {
    const panel = zone.side === 'left' ? 'the first panel' : 'the second panel';
    switch (zone.kind) {
      case 'marketplace':
        return 'the Marketplace';
      case 'shop':
        return (
          (zone.shopId && queryClient.getQueryData<ShopInstance>(shopKeys.instance(zone.shopId))?.name) ||
          panel
        );
      case 'loot':
        return (
          (zone.lootId && queryClient.getQueryData<LootInstance>(lootKeys.instance(zone.lootId))?.name) ||
          panel
        );
      case 'container': {
        const container = zone.containerId ? byId.get(zone.containerId) : undefined;
        if (!container) return panel;
        return planLocked.has(container.id)
          ? `${containerLabel(container)}, locked: ${partyCollaborationLocked}`
          : containerLabel(container);
      }
    }
  };

  const onDragStart = (event: DragStartEvent) => {
    const data = event.active.data.current;
    setDragging(isDraggedShopItem(data) ? data : isDraggedLootItem(data) ? data : asDragPayload(data));
  };
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    setDragging(null);
    const plan = planDrop(active.data.current, over?.data.current, planLocked);
    switch (plan.kind) {
      case 'refuse':
        toast.error(plan.message);
        return;
      case 'locked':
        toast.error(
          `${partyCollaborationLocked}: ${containerLabelOf(plan.containerId)} is out of reach.`,
          undefined,
          {
            label: upgradeLinkLabel,
            href: partyCollaborationUpgradePath,
          },
        );
        return;
      case 'take':
        askTake(plan.item, plan.item, plan.containerId);
        return;
      case 'buy':
        askBuy(plan.item, plan.containerId);
        return;
      case 'sell':
        askSell(plan.item, plan.shopId);
        return;
      case 'add':
        askAdd(
          { id: plan.template.templateId, name: plan.template.templateName, weight: plan.template.weight },
          plan.containerId,
        );
        return;
      case 'transfer':
        askTransfer(plan.item, plan.containerId);
        return;
      case 'none':
        return;
    }
  };

  // The container on screen is where the queued items come from: it is not offered as their destination.
  const shownSource =
    viewMode === 'single' && panels.left.tab === 'container' ? panels.left.containerId : null;
  const queueDestinations = props.containers.filter((c) => c.id !== shownSource);
  // Nor is one no longer offered: kept from before a reload, it may have been deleted or left the party.
  const offersDestination = queueDestinations.some((c) => c.id === queue.destination && c.can_act);
  useEffect(() => {
    if (queue.destination !== null && !offersDestination) queue.choose(null);
  }, [offersDestination, queue.destination, queue.choose]);

  // Nothing the user may act on but the container the items are in, and no loot they may take: in a
  // party's stash, a member without a character there, or a GM whose party has no character yet. The queue could never have a destination, so it says
  // why instead of offering an empty one, and items offer no Add to Queue.
  const actable = props.containers.filter((c) => c.can_act);
  const queueNowhere = actable.length <= 1 && lootDestinations.length === 0;
  const panelProps = (side: PanelSide) => ({
    side,
    state: panels[side],
    onChange: setPanel(side),
    viewMode,
    containers: props.containers,
    planLocked,
    inParty: props.inParty,
    partyId: props.partyId ?? null,
    filters,
    layout,
    draggable: wide && viewMode === 'dual',
    swipeable: touch,
    marketTargetId: marketTarget(side),
    onOpen: detail.open,
    onQuickTransfer: askQuickTransfer,
    // Swiped left, Q or its menu's Add to Queue: with nowhere to send it, say so rather than queue it.
    onAddToQueue: queueNowhere ? () => toast.info(nowhereFromStash) : queue.add,
    onAddTemplate: (template: ItemTemplate, containerId: string) => askAdd(template, containerId),
    moveDestinations: props.containers.filter((c) => c.can_act),
    onMoveTo: (item: ItemInstance, targetId: string) =>
      askTransfer(
        { itemId: item.id, containerId: item.container_id, quantity: item.quantity, name: item.name },
        targetId,
      ),
    onTrade: (offer: TradeOffer) => {
      if (!refuseSpent('party')) setTradeOffer(offer);
    },
    lootDestinations,
    onOpenLoot: detail.openLoot,
    onTakeLoot: (item: ItemInstance, loot: LootSource, containerId: string) =>
      askTake({ itemId: item.id, name: item.name, quantity: item.quantity }, loot, containerId),
  });

  const detailContainer = detail.item && !detail.loot ? byId.get(detail.item.container_id) : undefined;
  const root = useRef<HTMLDivElement>(null);
  // "Skip to items": the first panel's item grid (its one Tab stop), else that panel's first control.
  const focusItems = () => {
    const panel = root.current?.querySelector<HTMLElement>('[data-testid="panel-left"]');
    const target =
      panel?.querySelector<HTMLElement>('[data-item-grid] [data-testid="item-tile"][tabindex="0"]') ??
      panel?.querySelector<HTMLElement>('input, button, [tabindex="0"]');
    target?.focus();
    target?.scrollIntoView({ block: 'nearest' });
  };

  // New containers go to a character (personal) or a party (its allowance): inventory.service createContainer.
  const createScope: ActionScope | null = createOwner
    ? createOwner.type === 'party'
      ? 'party'
      : 'personal'
    : null;
  // Process Queue is closed, with why, when not one queued stack could go for a used-up allowance (when
  // some could, those go, and the others wait in the queue with the reason: useTransferQueue).
  const queueReasons = queue.destination
    ? queue.items.map((item) => spentReasonOf(item, queue.destination ?? ''))
    : [];
  const queueRefusal = queueReasons.every((why) => why !== null) ? (queueReasons[0] ?? null) : null;

  return (
    <SpentAllowancesContext.Provider value={spent}>
      <Stack ref={root} gap="md" data-testid="inventory-workspace" data-view={viewMode} data-device={device}>
        <PageSkipLink onActivate={focusItems}>Skip to items</PageSkipLink>
        <WorkspaceTopBar
          owner={props.owner}
          back={props.back}
          titleOrder={props.titleOrder ?? 1}
          wide={wide}
          searchOpen={searchOpen}
          onSearchOpenChange={setSearchOpen}
          search={search}
          onSearchChange={setSearch}
          filters={valueFilters}
          onFiltersChange={setValueFilters}
          viewMode={viewMode}
          onViewModeChange={setViewMode}
          layout={layout}
          onLayoutChange={setLayout}
          canCreate={createOwner !== null}
          createRefusal={createScope && spent.has(createScope) ? allowanceSpentMessage(createScope) : null}
          onCreateContainer={() => setCreating(true)}
          createButtonRef={createButton}
          status={
            props.partyId && props.showsLiveStatus !== false ? (
              <PartyRealtimeIndicator partyId={props.partyId} />
            ) : null
          }
        />
        {props.summary}
        <AllowanceNotice containers={props.containers} partyId={props.partyId ?? null} />
        <DndContext
          sensors={sensors}
          collisionDetection={panelCollision}
          onDragStart={onDragStart}
          onDragEnd={onDragEnd}
          onDragCancel={() => setDragging(null)}
          accessibility={{
            announcements: dragAnnouncements(zoneName, (dragged, over) =>
              noRoomFor(planDrop(dragged, over, planLocked), (id) => byId.get(id)),
            ),
            screenReaderInstructions: dragInstructions,
          }}
        >
          <TransferQueueCover.Provider value={showsQueue ? queueCover : 0}>
            <SimpleGrid cols={viewMode === 'dual' ? 2 : 1} spacing="md">
              <InventoryPanel {...panelProps('left')} />
              {viewMode === 'dual' ? <InventoryPanel {...panelProps('right')} /> : null}
            </SimpleGrid>
          </TransferQueueCover.Provider>
          <DragOverlay dropAnimation={null}>
            {dragging ? (
              <Paper withBorder shadow="md" p="xs" style={{ cursor: 'grabbing' }}>
                <Text fw={600} size="sm">
                  {dragging.kind === 'template'
                    ? dragging.templateName
                    : `${dragging.name} ×${formatEnUs(dragging.quantity)}`}
                </Text>
              </Paper>
            ) : null}
          </DragOverlay>
        </DndContext>
        {showsQueue ? (
          <TransferQueueBar
            queue={queue}
            containers={queueDestinations}
            swipes={touch}
            nowhere={queueNowhere ? nowhereFromStash : null}
            refusal={queueRefusal}
            onCoverChange={setQueueCover}
          />
        ) : null}
        {/* The dialogs are mounted while open only: closed Mantine modals still run their hooks on every
          render of the workspace (issue 13 §1). */}
        {detail.item ? (
          <ItemDetail
            item={detail.item}
            about={detail.about}
            loot={detail.loot}
            lootGone={detail.lootGone}
            device={device}
            canAct={detailContainer?.can_act ?? false}
            destinations={props.containers}
            lootDestinations={lootDestinations}
            onAddToQueue={
              queueNowhere
                ? undefined
                : (item) => {
                    queue.add(detail.loot ? { ...item, loot: detail.loot } : item);
                    detail.close();
                  }
            }
            onClose={detail.close}
          />
        ) : null}
        {creating ? (
          <CreateContainerDialog
            opened={creating}
            owner={createOwner}
            onClose={() => setCreating(false)}
            onCreated={(containerId) => {
              // Show the new container at once: in the second panel, or in the only one.
              setPanel(viewMode === 'dual' ? 'right' : 'left')({ tab: 'container', containerId });
            }}
          />
        ) : null}
        {quantityRequest ? (
          <QuantityDialog request={quantityRequest} onClose={() => setQuantityRequest(null)} />
        ) : null}
        {tradeOffer ? <TradeDialog offer={tradeOffer} onClose={() => setTradeOffer(null)} /> : null}
      </Stack>
    </SpentAllowancesContext.Provider>
  );
}

/**
 * Gives the focus back to `target` in the same commit that takes a dialog drawn only while open away. The
 * timer of Mantine's useFocusReturn left it on <body> meanwhile, for as long as drawing the new container
 * kept the page busy (about a quarter of a second), and a screen reader may read the page again from the
 * top when the focus lands there (WCAG 2.4.3). Only focus the dialog took along is moved.
 */
function useFocusBackAtOnce(opened: boolean, target: RefObject<HTMLElement | null>) {
  const wasOpen = useRef(opened);
  useLayoutEffect(() => {
    const closed = wasOpen.current && !opened;
    wasOpen.current = opened;
    if (!closed) return;
    const active = document.activeElement;
    if (active === null || active === document.body) target.current?.focus({ preventScroll: true });
  }, [opened, target]);
}
