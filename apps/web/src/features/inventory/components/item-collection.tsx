import type { ItemInstance } from '@haversack/contracts';
import { Box, Button, Center, SimpleGrid, Skeleton, Stack, Text } from '@mantine/core';
import { useElementSize } from '@mantine/hooks';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef } from 'react';
import { ErrorPanel } from '../../../components/error-panel';
import { containerItemsQuery, type ItemFilters } from '../api/inventory-api';
import type { LayoutMode } from '../workspace-types';
import { ItemTile } from './item-tile';

/** Lists longer than this are virtualised (DESIGN §1). */
export const VIRTUALISE_OVER = 200;
export const noItemsMessage = 'No items found';

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
  const { ref, width } = useElementSize();
  const query = useInfiniteQuery(containerItemsQuery(props.containerId, props.filters));
  const columns = props.layout === 'list' ? 1 : gridColumns(width || 600);
  const items = query.data?.pages.flatMap((page) => page.items) ?? [];

  let content: React.ReactNode;
  if (query.isPending) content = <LoadingTiles columns={columns} />;
  else if (query.isError)
    content = (
      <ErrorPanel
        title="Error loading items"
        message="The items of this container could not be loaded."
        onRetry={() => void query.refetch()}
      />
    );
  else if (items.length === 0)
    content = (
      <Center py="xl" data-testid="items-empty">
        <Text c="dimmed">{noItemsMessage}</Text>
      </Center>
    );
  else if (items.length > VIRTUALISE_OVER)
    content = <VirtualItems {...props} items={items} columns={columns} />;
  else
    content = (
      <SimpleGrid cols={columns} spacing={props.layout === 'grid' ? 'sm' : 6} data-testid="item-list">
        {items.map((item) => (
          <Tile key={item.id} {...props} item={item} />
        ))}
      </SimpleGrid>
    );

  return (
    <Stack gap="sm" ref={ref}>
      {content}
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

function Tile(props: ItemCollectionProps & { item: ItemInstance }) {
  const { item } = props;
  return (
    <ItemTile
      item={item}
      layout={props.layout}
      draggable={props.draggable}
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

function VirtualItems(props: ItemCollectionProps & { items: ItemInstance[]; columns: number }) {
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
  return (
    <Box
      ref={parent}
      mah="60vh"
      style={{ overflowY: 'auto' }}
      data-testid="item-list"
      data-virtualised="true"
    >
      <Box h={virtualizer.getTotalSize()} pos="relative">
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
          >
            <SimpleGrid cols={props.columns} spacing="sm">
              {(rows[row.index] ?? []).map((item) => (
                <Tile key={item.id} {...props} item={item} />
              ))}
            </SimpleGrid>
          </Box>
        ))}
      </Box>
    </Box>
  );
}
