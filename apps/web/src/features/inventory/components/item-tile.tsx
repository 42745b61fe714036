import { useDraggable } from '@dnd-kit/core';
import { formatStackValue, type ItemInstance } from '@haversack/contracts';
import { Badge, Group, Paper, Stack, Text } from '@mantine/core';
import type { KeyboardEvent } from 'react';
import { useSwipe } from '../hooks/use-swipe';
import type { DraggedItem, LayoutMode } from '../workspace-types';

export interface ItemTileProps {
  item: ItemInstance;
  layout: LayoutMode;
  /** Desktop: the item can be dragged to the other panel (pointer or keyboard). */
  draggable: boolean;
  /** Phones and tablets: swipe right = Quick Transfer, left = Add to Queue. */
  swipe?: { onQuickTransfer: () => void; onAddToQueue: () => void };
  onOpen: () => void;
}

function rarityOf(item: ItemInstance): string | null {
  const rarity = item.item_template.metadata.rarity;
  return typeof rarity === 'string' && rarity !== '' ? rarity : null;
}

/** One stack in a container, as a grid card or a list row. */
export function ItemTile({ item, layout, draggable, swipe, onOpen }: ItemTileProps) {
  const payload: DraggedItem = {
    kind: 'item',
    itemId: item.id,
    containerId: item.container_id,
    quantity: item.quantity,
    name: item.name,
  };
  const drag = useDraggable({ id: `item:${item.id}`, data: payload, disabled: !draggable });
  const swipeState = useSwipe({
    enabled: swipe !== undefined,
    onSwipeLeft: () => swipe?.onAddToQueue(),
    onSwipeRight: () => swipe?.onQuickTransfer(),
  });
  const rarity = rarityOf(item);
  const label = `${item.name}, quantity ${item.quantity}`;

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    // Enter opens the item; Space starts a keyboard drag (dnd-kit's sensor, configured in the workspace).
    if (event.key === 'Enter') {
      event.preventDefault();
      onOpen();
      return;
    }
    drag.listeners?.onKeyDown?.(event);
  };

  // The dragged copy is drawn by the workspace's DragOverlay; the tile itself only follows a swipe.
  const transform = swipeState.offset ? `translateX(${swipeState.offset}px)` : undefined;

  return (
    <Paper
      ref={drag.setNodeRef}
      withBorder
      p={layout === 'grid' ? 'sm' : 'xs'}
      {...(draggable ? { ...drag.attributes, ...drag.listeners } : {})}
      {...swipeState.handlers}
      role="button"
      tabIndex={0}
      aria-label={label}
      onKeyDown={onKeyDown}
      onClick={() => {
        if (!swipeState.consumeClick()) onOpen();
      }}
      data-testid="item-tile"
      data-item-name={item.name}
      style={{
        cursor: draggable ? 'grab' : 'pointer',
        transform,
        opacity: drag.isDragging ? 0.5 : 1,
        touchAction: swipe ? 'pan-y' : undefined,
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
          <Text size="xs" c="dimmed">
            {item.totalWeight.toFixed(1)} lb · {formatStackValue(item.value_cp * item.quantity)}
          </Text>
          {rarity ? (
            <Text size="xs" c="dimmed" tt="capitalize">
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
  );
}
