import { useDndContext } from '@dnd-kit/core';
import type { Container, ItemInstance } from '@haversack/contracts';
import { Box, Button, Center, SimpleGrid, Skeleton, Stack, Text, VisuallyHidden } from '@mantine/core';
import { useElementSize } from '@mantine/hooks';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useVirtualizer } from '@tanstack/react-virtual';
import { type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import { noItemsFound } from '../../../components/empty-state';
import { ErrorPanel } from '../../../components/error-panel';
import { containerItemsQuery, type ItemFilters } from '../api/inventory-api';
import type { DraggedItem, DraggedLootItem, LayoutMode } from '../workspace-types';
import { ItemTile } from './item-tile';

/** Lists longer than this are virtualised (DESIGN §1). */
export const VIRTUALISE_OVER = 200;

/** spec/02 §2: 2 to 5 columns by the panel's width. */
export function gridColumns(width: number): number {
  if (width >= 900) return 5;
  if (width >= 680) return 4;
  if (width >= 460) return 3;
  return 2;
}

export interface ItemCollectionProps {
  containerId: string;
  filters: ItemFilters;
  layout: LayoutMode;
  draggable: boolean;
  swipeable: boolean;
  onOpen: (item: ItemInstance) => void;
  onQuickTransfer: (item: ItemInstance) => void;
  onAddToQueue: (item: ItemInstance) => void;
  /** Where "Move to..." may send an item (the source itself is left out by the tile). */
  destinations?: Container[];
  onMoveTo?: (item: ItemInstance, containerId: string) => void;
}

/** The grid itself, whatever holds the items: a container's pages, or a loot's stacks. */
export interface ItemGridProps extends Omit<ItemCollectionProps, 'containerId' | 'filters'> {
  items: ItemInstance[];
  /** What dragging a tile carries; by default the stack as one of my items. */
  dragDataOf?: (item: ItemInstance) => DraggedItem | DraggedLootItem;
  /** "Move to..." for my items, "Take to..." for loot. */
  moveVerb?: 'Move' | 'Take';
}

/** The keys of the item grid, told with every tile: only those that do something here. */
export function itemGridHelp({
  draggable,
  movable,
  moveVerb = 'Move',
}: {
  draggable: boolean;
  movable: boolean;
  moveVerb?: 'Move' | 'Take';
}): string {
  return [
    'Arrow keys, Home and End move between items. Enter opens an item',
    draggable ? ', Space picks it up to drag' : '',
    movable
      ? moveVerb === 'Take'
        ? ', M takes it into one of your containers'
        : ', M moves it to another container'
      : '',
    '.',
  ].join('');
}

/** The grid's keyboard model: its tiles share one Tab stop (a roving tabindex) and arrows move between them. */
interface Roving {
  tabIndexOf: (item: ItemInstance) => 0 | -1;
  onFocusItem: (item: ItemInstance) => void;
  helpId: string;
}

function useRovingTiles(items: ItemInstance[], columns: number, scrollToIndex?: (index: number) => void) {
  const listRef = useRef<HTMLDivElement>(null);
  const [activeId, setActiveId] = useState<string | null>(null);
  const lastIndex = useRef(0);
  const pendingFocus = useRef<string | null>(null);
  const helpId = useId();
  // During a keyboard drag the arrows move the dragged item, not the focus.
  const dragging = useDndContext().active !== null;
  const found = items.findIndex((item) => item.id === activeId);
  // The active tile went (moved, deleted, filtered out): the one now at its place takes over.
  const activeIndex = found >= 0 ? found : Math.min(lastIndex.current, items.length - 1);
  const currentId = items[activeIndex]?.id ?? null;
  if (found >= 0) lastIndex.current = found;

  const tileOf = (id: string) =>
    listRef.current?.querySelector<HTMLElement>(
      `[data-item-id="${CSS.escape(id)}"] [data-testid="item-tile"]`,
    );

  useEffect(() => {
    // A focused tile that leaves (its item moved away) hands the focus to its neighbour.
    if (activeId !== null && found < 0 && currentId && document.activeElement === document.body) {
      pendingFocus.current = currentId;
    }
    if (pendingFocus.current) {
      const tile = tileOf(pendingFocus.current);
      if (tile) {
        pendingFocus.current = null;
        tile.focus();
      }
    }
  });

  const focusIndex = (index: number) => {
    const item = items[index];
    if (!item) return;
    setActiveId(item.id);
    const tile = tileOf(item.id);
    if (tile) tile.focus();
    else {
      pendingFocus.current = item.id;
      scrollToIndex?.(index);
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (dragging || event.altKey || event.ctrlKey || event.metaKey) return;
    if (!(event.target instanceof HTMLElement) || event.target.dataset.testid !== 'item-tile') return;
    const last = items.length - 1;
    const next: Record<string, number> = {
      ArrowRight: activeIndex + 1,
      ArrowLeft: activeIndex - 1,
      ArrowDown: activeIndex + columns,
      ArrowUp: activeIndex - columns,
      Home: 0,
      End: last,
    };
    const target = next[event.key];
    if (target === undefined) return;
    event.preventDefault();
    focusIndex(Math.max(0, Math.min(last, target)));
  };

  const roving: Roving = {
    tabIndexOf: (item) => (item.id === currentId ? 0 : -1),
    onFocusItem: (item) => setActiveId(item.id),
    helpId,
  };
  return { listRef, onKeyDown, roving };
}

function GridHelp({ id, shown, text }: { id: string; shown: boolean; text: string }) {
  // Read with every tile; on screen while the keyboard is in the grid.
  return shown ? (
    <Text id={id} size="xs" c="dimmed" mt="xs" data-testid="item-grid-help">
      {text}
    </Text>
  ) : (
    <VisuallyHidden id={id}>{text}</VisuallyHidden>
  );
}

function LoadingTiles({ columns }: { columns: number }) {
  return (
    <SimpleGrid cols={columns} spacing="sm" aria-hidden="true" data-testid="items-loading">
      {Array.from({ length: columns * 2 }, (_, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: static placeholder list
        <Skeleton key={index} height={72} radius="sm" />
      ))}
    </SimpleGrid>
  );
}

/** The items of one container: loading, error, empty, grid or list, more pages, virtualised when long. */
export function ItemCollection(props: ItemCollectionProps) {
  const query = useInfiniteQuery(containerItemsQuery(props.containerId, props.filters));
  const items = query.data?.pages.flatMap((page) => page.items) ?? [];
  const { containerId: _containerId, filters: _filters, ...gridProps } = props;
  return (
    <Stack gap="sm">
      <ItemGrid
        {...gridProps}
        items={items}
        pending={query.isPending}
        error={
          query.isError ? (
            <ErrorPanel
              title="Error loading items"
              message="The items of this container could not be loaded."
              onRetry={() => void query.refetch()}
            />
          ) : null
        }
      />
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

/**
 * Stacks as a grid or a list: loading tiles, an error, "No items found.", or the tiles with their keyboard
 * model (one Tab stop, arrows between tiles), virtualised when long.
 */
export function ItemGrid(props: ItemGridProps & { pending?: boolean; error?: React.ReactNode }) {
  const { ref, width } = useElementSize();
  const { items, pending = false, error = null } = props;
  const columns = props.layout === 'list' ? 1 : gridColumns(width || 600);
  const virtual = items.length > VIRTUALISE_OVER;
  const scrollTo = useRef<(index: number) => void>(undefined);
  const { listRef, onKeyDown, roving } = useRovingTiles(items, columns, (index) => scrollTo.current?.(index));
  const [keyboardInside, setKeyboardInside] = useState(false);

  let content: React.ReactNode;
  if (pending) content = <LoadingTiles columns={columns} />;
  else if (error) content = error;
  else if (items.length === 0)
    content = (
      <Center py="xl" data-testid="items-empty">
        <Text c="dimmed">{noItemsFound}</Text>
      </Center>
    );
  else if (virtual)
    content = <VirtualItems {...props} items={items} columns={columns} roving={roving} scrollTo={scrollTo} />;
  else
    content = (
      <SimpleGrid
        cols={columns}
        spacing={props.layout === 'grid' ? 'sm' : 6}
        data-testid="item-list"
        role="list"
        aria-label="Items"
      >
        {items.map((item) => (
          <Tile key={item.id} {...props} item={item} roving={roving} />
        ))}
      </SimpleGrid>
    );
  const grid = !pending && !error && items.length > 0;

  return (
    <Box ref={ref}>
      {grid ? (
        // biome-ignore lint/a11y/noStaticElementInteractions: the tiles inside take the keys; this only routes arrows
        <div
          ref={listRef}
          data-item-grid
          onKeyDown={onKeyDown}
          onFocus={(event) => setKeyboardInside(event.target.matches(':focus-visible'))}
          onBlur={(event) => {
            if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setKeyboardInside(false);
          }}
        >
          {content}
          <GridHelp
            id={roving.helpId}
            shown={keyboardInside}
            text={itemGridHelp({
              draggable: props.draggable,
              movable: props.onMoveTo !== undefined,
              moveVerb: props.moveVerb,
            })}
          />
        </div>
      ) : (
        content
      )}
    </Box>
  );
}

function Tile(props: ItemGridProps & { item: ItemInstance; roving: Roving }) {
  const { item, roving, onMoveTo } = props;
  return (
    <ItemTile
      item={item}
      dragData={props.dragDataOf?.(item)}
      moveVerb={props.moveVerb}
      layout={props.layout}
      draggable={props.draggable}
      tabIndex={roving.tabIndexOf(item)}
      onFocus={() => roving.onFocusItem(item)}
      describedBy={roving.helpId}
      destinations={props.destinations}
      onMoveTo={onMoveTo ? (containerId) => onMoveTo(item, containerId) : undefined}
      swipe={
        props.swipeable
          ? {
              onQuickTransfer: () => props.onQuickTransfer(item),
              onAddToQueue: () => props.onAddToQueue(item),
            }
          : undefined
      }
      onOpen={() => props.onOpen(item)}
    />
  );
}

function VirtualItems(
  props: ItemGridProps & {
    items: ItemInstance[];
    columns: number;
    roving: Roving;
    scrollTo: React.RefObject<((index: number) => void) | undefined>;
  },
) {
  const parent = useRef<HTMLDivElement>(null);
  const rows: ItemInstance[][] = [];
  for (let i = 0; i < props.items.length; i += props.columns)
    rows.push(props.items.slice(i, i + props.columns));
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => parent.current,
    estimateSize: () => (props.layout === 'grid' ? 92 : 50),
    overscan: 6,
  });
  // Arrows may move the focus to a tile not drawn yet: scroll its row in first.
  props.scrollTo.current = (index) => virtualizer.scrollToIndex(Math.floor(index / props.columns));
  return (
    <Box
      ref={parent}
      mah="60vh"
      style={{ overflowY: 'auto' }}
      data-testid="item-list"
      data-virtualised="true"
      role="list"
      aria-label="Items"
    >
      <Box h={virtualizer.getTotalSize()} pos="relative" role="presentation">
        {virtualizer.getVirtualItems().map((row) => (
          <Box
            key={row.key}
            ref={virtualizer.measureElement}
            data-index={row.index}
            pos="absolute"
            top={0}
            left={0}
            w="100%"
            pb={props.layout === 'grid' ? 'sm' : 6}
            style={{ transform: `translateY(${row.start}px)` }}
            role="presentation"
          >
            <SimpleGrid cols={props.columns} spacing="sm" role="presentation">
              {(rows[row.index] ?? []).map((item) => (
                <Tile key={item.id} {...props} item={item} roving={props.roving} />
              ))}
            </SimpleGrid>
          </Box>
        ))}
      </Box>
    </Box>
  );
}
