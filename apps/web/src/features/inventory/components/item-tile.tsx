import { useDraggable } from '@dnd-kit/core';
import { type Container, formatStackValue, type ItemInstance } from '@haversack/contracts';
import { ActionIcon, Badge, Box, Group, Menu, Paper, Stack, Text } from '@mantine/core';
import { IconArrowsTransferUp } from '@tabler/icons-react';
import { type FocusEvent, type KeyboardEvent, useRef, useState } from 'react';
import { dragHandleStyle, useDragId } from '../dnd';
import { useSwipe } from '../hooks/use-swipe';
import { containerLabel, type DraggedItem, type LayoutMode } from '../workspace-types';

/** The keys on a tile that open its "Move to..." menu (besides its button). */
export const moveMenuKeys = 'M Shift+F10 ContextMenu';

export interface ItemTileProps {
  item: ItemInstance;
  layout: LayoutMode;
  /** Desktop: the item can be dragged to the other panel (pointer or keyboard). */
  draggable: boolean;
  /** Phones and tablets: swipe right = Quick Transfer, left = Add to Queue. */
  swipe?: { onQuickTransfer: () => void; onAddToQueue: () => void };
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
  /** Id of the keyboard help the grid shows (read with the tile). */
  describedBy?: string;
}

function rarityOf(item: ItemInstance): string | null {
  const rarity = item.item_template.metadata.rarity;
  return typeof rarity === 'string' && rarity !== '' ? rarity : null;
}

/** One stack in a container, as a grid card or a list row, with its "Move to..." menu. */
export function ItemTile({
  item,
  layout,
  draggable,
  swipe,
  onOpen,
  destinations = [],
  onMoveTo,
  tabIndex = 0,
  onFocus,
  describedBy,
}: ItemTileProps) {
  const payload: DraggedItem = {
    kind: 'item',
    itemId: item.id,
    containerId: item.container_id,
    quantity: item.quantity,
    name: item.name,
  };
  const drag = useDraggable({ id: useDragId(`item:${item.id}`), data: payload, disabled: !draggable });
  const swipeState = useSwipe({
    enabled: swipe !== undefined,
    onSwipeLeft: () => swipe?.onAddToQueue(),
    onSwipeRight: () => swipe?.onQuickTransfer(),
  });
  const [menuOpen, setMenuOpen] = useState(false);
  const tileRef = useRef<HTMLDivElement | null>(null);
  const targets = onMoveTo ? destinations.filter((c) => c.id !== item.container_id) : [];
  const canMove = targets.length > 0;
  const rarity = rarityOf(item);
  const label = `${item.name}, quantity ${item.quantity}`;

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    // Enter opens the item; Space starts a keyboard drag (dnd-kit's sensor, configured in the workspace);
    // M, Shift+F10 or the context-menu key open "Move to...".
    if (event.key === 'Enter') {
      event.preventDefault();
      onOpen();
      return;
    }
    const menuKey =
      event.key === 'ContextMenu' ||
      (event.key === 'F10' && event.shiftKey) ||
      (event.key.toLowerCase() === 'm' && !event.ctrlKey && !event.metaKey && !event.altKey);
    if (menuKey && canMove) {
      event.preventDefault();
      setMenuOpen(true);
      return;
    }
    drag.listeners?.onKeyDown?.(event);
  };

  // The dragged copy is drawn by the workspace's DragOverlay; the tile itself only follows a swipe.
  const transform = swipeState.offset ? `translateX(${swipeState.offset}px)` : undefined;
  const describedByIds =
    [draggable ? drag.attributes['aria-describedby'] : null, describedBy].filter(Boolean).join(' ') ||
    undefined;
  // Room for the menu button, drawn over a card's corner (a list row has it beside the row, out of the
  // way of a swipe).
  const menuRoom = canMove && layout === 'grid' ? 36 : undefined;
  const list = layout === 'list';

  return (
    <Box
      pos="relative"
      role="listitem"
      data-testid="item-tile-cell"
      data-item-id={item.id}
      miw={0}
      style={list ? { display: 'flex', alignItems: 'center', gap: 4 } : undefined}
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
        aria-describedby={describedByIds}
        aria-keyshortcuts={canMove ? moveMenuKeys : undefined}
        onKeyDown={onKeyDown}
        onFocus={onFocus}
        onContextMenu={(event) => {
          // The context-menu key (and Shift+F10) opens "Move to..." instead of the browser's menu.
          if (canMove && event.button !== 2) event.preventDefault();
        }}
        onClick={() => {
          if (!swipeState.consumeClick()) onOpen();
        }}
        data-testid="item-tile"
        data-item-name={item.name}
        style={{
          ...(draggable ? dragHandleStyle : { cursor: 'pointer' }),
          transform,
          opacity: drag.isDragging ? 0.5 : 1,
          flex: list ? 1 : undefined,
          minWidth: 0,
          touchAction: swipe ? 'pan-y' : draggable ? dragHandleStyle.touchAction : undefined,
        }}
      >
        {layout === 'grid' ? (
          <Stack gap={4}>
            <Group justify="space-between" gap={4} wrap="nowrap">
              <Text fw={600} size="sm" lineClamp={2}>
                {item.name}
              </Text>
              <Badge variant="light" size="sm" style={{ flexShrink: 0 }}>
                ×{item.quantity}
              </Badge>
            </Group>
            <Text size="xs" c="dimmed" pr={menuRoom}>
              {item.totalWeight.toFixed(1)} lb · {formatStackValue(item.value_cp * item.quantity)}
            </Text>
            {rarity ? (
              <Text size="xs" c="dimmed" tt="capitalize" pr={menuRoom}>
                {rarity}
              </Text>
            ) : null}
          </Stack>
        ) : (
          <Group justify="space-between" gap="xs" wrap="nowrap">
            <Text fw={600} size="sm" truncate>
              {item.name}
            </Text>
            <Group gap="xs" wrap="nowrap">
              <Text size="xs" c="dimmed">
                {item.totalWeight.toFixed(1)} lb · {formatStackValue(item.value_cp * item.quantity)}
              </Text>
              <Badge variant="light" size="sm">
                ×{item.quantity}
              </Badge>
            </Group>
          </Group>
        )}
      </Paper>
      {canMove ? (
        <Menu
          opened={menuOpen}
          onChange={setMenuOpen}
          position="bottom-end"
          withinPortal
          withInitialFocusPlaceholder={false}
          returnFocus={false}
          onClose={() => {
            // Back to the tile from the menu (an item chosen, Escape), not away from where a click went.
            const focused = document.activeElement;
            if (!focused || focused === document.body || focused.closest('[data-menu-dropdown]'))
              tileRef.current?.focus();
          }}
        >
          <Menu.Target>
            <ActionIcon
              variant="subtle"
              color="gray"
              size={list ? 'lg' : 'md'}
              tabIndex={-1}
              aria-label={`Move ${item.name} to...`}
              data-testid="item-move-menu"
              {...(list ? { style: { flexShrink: 0 } } : { pos: 'absolute' as const, right: 6, bottom: 6 })}
            >
              <IconArrowsTransferUp size={16} aria-hidden="true" />
            </ActionIcon>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Label>Move to...</Menu.Label>
            {targets.map((container, index) => (
              <Menu.Item
                key={container.id}
                data-autofocus={index === 0 ? true : undefined}
                onClick={() => onMoveTo?.(container.id)}
              >
                {containerLabel(container)}
              </Menu.Item>
            ))}
          </Menu.Dropdown>
        </Menu>
      ) : null}
    </Box>
  );
}
