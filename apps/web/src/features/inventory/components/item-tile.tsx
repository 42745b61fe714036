import { useDraggable } from '@dnd-kit/core';
import {
  type Container,
  formatEnUs,
  formatStackWorth,
  type ItemInstance,
  inventoryMessages,
  isAttunable,
  isUnpricedItem,
} from '@haversack/contracts';
import { ActionIcon, Badge, Box, Group, Loader, Menu, Paper, Stack, Text } from '@mantine/core';
import { IconArrowsTransferUp, IconDots, IconLock } from '@tabler/icons-react';
import {
  type FocusEvent,
  type KeyboardEvent,
  type ReactElement,
  type ReactNode,
  useEffect,
  useRef,
  useState,
} from 'react';
import { Link } from 'react-router';
import { upgradeLinkLabel } from '../../../lib/upgrade-link';
import { formatStackWeight } from '../../../lib/weight';
import { allowanceUpgradePath } from '../api/allowance-api';
import { dragHandleStyle, useDragId } from '../dnd';
import { isAttuned, isEquipped, useItemStatus } from '../hooks/use-item-status';
import { useIsMoving } from '../hooks/use-moving-item';
import {
  partyCollaborationLocked,
  partyCollaborationUpgradePath,
  usePlanLockedContainers,
} from '../hooks/use-plan-locked-containers';
import { moveScope, useAllowanceRefusal } from '../hooks/use-spent-allowances';
import { useSwipe } from '../hooks/use-swipe';
import { itemIcon, rarityOf } from '../lib/item-look';
import { type TileNames, tileLabelDetail } from '../lib/tile-names';
import { containerLabel, type DraggedItem, type DraggedLootItem, type LayoutMode } from '../workspace-types';
import { GiveItemDialog } from './give-item-dialog';
import { GameIcon, ItemStatusBadges, RarityBadge } from './item-look';

/** The keys on a tile that open its "Move to..." menu (besides its button). */
export const moveMenuKeys = 'M Shift+F10 ContextMenu';
export const queueKey = 'Q';

export interface ItemTileProps {
  item: ItemInstance;
  /**
   * How the tile and its buttons name the item when another tile of the list has its name (tileNamesOf), so
   * that a screen reader tells them apart; by default the item's own name.
   */
  names?: TileNames;
  layout: LayoutMode;
  /** Desktop: the item can be dragged to the other panel (pointer or keyboard). */
  draggable: boolean;
  /** Phones and tablets: swipe right = Quick Transfer, left = Add to Queue. */
  swipe?: { onQuickTransfer: () => void; onAddToQueue: () => void };
  /** Q, or a click with Ctrl (⌘ on a Mac): into the transfer queue, to move several items at once. */
  onQueue?: () => void;
  onOpen: () => void;
  /**
   * Containers the item may move to with "Move to...": the source is left out here. Without any (or
   * when the source is read-only) the tile has no menu.
   */
  destinations?: Container[];
  onMoveTo?: (containerId: string) => void;
  /** The item grid's roving tabindex: 0 on the one tile the Tab key reaches, -1 on the others. */
  tabIndex?: 0 | -1;
  onFocus?: (event: FocusEvent<HTMLDivElement>) => void;
  /**
   * Id of the keyboard help the grid shows, read with the tile, and with it the drag's instructions; none
   * once the grid has told them (the arrows moved on from the tile the focus came in on).
   */
  describedBy?: string;
  /** What a drag carries; by default the stack as one of my items (a loot stack says where it comes from). */
  dragData?: DraggedItem | DraggedLootItem;
  /** The menu's verb: "Move to..." for my items, "Take to..." for a loot stack. */
  moveVerb?: 'Move' | 'Take';
  /** In a virtualised list: the tile's place (from 1) and the list's size, told to screen readers. */
  position?: { index: number; of: number };
}

/**
 * The character that owns the item's container, when the user may change it: only then do Equip, Attune
 * and "Give to..." make sense.
 */
export function actingCharacterOf(item: ItemInstance, containers: readonly Container[]): string | null {
  const source = containers.find((c) => c.id === item.container_id);
  return source?.can_act && source.character_id ? source.character_id : null;
}

/**
 * The room a grid card's Move and More actions buttons take at its foot (they are drawn over its corner):
 * the last thing on the card's last line, as wide and as tall as the buttons. The count and the facts
 * before it have the card's whole width; when the buttons no longer fit beside them (a two-panel half
 * on a touch screen, with 44 px buttons), the room wraps onto a line of its own and the card grows,
 * rather than squeeze the count to "×…" (review "tablet", 1024 × 768).
 */
function ButtonRoom({ width }: { width: string | undefined }) {
  if (!width) return null;
  return (
    <Box
      aria-hidden="true"
      data-testid="item-tile-button-room"
      ml="auto"
      style={{ width, height: 'var(--haversack-tile-action)', flexShrink: 0 }}
    />
  );
}

/** One stack in a container, as a grid card or a list row, with its "Move to..." menu. */
export function ItemTile({
  item,
  names,
  layout,
  draggable,
  swipe,
  onQueue,
  onOpen,
  destinations = [],
  onMoveTo,
  tabIndex = 0,
  onFocus,
  describedBy,
  dragData,
  moveVerb = 'Move',
  position,
}: ItemTileProps) {
  const payload: DraggedItem | DraggedLootItem = dragData ?? {
    kind: 'item',
    itemId: item.id,
    containerId: item.container_id,
    quantity: item.quantity,
    name: item.name,
    weight: item.weight,
  };
  // A move of this stack is on its way: shown at once, and no second move until the server answers.
  const moving = useIsMoving(item.id);
  const drag = useDraggable({
    id: useDragId(`item:${item.id}`),
    data: payload,
    disabled: !draggable || moving,
  });
  const swipeState = useSwipe({
    enabled: swipe !== undefined && !moving,
    onSwipeLeft: () => swipe?.onAddToQueue(),
    onSwipeRight: () => swipe?.onQuickTransfer(),
  });
  const [menuOpen, setMenuOpen] = useState(false);
  const [menuMounted, setMenuMounted] = useState(false);
  const [openOnMount, setOpenOnMount] = useState(false);
  // The menu is mounted closed first and opened once mounted, as a menu that was there all along opens.
  const openMoveMenu = () => {
    if (menuMounted) setMenuOpen(true);
    else {
      setMenuMounted(true);
      setOpenOnMount(true);
    }
  };
  useEffect(() => {
    if (!openOnMount) return;
    setOpenOnMount(false);
    setMenuOpen(true);
  }, [openOnMount]);
  const tileRef = useRef<HTMLDivElement | null>(null);
  const targets = onMoveTo ? destinations.filter((c) => c.id !== item.container_id) : [];
  const canMove = targets.length > 0;
  const rarity = rarityOf(item.item_template.metadata);
  const worth = isUnpricedItem(item)
    ? inventoryMessages.unpriced
    : formatStackWorth(item.value_cp * item.quantity);
  const icon = itemIcon(item.item_template);
  const ownerCharacterId = onMoveTo ? actingCharacterOf(item, destinations) : null;
  // The queue is reached from the "More actions" menu too: a swipe left is a gesture nobody sees, and a
  // keyboard has Q only at a desktop.
  // Offered while the stack's move is on its way too (the row keeps its button), but then it does nothing,
  // as Q and a swipe do nothing then.
  const queueAction = onQueue ?? swipe?.onAddToQueue;
  const addToQueue = queueAction
    ? () => {
        if (!moving) queueAction();
      }
    : undefined;
  const hasActions = ownerCharacterId !== null || addToQueue !== undefined;
  const [giving, setGiving] = useState(false);
  const status = [isEquipped(item) ? 'equipped' : null, isAttuned(item) ? 'attuned' : null].filter(Boolean);
  const label = `${names?.tile ?? item.name}, ${tileLabelDetail(item)}${moving ? ', moving' : ''}`;
  const buttonName = names?.buttons ?? item.name;

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    // Enter opens the item; Space starts a keyboard drag (dnd-kit's sensor, configured in the workspace);
    // M, Shift+F10 or the context-menu key open "Move to..."; Q puts it in the transfer queue.
    if (event.key === 'Enter') {
      event.preventDefault();
      onOpen();
      return;
    }
    if (
      onQueue &&
      !moving &&
      event.key.toLowerCase() === 'q' &&
      !event.ctrlKey &&
      !event.metaKey &&
      !event.altKey
    ) {
      event.preventDefault();
      onQueue();
      return;
    }
    const menuKey =
      event.key === 'ContextMenu' ||
      (event.key === 'F10' && event.shiftKey) ||
      (event.key.toLowerCase() === 'm' && !event.ctrlKey && !event.metaKey && !event.altKey);
    if (menuKey && canMove && !moving) {
      event.preventDefault();
      openMoveMenu();
      return;
    }
    drag.listeners?.onKeyDown?.(event);
  };

  // The dragged copy is drawn by the workspace's DragOverlay; the tile itself only follows a swipe.
  const transform = swipeState.offset ? `translateX(${swipeState.offset}px)` : undefined;
  const describedByIds = describedBy
    ? [draggable ? drag.attributes['aria-describedby'] : null, describedBy].filter(Boolean).join(' ')
    : undefined;
  // Room for the menu button, drawn over a card's corner (a list row has it beside the row, out of the
  // way of a swipe).
  // --haversack-tile-action (global.css) is an icon's size: 28 px, or a finger's 44 px on a touch screen.
  const buttons = (canMove ? 1 : 0) + (hasActions ? 1 : 0);
  const menuRoom =
    buttons > 0 && layout === 'grid'
      ? `calc(${buttons} * (var(--haversack-tile-action) + 4px) + 4px)`
      : undefined;
  const list = layout === 'list';
  const badges = Boolean(rarity) || status.length > 0;
  const moveButtonProps = {
    variant: 'subtle',
    color: 'gray',
    size: list ? 'lg' : 'md',
    tabIndex: -1,
    'aria-label': `${moveVerb} ${buttonName} to...`,
    'data-testid': 'item-move-menu',
    // Kept in its place while the stack's move is on its way, so the row does not jump.
    disabled: moving,
    ...(list
      ? { style: { flexShrink: 0 }, className: 'haversack-row-action' }
      : { pos: 'absolute' as const, right: 6, bottom: 6, className: 'haversack-tile-action' }),
    // Beside More actions: its width and the gap.
    ...(!list && hasActions ? { right: 'calc(var(--haversack-tile-action) + 10px)' } : {}),
  } as const;

  return (
    <Box
      pos="relative"
      role="listitem"
      aria-posinset={position?.index}
      aria-setsize={position?.of}
      data-testid="item-tile-cell"
      data-item-id={item.id}
      miw={0}
      // A list row: the tile, then its Move and More buttons beside it, or both under it (right-aligned) once
      // the reader's text is so large that the name would have no room beside them (listTileBasis).
      style={
        list
          ? { display: 'flex', flexWrap: 'wrap', alignItems: 'center', justifyContent: 'flex-end', gap: 4 }
          : undefined
      }
    >
      <Paper
        ref={(node: HTMLDivElement | null) => {
          drag.setNodeRef(node);
          tileRef.current = node;
        }}
        withBorder
        p={layout === 'grid' ? 'sm' : 'xs'}
        className="mantine-focus-auto"
        {...(draggable ? { ...drag.attributes, ...drag.listeners } : {})}
        {...swipeState.handlers}
        role="button"
        tabIndex={tabIndex}
        aria-label={label}
        aria-busy={moving || undefined}
        data-moving={moving || undefined}
        aria-describedby={describedByIds}
        aria-keyshortcuts={
          [canMove ? moveMenuKeys : null, onQueue ? queueKey : null].filter(Boolean).join(' ') || undefined
        }
        onKeyDown={onKeyDown}
        onFocus={(event) => {
          // A focused tile may be asked for its menu from the keyboard (M): have it ready, closed.
          if (canMove && !menuMounted) setMenuMounted(true);
          onFocus?.(event);
        }}
        onContextMenu={(event) => {
          // The context-menu key (and Shift+F10) opens "Move to..." instead of the browser's menu.
          if (canMove && event.button !== 2) event.preventDefault();
        }}
        onClick={(event) => {
          if (swipeState.consumeClick()) return;
          if (onQueue && !moving && (event.ctrlKey || event.metaKey)) onQueue();
          else onOpen();
        }}
        data-testid="item-tile"
        data-item-name={item.name}
        style={{
          ...(draggable ? dragHandleStyle : { cursor: 'pointer' }),
          transform,
          opacity: drag.isDragging || moving ? 0.5 : 1,
          flex: list ? `1 1 ${listTileBasis(buttons)}` : undefined,
          // Tiles of a grid row share its height, so the buttons at the cell's foot stay inside each one.
          height: list ? undefined : '100%',
          minWidth: 0,
          touchAction: swipe ? 'pan-y' : draggable ? dragHandleStyle.touchAction : undefined,
        }}
      >
        {layout === 'grid' ? (
          <Stack gap={4}>
            <Group gap={6} wrap="nowrap" align="flex-start">
              <GameIcon name={icon} size={22} />
              {/* The name has the card's whole width (the quantity sits with the facts below): it wraps
                  between words, one longer than two lines ends in an ellipsis; only a word wider than the card
                  itself breaks. The full name is the tile's label and its tooltip. */}
              <Text
                fw={600}
                size="sm"
                lineClamp={2}
                title={item.name}
                data-testid="item-tile-name"
                style={{ minWidth: 0, overflowWrap: 'break-word' }}
              >
                {item.name}
              </Text>
            </Group>
            <Group gap={6} wrap="wrap" data-testid="item-tile-facts">
              {moving ? <Loader size={12} aria-hidden="true" data-testid="item-tile-moving" /> : null}
              <Badge variant="light" size="sm" style={{ flexShrink: 0 }}>
                ×{formatEnUs(item.quantity)}
              </Badge>
              <Text size="xs" c="dimmed">
                {formatStackWeight(item.weight, item.quantity)} · {worth}
              </Text>
              {badges ? null : <ButtonRoom width={menuRoom} />}
            </Group>
            {badges ? (
              <Group gap={4}>
                {rarity ? <RarityBadge rarity={rarity} size="xs" /> : null}
                <ItemStatusBadges item={item} size="xs" />
                <ButtonRoom width={menuRoom} />
              </Group>
            ) : null}
          </Stack>
        ) : (
          // On a narrow row the facts move below the name: neither "Longsw…" nor "×…".
          <Group justify="space-between" gap={4} wrap="wrap">
            {/* The badges go under the name rather than squeeze it: at 320 px (400 % zoom) "UNCOMMON" beside
                it broke "Adamanti/ne Armor" inside its words. */}
            <Group gap={6} wrap="wrap" miw={0} style={{ flex: '1 1 9rem', rowGap: 2 }}>
              <Group gap={6} wrap="nowrap" miw={0}>
                <GameIcon name={icon} size={18} />
                {/* A name longer than two lines ends in an ellipsis, as on a tile: a 200-character one took
                    eleven lines of a phone's list. The full name is the row's label and its tooltip. */}
                <Text
                  fw={600}
                  size="sm"
                  lineClamp={2}
                  title={item.name}
                  data-testid="item-row-name"
                  style={{ minWidth: 0, overflowWrap: 'break-word' }}
                >
                  {item.name}
                </Text>
              </Group>
              {/* A phone always lists: the rarity is shown there as on a grid tile. */}
              {rarity ? <RarityBadge rarity={rarity} size="xs" /> : null}
              <ItemStatusBadges item={item} size="xs" />
            </Group>
            {/* Wraps too (the count under the facts, right-aligned) rather than leave the tile at large text. */}
            <Group gap="xs" wrap="wrap" justify="flex-end" ml="auto" miw={0}>
              {moving ? <Loader size={12} aria-hidden="true" data-testid="item-tile-moving" /> : null}
              <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                {formatStackWeight(item.weight, item.quantity)} · {worth}
              </Text>
              <Badge variant="light" size="sm" style={{ flexShrink: 0 }}>
                ×{formatEnUs(item.quantity)}
              </Badge>
            </Group>
          </Group>
        )}
      </Paper>
      <RowActions list={list && buttons > 0}>
        {canMove && !menuMounted ? (
          // The menu itself is mounted when first opened: a closed Mantine menu per tile costs its popover's
          // hooks on every tile drawn (issue 13 §1, §5).
          <ActionIcon {...moveButtonProps} aria-haspopup="menu" aria-expanded={false} onClick={openMoveMenu}>
            <IconArrowsTransferUp size={16} aria-hidden="true" />
          </ActionIcon>
        ) : null}
        {canMove && menuMounted ? (
          <MoveToMenu
            item={item}
            targets={targets}
            destinations={destinations}
            moveVerb={moveVerb}
            opened={menuOpen}
            onChange={setMenuOpen}
            button={
              <ActionIcon {...moveButtonProps}>
                <IconArrowsTransferUp size={16} aria-hidden="true" />
              </ActionIcon>
            }
            onMoveTo={(containerId) => onMoveTo?.(containerId)}
            onClose={() => {
              // Back to the tile from the menu (an item chosen, Escape), not away from where a click went.
              const focused = document.activeElement;
              if (!focused || focused === document.body || focused.closest('[data-menu-dropdown]'))
                tileRef.current?.focus();
            }}
          />
        ) : null}
        {hasActions ? (
          <ItemActionsMenu
            item={item}
            buttonName={buttonName}
            list={list}
            onAddToQueue={addToQueue}
            onGive={ownerCharacterId ? () => setGiving(true) : undefined}
            onClosed={() => tileRef.current?.focus()}
          />
        ) : null}
      </RowActions>
      {ownerCharacterId && giving ? (
        <GiveItemDialog
          item={item}
          ownerCharacterId={ownerCharacterId}
          opened={giving}
          onClose={() => setGiving(false)}
        />
      ) : null}
    </Box>
  );
}

/** A list row's buttons (Move, More actions) beside the tile: 44 px each on a phone, with the gaps. */
const rowButtonRoom = 48;

/**
 * The width a list row's tile asks for beside its buttons: all the row leaves them, so that at 320 px
 * (400 % zoom) they stay beside it (they dropped onto a row of their own, between two tiles), but at least
 * 8 em, room for a name's words at large text; past 12 em it only grows into what is left.
 */
export function listTileBasis(buttons: number): string {
  return `max(8em, min(12em, 100% - ${buttons * rowButtonRoom}px))`;
}

/**
 * A list row's buttons, kept together: they go under the tile as one, never one beside it and one under it.
 * A grid card draws them over its corner (absolutely placed), with nothing around them.
 */
function RowActions({ list, children }: { list: boolean; children: ReactNode }) {
  if (!list) return <>{children}</>;
  return (
    <Group gap={4} wrap="nowrap" data-testid="item-row-actions">
      {children}
    </Group>
  );
}

/**
 * A container's name with its owner's can be longer than a phone is wide ("Bag of Holding of the Archmage
 * Mordenkainen the Magnificent (Seraphina Windwhisper-Ravenholme)"): the menu is never wider than the
 * screen, nor than a comfortable column on a desktop, and a long name wraps onto a second line, whole,
 * rather than widening the page or being cut (review 2026-11: a 696 px menu on a 375 px phone).
 */
const moveMenuStyles = {
  dropdown: { maxWidth: 'min(24rem, calc(100vw - 2rem))' },
  item: { whiteSpace: 'normal' },
  itemLabel: { minWidth: 0, overflowWrap: 'anywhere' },
} as const;

/**
 * "Move to...": the containers the item may go to. A move the server would refuse up front is shown
 * disabled with why, and the way to the upgrade, rather than offered and answered with a refusal: one
 * the user's plan would have refused (into or out of a party's stash without party collaboration, spec/01
 * §3), and one that would spend a monthly allowance already used up (the party's when either end is a
 * party's stash, else the personal one: inventory.service `#moveWithin`). Mounted with the menu only, so
 * its plan question is asked for a tile about to be moved, not for every tile drawn (issue 13 §1).
 */
function MoveToMenu({
  item,
  targets,
  destinations,
  moveVerb,
  opened,
  onChange,
  button,
  onMoveTo,
  onClose,
}: {
  item: ItemInstance;
  targets: Container[];
  destinations: Container[];
  moveVerb: 'Move' | 'Take';
  opened: boolean;
  onChange: (opened: boolean) => void;
  /** The "Move to..." button, as the tile drew it before the menu was mounted. */
  button: ReactElement;
  onMoveTo: (containerId: string) => void;
  onClose: () => void;
}) {
  const locked = usePlanLockedContainers(destinations);
  const allowanceRefusal = useAllowanceRefusal();
  const source = destinations.find((c) => c.id === item.container_id);
  // A loot stack's take is not a move between my containers: it spends the party's allowance, into
  // whichever container (loot.service take), and the loot is the workspace's party's.
  const spendsOf = (container: Container) => (moveVerb === 'Move' ? moveScope(source, container) : 'party');
  const planLocked = (container: Container) => locked.has(container.id) || locked.has(item.container_id);
  const refusal = (container: Container) =>
    planLocked(container) ? partyCollaborationLocked : allowanceRefusal(spendsOf(container));
  const firstOpen = targets.find((container) => refusal(container) === null);
  // One way to the upgrade, for what closed the first of them (the feature, else the allowance).
  const closed = targets.find((container) => refusal(container) !== null);
  const scope = closed ? spendsOf(closed) : null;
  const upgradePath = !closed
    ? null
    : planLocked(closed) || !scope
      ? partyCollaborationUpgradePath
      : allowanceUpgradePath(scope);
  return (
    <Menu
      opened={opened}
      onChange={onChange}
      position="bottom-end"
      withinPortal
      withInitialFocusPlaceholder={false}
      returnFocus={false}
      onClose={onClose}
      styles={moveMenuStyles}
    >
      <Menu.Target>{button}</Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{moveVerb} to...</Menu.Label>
        {targets.map((container) => {
          const why = refusal(container);
          return (
            <Menu.Item
              key={container.id}
              data-autofocus={container === firstOpen ? true : undefined}
              disabled={why !== null}
              leftSection={why !== null ? <IconLock size={14} aria-hidden="true" /> : undefined}
              onClick={() => onMoveTo(container.id)}
            >
              {containerLabel(container)}
              {why !== null ? (
                <Text span display="block" size="xs" c="dimmed">
                  {why}
                </Text>
              ) : null}
            </Menu.Item>
          );
        })}
        {upgradePath ? (
          <>
            <Menu.Divider />
            {/* With every destination closed the menu would take no focus at all (Mantine focuses the
                data-autofocus item, and disabled items are skipped): the keyboard and a screen reader would
                be left on the page, the way to the upgrade out of their reach. */}
            <Menu.Item component={Link} to={upgradePath} data-autofocus={firstOpen ? undefined : true}>
              {upgradeLinkLabel}
            </Menu.Item>
          </>
        ) : null}
      </Menu.Dropdown>
    </Menu>
  );
}

/** The "More actions" button's look, the same before and after its menu is mounted. */
function actionsButtonProps(buttonName: string, list: boolean) {
  return {
    variant: 'subtle',
    color: 'gray',
    size: list ? 'lg' : 'md',
    tabIndex: -1,
    'aria-label': `More actions for ${buttonName}`,
    'data-testid': 'item-actions-menu',
    ...(list
      ? { style: { flexShrink: 0 }, className: 'haversack-row-action' }
      : { pos: 'absolute' as const, right: 6, bottom: 6, className: 'haversack-tile-action' }),
  } as const;
}

interface ItemActionsMenuProps {
  item: ItemInstance;
  /** The item as its tile's buttons name it (ItemTileProps.names). */
  buttonName: string;
  list: boolean;
  /** Into the transfer queue, as the item's dialog or sheet offers it. */
  onAddToQueue?: () => void;
  /** Only for an item of a character the user acts for: with it come Equip and Attune. */
  onGive?: () => void;
  onClosed: () => void;
}

/**
 * Add to Queue, equip, attune and "Give to..." without opening the item (the dialog offers them too);
 * "Give to..." disabled, with why, once the personal allowance it would spend is used up. The
 * menu (and its status mutation) is mounted on the first click: until then the tile draws only its button.
 */
function ItemActionsMenu(props: ItemActionsMenuProps) {
  const [used, setUsed] = useState(false);
  if (used) return <ItemActionsMenuMounted {...props} />;
  return (
    <ActionIcon
      {...actionsButtonProps(props.buttonName, props.list)}
      aria-haspopup="menu"
      aria-expanded={false}
      onClick={() => setUsed(true)}
    >
      <IconDots size={16} aria-hidden="true" />
    </ActionIcon>
  );
}

function ItemActionsMenuMounted({
  item,
  buttonName,
  list,
  onAddToQueue,
  onGive,
  onClosed,
}: ItemActionsMenuProps) {
  const status = useItemStatus(item);
  const attuned = isAttuned(item);
  // A gift spends the giver's personal allowance (inventory.service `give`); equipping spends none.
  const giveRefusal = useAllowanceRefusal()('personal');
  // Mounted by the first press: drawn closed, then opened, as a menu that was there all along opens.
  const [opened, setOpened] = useState(false);
  const buttonRef = useRef<HTMLButtonElement | null>(null);
  useEffect(() => {
    // The button pressed was the unmounted menu's, gone now: this one takes its focus, so that the menu's
    // Escape (which returns focus to what had it when the menu opened) lands on the ⋯ button, not nowhere.
    buttonRef.current?.focus();
    setOpened(true);
  }, []);
  const chosen = useRef(false);
  const choose = (action: () => void) => () => {
    chosen.current = true;
    action();
  };
  return (
    <Menu
      opened={opened}
      onChange={setOpened}
      position="bottom-end"
      withinPortal
      // Focus goes to the first action, not to an unnamed placeholder (a menu holds only menu items).
      withInitialFocusPlaceholder={false}
      returnFocus={false}
      onOpen={() => {
        chosen.current = false;
      }}
      onClose={() => {
        // An action chosen goes back to the tile it acted on; Escape goes back to the ⋯ button, as a menu
        // button does (review 2026-11); a click elsewhere keeps the focus where it went.
        if (chosen.current) onClosed();
        else {
          const focused = document.activeElement;
          if (!focused || focused === document.body || focused.closest('[data-menu-dropdown]'))
            buttonRef.current?.focus();
        }
      }}
    >
      <Menu.Target>
        <ActionIcon ref={buttonRef} {...actionsButtonProps(buttonName, list)}>
          <IconDots size={16} aria-hidden="true" />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        {onAddToQueue ? <Menu.Item onClick={choose(onAddToQueue)}>Add to Queue</Menu.Item> : null}
        {onGive && item.item_template.coin === null ? (
          <Menu.Item onClick={choose(() => status.mutate({ is_equipped: !isEquipped(item) }))}>
            {isEquipped(item) ? 'Unequip' : 'Equip'}
          </Menu.Item>
        ) : null}
        {onGive && (attuned || isAttunable(item.item_template)) ? (
          <Menu.Item onClick={choose(() => status.mutate({ is_attuned: !attuned }))}>
            {attuned ? 'End attunement' : 'Attune'}
          </Menu.Item>
        ) : null}
        {onGive ? (
          <Menu.Item
            disabled={giveRefusal !== null}
            leftSection={giveRefusal !== null ? <IconLock size={14} aria-hidden="true" /> : undefined}
            onClick={choose(onGive)}
          >
            Give to...
            {giveRefusal !== null ? (
              <Text span display="block" size="xs" c="dimmed">
                {giveRefusal}
              </Text>
            ) : null}
          </Menu.Item>
        ) : null}
      </Menu.Dropdown>
    </Menu>
  );
}
