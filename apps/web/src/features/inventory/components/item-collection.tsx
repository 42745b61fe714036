import { useDndContext } from '@dnd-kit/core';
import type { Container, ItemInstance } from '@haversack/contracts';
import { Box, SimpleGrid, Skeleton, Stack, Text, VisuallyHidden } from '@mantine/core';
import { useElementSize } from '@mantine/hooks';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useVirtualizer } from '@tanstack/react-virtual';
import {
  type KeyboardEvent,
  memo,
  useCallback,
  useContext,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
} from 'react';
import { noItemsFound } from '../../../components/empty-state';
import { ErrorPanel } from '../../../components/error-panel';
import { LoadFailedLine } from '../../../components/load-failed-line';
import { RefreshFailedNote } from '../../../components/refresh-failed-note';
import { failedWithNothingToShow } from '../../../lib/load-failed';
import {
  containerItemsQuery,
  type ItemFilters,
  matchesItemFilters,
  noItemFilters,
} from '../api/inventory-api';
import { type TileNames, tileNamesOf } from '../lib/tile-names';
import type { DraggedItem, DraggedLootItem, LayoutMode } from '../workspace-types';
import { ItemTile } from './item-tile';
import { TransferQueueCover } from './transfer-queue-cover';

/**
 * Lists longer than this are virtualised (DESIGN §1): only the rows in view (and a few around them) are
 * in the DOM. A container counts by what the server holds, so the list does not change its kind while
 * pages come in.
 */
export const VIRTUALISE_OVER = 60;

/**
 * The narrowest a grid card may be: its icon, a two-line name of ordinary words, and the quantity with
 * the facts beside the card's two buttons. Narrower cards broke names inside words ("Dagge / r").
 */
export const MIN_TILE_WIDTH = 200;
/** The grid's gap (Mantine's `sm` spacing). */
const TILE_GAP = 12;
/** What the two above are measured against: both are in rem, so they grow with the reader's text size. */
const BASE_FONT_SIZE = 16;

/**
 * spec/02 §2: 2 to 5 columns by the panel's width, as many as fit cards of {@link MIN_TILE_WIDTH} at the
 * page's text size (`rootFontSize`, px): with text at 200 % a card needs twice the room, else names break
 * inside words and the facts wrap a letter a line (WCAG 1.4.4).
 */
export function gridColumns(width: number, rootFontSize = BASE_FONT_SIZE): number {
  const scale = rootFontSize / BASE_FONT_SIZE;
  const fit = Math.floor((width + TILE_GAP * scale) / ((MIN_TILE_WIDTH + TILE_GAP) * scale));
  return Math.min(5, Math.max(2, fit));
}

/** The root element's font size in px: the reader's text size (the browser's setting, or zoomed text). */
function rootFontSize(): number {
  const size = Number.parseFloat(getComputedStyle(document.documentElement).fontSize);
  return Number.isFinite(size) && size > 0 ? size : BASE_FONT_SIZE;
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
  /** Under "No items found." when nothing is searched for: where this container's items could come from. */
  emptyHint?: string;
}

/** The grid itself, whatever holds the items: a container's pages, or a loot's stacks. */
export interface ItemGridProps extends Omit<ItemCollectionProps, 'containerId' | 'filters'> {
  items: ItemInstance[];
  /** What dragging a tile carries; by default the stack as one of my items. */
  dragDataOf?: (item: ItemInstance) => DraggedItem | DraggedLootItem;
  /** "Move to..." for my items, "Take to..." for loot. */
  moveVerb?: 'Move' | 'Take';
}

/** The keys of the item grid, told as the focus comes in: only those that do something here. */
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
    movable ? ', Q or Ctrl+click adds it to the transfer queue' : '',
    '.',
  ].join('');
}

/**
 * The grid's keyboard model: its tiles share one Tab stop (a roving tabindex) and arrows move between them.
 * The tiles are a list, whatever the columns drawn: every arrow goes to the next or the previous item, Down
 * and Up as Right and Left, so that a screen reader, which knows nothing of columns, skips none.
 */
interface Roving {
  tabIndexOf: (item: ItemInstance) => 0 | -1;
  onFocusItem: (item: ItemInstance) => void;
  /** The virtualised list draws rows on its own: after each, the tile waiting for the focus takes it. */
  focusPending: () => void;
  helpId: string;
}

function useRovingTiles(
  items: ItemInstance[],
  scrollToIndex?: (index: number) => void,
  emptyRef?: React.RefObject<HTMLElement | null>,
) {
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

  /** Focuses the tile the keyboard asked for once it is drawn (a virtualised row scrolled in late). */
  const focusPending = () => {
    if (!pendingFocus.current) return;
    const tile = tileOf(pendingFocus.current);
    if (tile) {
      pendingFocus.current = null;
      tile.focus();
    }
  };

  useEffect(() => {
    // A focused tile that leaves (its item moved away) hands the focus to its neighbour.
    if (activeId !== null && found < 0 && currentId && document.activeElement === document.body) {
      pendingFocus.current = currentId;
    }
    // The last one left: the focus goes to what says the container is empty, not to the page's start.
    if (activeId !== null && items.length === 0 && document.activeElement === document.body) {
      setActiveId(null);
      emptyRef?.current?.focus();
    }
    focusPending();
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
      ArrowDown: activeIndex + 1,
      ArrowUp: activeIndex - 1,
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
    focusPending,
    helpId,
  };
  return { listRef, onKeyDown, roving, focusIndex };
}

function GridHelp({ id, shown, text }: { id: string; shown: boolean; text: string }) {
  // Read with the tile the focus comes in on; on screen while the keyboard is in the grid.
  return shown ? (
    <Text id={id} size="xs" c="dimmed" mt="xs" data-testid="item-grid-help">
      {text}
    </Text>
  ) : (
    <VisuallyHidden id={id}>{text}</VisuallyHidden>
  );
}

/** How long a press may wait for its click before the keys' line goes anyway (a press that scrolled or dragged). */
const CLICK_AFTER_PRESS_MS = 1_000;

/**
 * Whether the grid's keys are on screen: while the keyboard is in the grid, until it leaves or the pointer
 * takes over. Never hidden while a pointer is pressed, but once its click has landed: the line going on
 * pointerdown shortened the page, at the bottom of a short page the browser scrolled up by its height, and
 * the click landed beside the button pressed (a phone's "More actions", after an item closed with Escape).
 */
function useKeysShown() {
  const [shown, setShown] = useState(false);
  const pressing = useRef(false);
  const hideAfterPress = useRef(false);
  useEffect(() => {
    if (!shown) return;
    let waitForClick: number | undefined;
    const hideNow = () => {
      window.clearTimeout(waitForClick);
      document.removeEventListener('click', afterClick, true);
      setShown(false);
    };
    // The click's own handlers run first: the layout changes after them.
    const afterClick = () => {
      window.clearTimeout(waitForClick);
      waitForClick = window.setTimeout(hideNow);
    };
    const down = () => {
      pressing.current = true;
    };
    const up = () => {
      pressing.current = false;
      if (!hideAfterPress.current) return;
      hideAfterPress.current = false;
      // A tap's click comes after its pointerup, in a task of its own on a touch screen.
      document.addEventListener('click', afterClick, { capture: true, once: true });
      waitForClick = window.setTimeout(hideNow, CLICK_AFTER_PRESS_MS);
    };
    document.addEventListener('pointerdown', down, true);
    document.addEventListener('pointerup', up, true);
    document.addEventListener('pointercancel', up, true);
    return () => {
      window.clearTimeout(waitForClick);
      document.removeEventListener('pointerdown', down, true);
      document.removeEventListener('pointerup', up, true);
      document.removeEventListener('pointercancel', up, true);
      document.removeEventListener('click', afterClick, true);
      pressing.current = false;
      hideAfterPress.current = false;
    };
  }, [shown]);
  const hide = useCallback(() => {
    if (pressing.current) hideAfterPress.current = true;
    else setShown(false);
  }, []);
  const focusCameBy = useCallback(
    (keyboard: boolean) => {
      if (!keyboard) return hide();
      hideAfterPress.current = false;
      setShown(true);
    },
    [hide],
  );
  return { shown, focusCameBy, hide };
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

/** How long typing rests before the server is asked; the loaded items are filtered at once meanwhile. */
export const CONTAINER_SEARCH_DEBOUNCE_MS = 150;

/**
 * The items of one container: loading, error, empty, grid or list, virtualised when long, the next page
 * loaded as the list nears its end. The filters go to the server once typing rests; until then the
 * items already shown are narrowed here, so each keystroke updates the list in the same frame.
 */
export function ItemCollection(props: ItemCollectionProps) {
  const serverFilters = useRestingFilters(props.filters);
  const containerId = props.containerId;
  const query = useInfiniteQuery({
    ...containerItemsQuery(containerId, serverFilters),
    // While other filters load, keep this container's items on screen (narrowed below), not skeletons.
    placeholderData: (previous, previousQuery) =>
      previousQuery?.queryKey[2] === containerId ? previous : undefined,
  });
  // The same list while nothing in it changes: the grid works out the tiles' names once per list.
  const loaded = useMemo(
    () => uniqueById(query.data?.pages.flatMap((page) => page.items) ?? []),
    [query.data],
  );
  const settled = !query.isPlaceholderData && sameFilters(serverFilters, props.filters);
  const items = useMemo(
    () => (settled ? loaded : loaded.filter((item) => matchesItemFilters(item, props.filters))),
    [settled, loaded, props.filters],
  );
  const total = query.data?.pages[0]?.meta.total_count ?? 0;
  const { containerId: _containerId, filters: _filters, emptyHint, ...gridProps } = props;
  const { hasNextPage, isFetchingNextPage, isFetchNextPageError, fetchNextPage } = query;
  const loadMore = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);
  // On an infinite query a failed next page is an error too: only a failed refetch makes what is shown stale.
  const refresh = {
    isError: query.isRefetchError,
    data: query.data,
    isFetching: query.isFetching,
    refetch: query.refetch,
  };
  const found = settled && !query.isPending && !query.isError ? total : null;
  const results = useResultsAnnouncement(filterKey(props.filters), found);
  return (
    <>
      {/* In the page from the start, so a screen reader hears what a search or filter found (or that it found
          nothing) without leaving the search field. */}
      <VisuallyHidden aria-live="polite" data-testid="item-results-status">
        {results}
      </VisuallyHidden>
      <RefreshFailedNote query={refresh} />
      <ItemGrid
        {...gridProps}
        // A search that finds nothing is not an empty container.
        emptyHint={sameFilters(props.filters, noItemFilters) ? emptyHint : undefined}
        items={items}
        // Nothing loaded matches yet but the server holds more: it is still looking, not empty.
        pending={query.isPending || (!settled && items.length === 0 && hasNextPage)}
        virtualise={total > VIRTUALISE_OVER || items.length > VIRTUALISE_OVER}
        more={
          settled && hasNextPage
            ? { loading: isFetchingNextPage, failed: isFetchNextPageError, load: loadMore }
            : undefined
        }
        totalCount={settled ? total : undefined}
        error={
          // A failed refetch or next page keeps the items already loaded on screen.
          failedWithNothingToShow(query) ? (
            <ErrorPanel
              title="Error loading items"
              message="The items of this container could not be loaded."
              onRetry={() => void query.refetch()}
            />
          ) : null
        }
      />
    </>
  );
}

/**
 * What the filters found, once their results are in (`found`, null while loading), said once per change of
 * the filters (`key`): nothing for the container as it opens, nor as more pages or other players' items come.
 */
function useResultsAnnouncement(key: string, found: number | null): string {
  const saidFor = useRef(key);
  const [said, setSaid] = useState('');
  useEffect(() => {
    if (found === null || key === saidFor.current) return;
    saidFor.current = key;
    setSaid(`${found} ${found === 1 ? 'item' : 'items'} found.`);
  }, [key, found]);
  return said;
}

/**
 * Pages are slices by offset: an item added or moved while scrolling can shift one into the next page
 * too. It is shown once.
 */
function uniqueById(items: ItemInstance[]): ItemInstance[] {
  const seen = new Set<string>();
  return items.filter((item) => !seen.has(item.id) && Boolean(seen.add(item.id)));
}

/** The filters once typing rested for {@link CONTAINER_SEARCH_DEBOUNCE_MS}; no filter at all at once. */
function useRestingFilters(filters: ItemFilters): ItemFilters {
  const [resting, setResting] = useState(filters);
  const latest = useRef(filters);
  latest.current = filters;
  const key = filterKey(filters);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the key stands for the filters' values
  useEffect(() => {
    if (isUnfiltered(latest.current)) {
      setResting(latest.current);
      return;
    }
    const timer = setTimeout(() => setResting(latest.current), CONTAINER_SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [key]);
  return isUnfiltered(filters) ? filters : resting;
}

const filterKey = (f: ItemFilters) => [f.search.trim(), f.rarity, f.minValue, f.maxValue].join('\u0000');
const sameFilters = (a: ItemFilters, b: ItemFilters) => filterKey(a) === filterKey(b);

function isUnfiltered(filters: ItemFilters): boolean {
  return !filters.search.trim() && !filters.rarity && filters.minValue === null && filters.maxValue === null;
}

/** More items the server has: loaded as the list nears its end. */
export interface MoreItems {
  loading: boolean;
  /** The last page asked for failed: it is asked for again on Try Again only, not as the list scrolls. */
  failed: boolean;
  load: () => void;
}

const focusIsLost = () => document.activeElement === null || document.activeElement === document.body;

/**
 * At the end of a list whose next page failed: the items so far stay, with Try Again for the rest. The
 * region is drawn with the list, empty, while the server has more: a live region drawn with its text
 * inside may never be read, and someone scrolling by keyboard must hear that the list stops there.
 */
function MoreItemsStatus({
  more,
  onRetryWithFocus,
}: {
  more: MoreItems;
  /** Try Again pressed while it had the focus: the button goes once the page comes in. */
  onRetryWithFocus: () => void;
}) {
  const line = useRef<HTMLDivElement>(null);
  return (
    <Box role="status" data-testid="items-load-more-status">
      {more.failed ? (
        <Box ref={line} mt="sm" data-testid="items-load-more-failed">
          <LoadFailedLine
            text="More items could not be loaded."
            loading={more.loading}
            onRetry={() => {
              if (line.current?.contains(document.activeElement)) onRetryWithFocus();
              more.load();
            }}
          />
        </Box>
      ) : null}
    </Box>
  );
}

/**
 * Stacks as a grid or a list: loading tiles, an error, "No items found.", or the tiles with their keyboard
 * model (one Tab stop, arrows between tiles), virtualised when long.
 */
export function ItemGrid(
  props: ItemGridProps & {
    pending?: boolean;
    error?: React.ReactNode;
    /** Virtualise whatever the length (a container the server says is long); by default when long. */
    virtualise?: boolean;
    more?: MoreItems;
    /** How many items there are in all, when more than the loaded ones (told to screen readers). */
    totalCount?: number;
  },
) {
  const { ref, width } = useElementSize();
  const { items, pending = false, error = null, more } = props;
  const columns = props.layout === 'list' ? 1 : gridColumns(width || 600, rootFontSize());
  const virtual = props.virtualise ?? items.length > VIRTUALISE_OVER;
  // A short list that is not virtualised simply loads its few remaining pages.
  const loadRest = !virtual && more !== undefined && !more.loading && !more.failed ? more.load : undefined;
  useEffect(() => loadRest?.(), [loadRest]);
  const scrollTo = useRef<(index: number) => void>(undefined);
  const emptyRef = useRef<HTMLDivElement>(null);
  const { listRef, onKeyDown, roving, focusIndex } = useRovingTiles(
    items,
    (index) => scrollTo.current?.(index),
    emptyRef,
  );
  const keys = useKeysShown();
  // The keys are told with the tile the focus comes into the grid on; the arrows' next tiles say only their
  // names (the help read after each of them drowned them). Out of the grid and back, they are told again.
  const [helpTold, setHelpTold] = useState(false);
  const handlers = useTileHandlers(props, roving);
  const shared = tileProps(props, handlers, roving.helpId, !helpTold);
  // Once per list, not per tile drawn: which stacks share a name, and what tells them apart.
  const names = useMemo(() => tileNamesOf(items), [items]);

  let content: React.ReactNode;
  if (pending) content = <LoadingTiles columns={columns} />;
  else if (error) content = error;
  else if (items.length === 0)
    content = (
      <Stack
        ref={emptyRef}
        tabIndex={-1}
        align="center"
        gap={4}
        py="xl"
        ta="center"
        data-testid="items-empty"
      >
        <Text c="dimmed">{noItemsFound}</Text>
        {props.emptyHint ? (
          <Text size="sm" c="dimmed">
            {props.emptyHint}
          </Text>
        ) : null}
      </Stack>
    );
  else if (virtual)
    content = (
      <VirtualItems
        {...props}
        items={items}
        columns={columns}
        roving={roving}
        shared={shared}
        names={names}
        scrollTo={scrollTo}
        more={more}
        totalCount={props.totalCount}
      />
    );
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
          <Tile
            key={item.id}
            {...shared}
            item={item}
            names={names.get(item.id)}
            tabIndex={roving.tabIndexOf(item)}
          />
        ))}
      </SimpleGrid>
    );
  const grid = !pending && !error && items.length > 0;
  const moreFailed = grid && more?.failed === true;
  // Try Again had the focus: once the page came in and the line went, the first item loaded takes it (where
  // the keyboard was going), rather than the page's start. Anything that took the focus meanwhile keeps it.
  const focusOnceLoaded = useRef<number | null>(null);
  useEffect(() => {
    const firstLoaded = focusOnceLoaded.current;
    if (moreFailed || firstLoaded === null) return;
    focusOnceLoaded.current = null;
    if (focusIsLost()) focusIndex(Math.min(firstLoaded, items.length - 1));
  });

  return (
    <Box ref={ref}>
      {grid ? (
        // biome-ignore lint/a11y/noStaticElementInteractions: the tiles inside take the keys; this only routes arrows
        <div
          ref={listRef}
          data-item-grid
          onKeyDown={onKeyDown}
          onFocus={(event) => {
            keys.focusCameBy(event.target.matches(':focus-visible'));
            if (event.currentTarget.contains(event.relatedTarget as Node | null)) setHelpTold(true);
          }}
          onBlur={(event) => {
            if (event.currentTarget.contains(event.relatedTarget as Node | null)) return;
            keys.hide();
            setHelpTold(false);
          }}
        >
          {content}
          <GridHelp
            id={roving.helpId}
            shown={keys.shown}
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
      {/* Below the list's own box, not in it: on screen and in the Tab order wherever the list is scrolled. */}
      {grid && more ? (
        <MoreItemsStatus
          more={more}
          onRetryWithFocus={() => {
            focusOnceLoaded.current = items.length;
          }}
        />
      ) : null}
    </Box>
  );
}

/** What a tile does, read when it happens: the tiles need not draw again when a parent's callbacks change. */
type TileHandlers = Pick<
  ItemGridProps,
  'onOpen' | 'onQuickTransfer' | 'onAddToQueue' | 'onMoveTo' | 'dragDataOf'
> & { onFocusItem: (item: ItemInstance) => void };

function useTileHandlers(props: ItemGridProps, roving: Roving): React.RefObject<TileHandlers> {
  const handlers = useRef<TileHandlers>({ ...props, onFocusItem: roving.onFocusItem });
  handlers.current = {
    onOpen: props.onOpen,
    onQuickTransfer: props.onQuickTransfer,
    onAddToQueue: props.onAddToQueue,
    onMoveTo: props.onMoveTo,
    dragDataOf: props.dragDataOf,
    onFocusItem: roving.onFocusItem,
  };
  return handlers;
}

interface TileProps {
  item: ItemInstance;
  /** What tells the stack from others of its name in the list (tileNamesOf). */
  names?: TileNames;
  layout: LayoutMode;
  draggable: boolean;
  swipeable: boolean;
  movable: boolean;
  moveVerb?: 'Move' | 'Take';
  destinations?: Container[];
  tabIndex: 0 | -1;
  helpId: string;
  /** The help (and the drag's instructions) go with the tile: not yet told since the focus came in. */
  describe: boolean;
  /** In a virtualised list: the tile's place (from 1) and how many items there are. */
  index?: number;
  of?: number;
  handlers: React.RefObject<TileHandlers>;
}

const sameDestinations = (a?: Container[], b?: Container[]) =>
  a === b || (a !== undefined && b !== undefined && a.map((c) => c.id).join() === b.map((c) => c.id).join());

/**
 * One tile of the grid, drawn again only when what it shows changes: typing in the search or a page
 * coming in redraws the grid, not every tile in it.
 */
const Tile = memo(
  function Tile(props: TileProps) {
    const { item, handlers } = props;
    return (
      <ItemTile
        item={item}
        names={props.names}
        position={
          props.index !== undefined && props.of !== undefined
            ? { index: props.index, of: props.of }
            : undefined
        }
        dragData={handlers.current.dragDataOf?.(item)}
        moveVerb={props.moveVerb}
        layout={props.layout}
        draggable={props.draggable}
        tabIndex={props.tabIndex}
        onFocus={() => handlers.current.onFocusItem(item)}
        describedBy={props.describe ? props.helpId : undefined}
        destinations={props.destinations}
        onMoveTo={props.movable ? (containerId) => handlers.current.onMoveTo?.(item, containerId) : undefined}
        swipe={
          props.swipeable
            ? {
                onQuickTransfer: () => handlers.current.onQuickTransfer(item),
                onAddToQueue: () => handlers.current.onAddToQueue(item),
              }
            : undefined
        }
        onQueue={props.movable ? () => handlers.current.onAddToQueue(item) : undefined}
        onOpen={() => handlers.current.onOpen(item)}
      />
    );
  },
  (before, after) =>
    before.item === after.item &&
    before.names?.tile === after.names?.tile &&
    before.names?.buttons === after.names?.buttons &&
    before.layout === after.layout &&
    before.draggable === after.draggable &&
    before.swipeable === after.swipeable &&
    before.movable === after.movable &&
    before.moveVerb === after.moveVerb &&
    before.tabIndex === after.tabIndex &&
    before.helpId === after.helpId &&
    before.describe === after.describe &&
    before.index === after.index &&
    before.of === after.of &&
    before.handlers === after.handlers &&
    sameDestinations(before.destinations, after.destinations),
);

/** The props every tile of a grid shares. */
function tileProps(
  props: ItemGridProps,
  handlers: React.RefObject<TileHandlers>,
  helpId: string,
  describe: boolean,
) {
  return {
    layout: props.layout,
    draggable: props.draggable,
    swipeable: props.swipeable,
    movable: props.onMoveTo !== undefined,
    moveVerb: props.moveVerb,
    destinations: props.destinations,
    helpId,
    describe,
    handlers,
  };
}

/** Rows of tiles from this many rows before the end on, the next page is asked for. */
const LOAD_AHEAD_ROWS = 8;

function VirtualItems(
  props: ItemGridProps & {
    items: ItemInstance[];
    columns: number;
    roving: Roving;
    shared: ReturnType<typeof tileProps>;
    names: Map<string, TileNames>;
    scrollTo: React.RefObject<((index: number) => void) | undefined>;
    more?: MoreItems;
    totalCount?: number;
  },
) {
  const parent = useRef<HTMLDivElement>(null);
  const { more, columns } = props;
  // On a phone the transfer queue bar may float over this list's foot: its end is padded by as much, and
  // the keyboard's scrolling stops above it too.
  const cover = useContext(TransferQueueCover);
  const rows: ItemInstance[][] = [];
  for (let i = 0; i < props.items.length; i += columns) rows.push(props.items.slice(i, i + columns));
  const virtualizer = useVirtualizer({
    // One more row while the server has more: the loading row at the end (not once that page failed).
    count: rows.length + (more && !more.failed ? 1 : 0),
    getScrollElement: () => parent.current,
    estimateSize: () => (props.layout === 'grid' ? 92 : 50),
    overscan: 2,
    scrollPaddingEnd: cover,
  });
  const virtualRows = virtualizer.getVirtualItems();
  const lastDrawn = virtualRows.at(-1)?.index ?? 0;
  // Scrolling (or the keyboard) near the end of what is loaded asks for the next page.
  const nearEnd = more !== undefined && lastDrawn >= rows.length - LOAD_AHEAD_ROWS;
  useEffect(() => {
    if (nearEnd && more && !more.loading && !more.failed) more.load();
  }, [nearEnd, more]);
  useEffect(() => props.roving.focusPending());
  // Arrows may move the focus to a tile not drawn yet: scroll its row in first.
  props.scrollTo.current = (index) => virtualizer.scrollToIndex(Math.floor(index / columns));
  return (
    <Box
      ref={parent}
      mah="60vh"
      style={{
        overflowY: 'auto',
        ...(cover > 0 ? { paddingBottom: cover, scrollPaddingBottom: cover } : {}),
      }}
      data-testid="item-list"
      data-virtualised="true"
      role="list"
      aria-label="Items"
      aria-busy={more?.loading ?? false}
    >
      <Box h={virtualizer.getTotalSize()} pos="relative" role="presentation">
        {virtualRows.map((row) => (
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
            {row.index < rows.length ? (
              <SimpleGrid cols={columns} spacing="sm" role="presentation">
                {(rows[row.index] ?? []).map((item, column) => (
                  <Tile
                    key={item.id}
                    {...props.shared}
                    item={item}
                    names={props.names.get(item.id)}
                    tabIndex={props.roving.tabIndexOf(item)}
                    index={row.index * columns + column + 1}
                    of={props.totalCount ?? props.items.length}
                  />
                ))}
              </SimpleGrid>
            ) : (
              <Skeleton
                height={props.layout === 'grid' ? 80 : 44}
                radius="sm"
                data-testid="items-loading-more"
              />
            )}
          </Box>
        ))}
      </Box>
    </Box>
  );
}
