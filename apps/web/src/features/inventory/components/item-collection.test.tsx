import { DndContext } from '@dnd-kit/core';
import type { ItemInstance } from '@haversack/contracts';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { busyButtonsLikeTheBrowser } from '../../../test/busy-buttons';
import { jsonResponse, mockFetch } from '../../../test/fixtures';
import { noItemFilters } from '../api/inventory-api';
import { buildContainer, buildItem, renderWithProviders } from '../test/inventory-fixtures';
import {
  gridColumns,
  ItemCollection,
  type ItemCollectionProps,
  ItemGrid,
  MIN_TILE_WIDTH,
} from './item-collection';
import { TransferQueueCover } from './transfer-queue-cover';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const backpack = buildContainer();
const quiver = buildContainer({ id: 'container-2', name: 'Quiver', is_primary: false });
const stash = buildContainer({
  id: 'container-3',
  name: 'Party Stash',
  is_primary: false,
  owner: { type: 'party', id: 'party-1', name: 'The Company' },
});
const names = ['Arrow', 'Bedroll', 'Candle', 'Dagger', 'Torch'];
const items = names.map((name, index) => buildItem({ id: `item-${index}`, name, quantity: 1 }));

function serveItems() {
  mockFetch(({ url }) => {
    if (url.startsWith(`/api/v1/containers/${backpack.id}/items`)) {
      return jsonResponse(200, {
        status: 'success',
        data: items,
        meta: { current_page: 1, total_pages: 1, total_count: items.length, per_page: 50 },
      });
    }
    return jsonResponse(404, { status: 'error', error: { code: 'not_found', message: 'Not found' } });
  });
}

function renderCollection(overrides: Partial<ItemCollectionProps> = {}) {
  serveItems();
  const props: ItemCollectionProps = {
    containerId: backpack.id,
    filters: noItemFilters,
    // In jsdom the grid has no width: it draws the columns of a 600 px panel (2).
    layout: 'grid',
    draggable: true,
    swipeable: false,
    onOpen: vi.fn(),
    onQuickTransfer: vi.fn(),
    onAddToQueue: vi.fn(),
    destinations: [backpack, quiver, stash],
    onMoveTo: vi.fn(),
    ...overrides,
  };
  renderWithProviders(
    <DndContext>
      <button type="button">Before</button>
      <ItemCollection {...props} />
      <button type="button">After</button>
    </DndContext>,
  );
  return props;
}

const tile = (name: string) => screen.getByRole('button', { name: `${name}, quantity 1` });

describe('gridColumns', () => {
  it('gives each card room for whole words: 2 columns in a two-panel half at 1280 px, up to 5', () => {
    // One panel of the two-panel workspace at 1280 px is about 460 px wide inside.
    expect(gridColumns(460)).toBe(2);
    expect(gridColumns(300)).toBe(2);
    // The single panel at 1280 px.
    expect(gridColumns(975)).toBe(4);
    expect(gridColumns(1400)).toBe(5);
    for (const width of [300, 460, 700, 975, 1100, 2000]) {
      const columns = gridColumns(width);
      if (columns > 2) expect((width - (columns - 1) * 12) / columns).toBeGreaterThanOrEqual(MIN_TILE_WIDTH);
    }
  });

  it('gives cards room in proportion to the text size: at 200 % a 975 px panel holds 2, not 4', () => {
    expect(gridColumns(975, 32)).toBe(2);
    expect(gridColumns(1400, 24)).toBe(4);
    expect(gridColumns(1400, 32)).toBe(3);
    expect(gridColumns(975, 16)).toBe(4);
  });
});

describe('ItemCollection keyboard', () => {
  it('is one Tab stop; arrows, Home and End move between the tiles and the Tab stop follows', {
    timeout: 15_000,
  }, async () => {
    const user = userEvent.setup();
    renderCollection();
    await screen.findByRole('button', { name: 'Arrow, quantity 1' });
    expect(screen.getByRole('list', { name: 'Items' })).toBeInTheDocument();
    expect(names.map((name) => tile(name).tabIndex)).toEqual([0, -1, -1, -1, -1]);

    screen.getByRole('button', { name: 'Before' }).focus();
    await user.tab();
    expect(tile('Arrow')).toHaveFocus();
    await user.keyboard('{ArrowRight}');
    expect(tile('Bedroll')).toHaveFocus();
    // The tiles are a list: Down and Up go to the next and the previous item, as Right and Left do, whatever
    // the columns (two here), so a screen reader skips none.
    await user.keyboard('{ArrowDown}');
    expect(tile('Candle')).toHaveFocus();
    await user.keyboard('{ArrowDown}{ArrowDown}');
    expect(tile('Torch')).toHaveFocus();
    await user.keyboard('{ArrowDown}');
    expect(tile('Torch')).toHaveFocus();
    await user.keyboard('{ArrowUp}');
    expect(tile('Dagger')).toHaveFocus();
    await user.keyboard('{ArrowUp}{ArrowUp}{ArrowUp}');
    expect(tile('Arrow')).toHaveFocus();
    await user.keyboard('{ArrowLeft}');
    expect(tile('Arrow')).toHaveFocus();
    await user.keyboard('{End}');
    expect(tile('Torch')).toHaveFocus();
    await user.keyboard('{Home}{ArrowRight}{ArrowRight}');
    expect(tile('Candle')).toHaveFocus();
    expect(names.map((name) => tile(name).tabIndex)).toEqual([-1, -1, 0, -1, -1]);

    // One Tab leaves the grid; Shift+Tab comes back to the tile last used.
    await user.tab();
    expect(screen.getByRole('button', { name: 'After' })).toHaveFocus();
    await user.tab({ shift: true });
    expect(tile('Candle')).toHaveFocus();
    // The keys are told as the keyboard comes into the grid, and shown while it is there.
    expect(tile('Candle')).toHaveAccessibleDescription(expect.stringContaining('Arrow keys, Home and End'));
  });

  it('tells the keys once as the focus comes into the grid, not again with every tile the arrows reach', async () => {
    const user = userEvent.setup();
    renderCollection();
    await screen.findByRole('button', { name: 'Arrow, quantity 1' });
    screen.getByRole('button', { name: 'Before' }).focus();
    await user.tab();
    expect(tile('Arrow')).toHaveAccessibleDescription(expect.stringContaining('Arrow keys, Home and End'));
    // The drag's own instructions come with the first tile too, and likewise only with it.
    expect(tile('Arrow')).toHaveAccessibleDescription(expect.stringContaining('To pick up a draggable item'));

    await user.keyboard('{ArrowRight}');
    expect(tile('Bedroll')).toHaveFocus();
    expect(tile('Bedroll')).not.toHaveAttribute('aria-describedby');
    await user.keyboard('{End}');
    expect(tile('Torch')).not.toHaveAttribute('aria-describedby');
    // Still in the page, after the tiles, for whoever wants to read it again.
    expect(screen.getByText(/^Arrow keys, Home and End/)).toBeInTheDocument();

    // Out and back in: told again.
    await user.tab();
    await user.tab({ shift: true });
    expect(tile('Torch')).toHaveFocus();
    expect(tile('Torch')).toHaveAccessibleDescription(expect.stringContaining('Arrow keys, Home and End'));
  });

  it('hands the focus to "No items found." when the focused last item goes, not to the page', async () => {
    let setShown: (next: typeof items) => void = () => undefined;
    function Shown() {
      const [shown, set] = useState(items.slice(0, 1));
      setShown = set;
      return (
        <ItemGrid
          items={shown}
          layout="grid"
          draggable={false}
          swipeable={false}
          onOpen={vi.fn()}
          onQuickTransfer={vi.fn()}
          onAddToQueue={vi.fn()}
        />
      );
    }
    const user = userEvent.setup();
    renderWithProviders(
      <DndContext>
        <button type="button">Before</button>
        <Shown />
      </DndContext>,
    );
    screen.getByRole('button', { name: 'Before' }).focus();
    await user.tab();
    expect(tile('Arrow')).toHaveFocus();
    act(() => setShown([]));
    await waitFor(() => expect(screen.getByTestId('items-empty')).toHaveFocus());
  });

  it('moves an item with "Move to..." from the keyboard: M opens it, the source is not offered', async () => {
    const user = userEvent.setup();
    const props = renderCollection();
    await screen.findByRole('button', { name: 'Arrow, quantity 1' });
    tile('Arrow').focus();
    await user.keyboard('{ArrowRight}m');
    const menu = await screen.findByRole('menu', { name: 'Move Bedroll to...' });
    const choices = within(menu).getAllByRole('menuitem');
    expect(choices.map((c) => c.textContent)).toEqual(['Quiver (Aria)', 'Party Stash (The Company)']);
    await waitFor(() => expect(choices[0]).toHaveFocus());
    await user.keyboard('{ArrowDown}{Enter}');
    expect(props.onMoveTo).toHaveBeenCalledWith(items[1], stash.id);
    await waitFor(() => expect(screen.queryByRole('menu')).not.toBeInTheDocument());
    expect(tile('Bedroll')).toHaveFocus();
  });

  it('opens "Move to..." with Shift+F10 too, closes it with Escape, and offers it on a button', async () => {
    const user = userEvent.setup();
    const props = renderCollection();
    await screen.findByRole('button', { name: 'Dagger, quantity 1' });
    tile('Dagger').focus();
    await user.keyboard('{Shift>}{F10}{/Shift}');
    expect(await screen.findByRole('menu', { name: 'Move Dagger to...' })).toBeInTheDocument();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('menu')).not.toBeInTheDocument());
    expect(tile('Dagger')).toHaveFocus();

    await user.click(screen.getByRole('button', { name: 'Move Torch to...' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Quiver (Aria)' }));
    expect(props.onMoveTo).toHaveBeenCalledWith(items[4], quiver.id);
  });

  it('keeps the keys shown while a pointer presses, so that nothing moves under it before the click lands', async () => {
    // happy-dom matches no :focus-visible: the browser's answer is given here, as the input in use.
    let keyboardFocus = true;
    const matches = HTMLElement.prototype.matches;
    vi.spyOn(HTMLElement.prototype, 'matches').mockImplementation(function (
      this: HTMLElement,
      selectors: string,
    ) {
      return selectors === ':focus-visible' ? keyboardFocus : matches.call(this, selectors);
    });
    renderCollection();
    await screen.findByRole('button', { name: 'Dagger, quantity 1' });
    // The item's dialog closed with Escape hands the focus back to its tile, as the keyboard's.
    fireEvent.focus(tile('Dagger'));
    expect(screen.getByTestId('item-grid-help')).toBeVisible();

    // Then a tap on another item's button, in the grid: the help line went on pointerdown, the page
    // scrolled up by its height at the bottom of a short page, and the click hit the list instead.
    keyboardFocus = false;
    const more = screen.getByRole('button', { name: 'More actions for Torch' });
    fireEvent.pointerDown(more);
    fireEvent.focus(more);
    expect(screen.getByTestId('item-grid-help')).toBeVisible();
    fireEvent.pointerUp(more);
    fireEvent.click(more);
    // Once the click has landed, the pointer is the input: the help goes.
    await waitFor(() => expect(screen.queryByTestId('item-grid-help')).not.toBeInTheDocument());

    // The same for a tap outside the grid: the focus leaves it only once the press is over.
    keyboardFocus = true;
    fireEvent.focus(tile('Dagger'));
    expect(screen.getByTestId('item-grid-help')).toBeVisible();
    keyboardFocus = false;
    const after = screen.getByRole('button', { name: 'After' });
    fireEvent.pointerDown(after);
    fireEvent.blur(tile('Dagger'), { relatedTarget: after });
    expect(screen.getByTestId('item-grid-help')).toBeVisible();
    fireEvent.pointerUp(after);
    fireEvent.click(after);
    await waitFor(() => expect(screen.queryByTestId('item-grid-help')).not.toBeInTheDocument());

    // Leaving by the keyboard hides it at once, as before.
    keyboardFocus = true;
    fireEvent.focus(tile('Dagger'));
    fireEvent.blur(tile('Dagger'), { relatedTarget: after });
    expect(screen.queryByTestId('item-grid-help')).not.toBeInTheDocument();
  });

  it('has no "Move to..." where nothing can move (a read-only source)', async () => {
    renderCollection({ destinations: undefined, onMoveTo: undefined });
    await screen.findByRole('button', { name: 'Arrow, quantity 1' });
    expect(screen.queryByRole('button', { name: /^Move .* to\.\.\.$/ })).not.toBeInTheDocument();
  });
});

describe('ItemCollection search', () => {
  function SearchHarness() {
    const [search, setSearch] = useState('');
    return (
      <DndContext>
        <input aria-label="Search" value={search} onChange={(event) => setSearch(event.target.value)} />
        <ItemCollection
          containerId={backpack.id}
          filters={{ ...noItemFilters, search }}
          layout="grid"
          draggable={false}
          swipeable={false}
          onOpen={vi.fn()}
          onQuickTransfer={vi.fn()}
          onAddToQueue={vi.fn()}
        />
      </DndContext>
    );
  }

  it('narrows the loaded items at once, and asks the server once typing rests', async () => {
    const fetchMock = mockFetch(({ url }) => {
      const search = new URL(url, 'http://localhost').searchParams.get('search');
      const found = search ? items.filter((item) => item.name.toLowerCase().includes(search)) : items;
      return jsonResponse(200, {
        status: 'success',
        data: found,
        meta: { current_page: 1, total_pages: 1, total_count: found.length, per_page: 20 },
      });
    });
    renderWithProviders(<SearchHarness />);
    await screen.findByRole('button', { name: 'Arrow, quantity 1' });
    const searches = () => fetchMock.mock.calls.filter(([url]) => String(url).includes('search='));

    fireEvent.change(screen.getByRole('textbox', { name: 'Search' }), { target: { value: 'd' } });
    fireEvent.change(screen.getByRole('textbox', { name: 'Search' }), { target: { value: 'da' } });
    // The same render: only Dagger is left, and the server has not been asked yet.
    expect(screen.getAllByTestId('item-tile').map((t) => t.getAttribute('aria-label'))).toEqual([
      'Dagger, quantity 1',
    ]);
    expect(searches()).toHaveLength(0);
    // Once typing rests, one request for what was typed last.
    await waitFor(() => expect(searches()).toHaveLength(1));
    expect(String(searches()[0]?.[0])).toContain('search=da');
    expect(screen.getAllByTestId('item-tile')).toHaveLength(1);

    // Clearing the search shows every item again at once.
    fireEvent.change(screen.getByRole('textbox', { name: 'Search' }), { target: { value: '' } });
    expect(await screen.findAllByTestId('item-tile')).toHaveLength(items.length);
  });
});

describe('ItemCollection empty', () => {
  const hint = 'Add items from the Market tab, or move them here from another container.';

  function renderEmpty(filters = noItemFilters) {
    mockFetch(() =>
      jsonResponse(200, {
        status: 'success',
        data: [],
        meta: { current_page: 1, total_pages: 1, total_count: 0, per_page: 50 },
      }),
    );
    renderWithProviders(
      <DndContext>
        <ItemCollection
          containerId={backpack.id}
          filters={filters}
          layout="grid"
          draggable={false}
          swipeable={false}
          onOpen={vi.fn()}
          onQuickTransfer={vi.fn()}
          onAddToQueue={vi.fn()}
          emptyHint={hint}
        />
      </DndContext>,
    );
  }

  it('says where an empty container’s items could come from, under the spec’s "No items found."', async () => {
    renderEmpty();
    const empty = await screen.findByTestId('items-empty');
    expect(empty).toHaveTextContent(`No items found.${hint}`);
  });

  it('gives no such hint when a search finds nothing', async () => {
    renderEmpty({ ...noItemFilters, search: 'dragon' });
    const empty = await screen.findByTestId('items-empty');
    expect(empty).toHaveTextContent(/^No items found\.$/);
  });
});

describe('ItemGrid under the transfer queue bar', () => {
  const many = Array.from({ length: 70 }, (_, index) =>
    buildItem({ id: `item-${index}`, name: `Torch ${index + 1}`, quantity: 1 }),
  );

  function renderLongList(cover: number) {
    renderWithProviders(
      <TransferQueueCover.Provider value={cover}>
        <DndContext>
          <ItemGrid
            items={many}
            layout="list"
            draggable={false}
            swipeable
            onOpen={vi.fn()}
            onQuickTransfer={vi.fn()}
            onAddToQueue={vi.fn()}
          />
        </DndContext>
      </TransferQueueCover.Provider>,
    );
    return screen.getByTestId('item-list');
  }

  it('pads the end of a long list by what the floating bar covers, so the last item scrolls above it', () => {
    const list = renderLongList(124);
    expect(list).toHaveAttribute('data-virtualised', 'true');
    expect(list).toHaveStyle({ paddingBottom: '124px', scrollPaddingBottom: '124px' });
  });

  it('adds nothing while no bar floats', () => {
    const list = renderLongList(0);
    expect(list.style.paddingBottom).toBe('');
  });
});

describe('ItemCollection when loading fails', () => {
  const failure = () =>
    jsonResponse(400, { status: 'error', error: { code: 'bad_request', message: 'Refused' } });
  const pageOf = (all: typeof items, page: number, perPage: number, totalCount = all.length) =>
    jsonResponse(200, {
      status: 'success',
      data: all.slice((page - 1) * perPage, page * perPage),
      meta: {
        current_page: page,
        total_pages: Math.ceil(totalCount / perPage),
        total_count: totalCount,
        per_page: perPage,
      },
    });
  const requestedPage = (url: string) => Number(new URL(url, 'http://localhost').searchParams.get('page'));
  const requestedPerPage = (url: string) =>
    Number(new URL(url, 'http://localhost').searchParams.get('per_page'));

  function renderFailing(layout: ItemCollectionProps['layout'] = 'grid') {
    return renderWithProviders(
      <DndContext>
        <ItemCollection
          containerId={backpack.id}
          filters={noItemFilters}
          layout={layout}
          draggable={false}
          swipeable={false}
          onOpen={vi.fn()}
          onQuickTransfer={vi.fn()}
          onAddToQueue={vi.fn()}
        />
        <button type="button">After</button>
      </DndContext>,
    );
  }

  it('keeps the items on a failed refresh, says so, and Try Again refreshes', async () => {
    let failing = false;
    mockFetch(() => (failing ? failure() : pageOf(items, 1, 20)));
    const { queryClient } = renderFailing();
    await screen.findByRole('button', { name: 'Arrow, quantity 1' });

    failing = true;
    await act(() => queryClient.refetchQueries());
    const note = await screen.findByTestId('refresh-failed-note', {}, { timeout: 5_000 });
    expect(note).toHaveTextContent('Could not refresh. Showing what was loaded before.');
    expect(screen.getAllByTestId('item-tile')).toHaveLength(items.length);
    expect(screen.queryByText('More items could not be loaded.')).not.toBeInTheDocument();

    failing = false;
    await userEvent.click(within(note).getByRole('button', { name: 'Try Again' }));
    await waitFor(() => expect(screen.queryByTestId('refresh-failed-note')).not.toBeInTheDocument(), {
      timeout: 5_000,
    });
    expect(screen.getAllByTestId('item-tile')).toHaveLength(items.length);
  });

  const thirty = Array.from({ length: 30 }, (_, index) =>
    buildItem({ id: `item-${index}`, name: `Torch ${index + 1}`, quantity: 1 }),
  );

  it.each(['grid', 'list'] as const)(
    'keeps the first page when the next fails (%s view), says so at the end, and asks again once, on Try Again',
    async (layout) => {
      let failing = true;
      const fetchMock = mockFetch(({ url }) =>
        requestedPage(url) === 2 && failing ? failure() : pageOf(thirty, requestedPage(url), 20),
      );
      const secondPages = () => fetchMock.mock.calls.filter(([url]) => requestedPage(String(url)) === 2);
      renderFailing(layout);

      expect(
        await screen.findByText('More items could not be loaded.', {}, { timeout: 5_000 }),
      ).toBeInTheDocument();
      expect(screen.getAllByTestId('item-tile')).toHaveLength(20);
      // Not a failed refresh: what was shown is current, only the rest is missing.
      expect(screen.queryByTestId('refresh-failed-note')).not.toBeInTheDocument();
      // A failed page is not asked for again and again on its own.
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(secondPages()).toHaveLength(1);

      failing = false;
      await userEvent.click(screen.getByRole('button', { name: 'Try Again' }));
      await waitFor(() => expect(screen.getAllByTestId('item-tile')).toHaveLength(30), { timeout: 5_000 });
      expect(screen.queryByText('More items could not be loaded.')).not.toBeInTheDocument();
      expect(secondPages()).toHaveLength(2);
    },
  );

  it('says so at the end of a long, virtualised list too, and its Try Again is the next Tab stop', async () => {
    const many = Array.from({ length: 100 }, (_, index) =>
      buildItem({ id: `item-${index}`, name: `Torch ${index + 1}`, quantity: 1 }),
    );
    let failing = true;
    mockFetch(({ url }) =>
      requestedPage(url) > 1 && failing ? failure() : pageOf(many, requestedPage(url), requestedPerPage(url)),
    );
    // happy-dom lays nothing out: the list's scroll box is given a height, so the virtualiser draws its rows.
    vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockImplementation(function (this: HTMLElement) {
      return this.dataset.virtualised ? 600 : 0;
    });
    renderFailing('list');

    expect(
      await screen.findByText('More items could not be loaded.', {}, { timeout: 5_000 }),
    ).toBeInTheDocument();
    expect(screen.getByTestId('item-list')).toHaveAttribute('data-virtualised', 'true');
    expect(screen.getByRole('button', { name: 'Torch 20, quantity 1' })).toBeInTheDocument();
    // No loading row left at the end as if that page were still coming.
    expect(screen.queryByTestId('items-loading-more')).not.toBeInTheDocument();
    expect(screen.queryByTestId('refresh-failed-note')).not.toBeInTheDocument();

    const user = userEvent.setup();
    // Scrolled to the end of what was loaded: the Tab after the last tile drawn goes to Try Again.
    screen.getAllByTestId('item-tile').at(-1)?.focus();
    await user.tab();
    const tryAgain = screen.getByRole('button', { name: 'Try Again' });
    expect(tryAgain).toHaveFocus();
    failing = false;
    await user.keyboard('{Enter}');
    await waitFor(
      () => expect(screen.queryByText('More items could not be loaded.')).not.toBeInTheDocument(),
      { timeout: 5_000 },
    );
  });

  it('keeps the focus on Try Again while it waits, then gives it to the first item loaded', async () => {
    const many = Array.from({ length: 100 }, (_, index) =>
      buildItem({ id: `item-${index}`, name: `Torch ${index + 1}`, quantity: 1 }),
    );
    let failing = true;
    let answerSecondTry: () => void = () => undefined;
    const secondTry = new Promise<void>((resolve) => {
      answerSecondTry = resolve;
    });
    let firstPageSize = 0;
    mockFetch(async ({ url }) => {
      const page = requestedPage(url);
      const perPage = requestedPerPage(url);
      if (page === 1) firstPageSize = perPage;
      if (page > 1 && failing) return failure();
      if (page > 1) await secondTry;
      return pageOf(many, page, perPage);
    });
    vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockImplementation(function (this: HTMLElement) {
      return this.dataset.virtualised ? 600 : 0;
    });
    const restoreBusyButtons = busyButtonsLikeTheBrowser();
    try {
      renderFailing('list');
      await screen.findByText('More items could not be loaded.', {}, { timeout: 5_000 });
      const user = userEvent.setup();
      const tryAgain = screen.getByRole('button', { name: 'Try Again' });
      tryAgain.focus();
      failing = false;
      await user.keyboard('{Enter}');
      // Waiting: the button says it is busy, and the keyboard's place is not dropped to the page.
      await waitFor(() => expect(tryAgain).toHaveAttribute('aria-disabled', 'true'), { timeout: 5_000 });
      expect(tryAgain).toHaveFocus();

      answerSecondTry();
      await waitFor(
        () =>
          expect(
            screen.getByRole('button', { name: `Torch ${firstPageSize + 1}, quantity 1` }),
          ).toHaveFocus(),
        { timeout: 5_000 },
      );
      expect(screen.queryByText('More items could not be loaded.')).not.toBeInTheDocument();
    } finally {
      restoreBusyButtons();
    }
  });

  it('leaves the focus where it is when Try Again was pressed without it', async () => {
    let failing = true;
    mockFetch(({ url }) =>
      requestedPage(url) === 2 && failing ? failure() : pageOf(thirty, requestedPage(url), 20),
    );
    renderFailing('list');
    await screen.findByText('More items could not be loaded.', {}, { timeout: 5_000 });
    const after = screen.getByRole('button', { name: 'After' });
    after.focus();
    failing = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try Again' }));
    await waitFor(() => expect(screen.getAllByTestId('item-tile')).toHaveLength(30), { timeout: 5_000 });
    expect(after).toHaveFocus();
  });

  it('tells a screen reader that more items could not be loaded, from a region there before', async () => {
    mockFetch(({ url }) => (requestedPage(url) === 2 ? failure() : pageOf(thirty, requestedPage(url), 20)));
    renderFailing('list');
    // Drawn empty with the first page, so that what comes into it is read out.
    const region = await screen.findByTestId('items-load-more-status', {}, { timeout: 5_000 });
    expect(region).toHaveAttribute('role', 'status');
    await waitFor(() => expect(region).toHaveTextContent('More items could not be loaded.'), {
      timeout: 5_000,
    });
  });

  it('shows the full error when the first load fails', async () => {
    mockFetch(failure);
    renderFailing();
    expect(await screen.findByText('Error loading items', {}, { timeout: 5_000 })).toBeInTheDocument();
    expect(screen.queryByTestId('refresh-failed-note')).not.toBeInTheDocument();
    expect(screen.queryByText('More items could not be loaded.')).not.toBeInTheDocument();
  });
});

describe('ItemGrid with two stacks of one name', () => {
  // Weapons do not stack: two Shortswords of 1 are two tiles, and a screen reader must tell them apart.
  const stacks = [
    buildItem({ id: 'item-a', name: 'Shortsword', quantity: 1 }),
    buildItem({ id: 'item-b', name: 'Torch', quantity: 1 }),
    buildItem({
      id: 'item-c',
      name: 'Shortsword',
      quantity: 1,
      notes: 'Silvered, from the crypt\nWorth keeping',
    }),
    // Told apart by their quantities, or by what they are worn as: their tiles' names are their own already.
    buildItem({ id: 'item-d', name: 'Arrow', quantity: 6 }),
    buildItem({ id: 'item-e', name: 'Arrow', quantity: 4 }),
    buildItem({ id: 'item-f', name: 'Dagger', quantity: 1 }),
    buildItem({ id: 'item-g', name: 'Dagger', quantity: 1, instance_data: { is_equipped: true } }),
  ];

  function renderStacks(items: ItemInstance[], layout: 'grid' | 'list', virtualise = false) {
    renderWithProviders(
      <DndContext>
        <ItemGrid
          items={items}
          layout={layout}
          virtualise={virtualise}
          draggable={false}
          swipeable={false}
          onOpen={vi.fn()}
          onQuickTransfer={vi.fn()}
          onAddToQueue={vi.fn()}
          destinations={[backpack, quiver]}
          onMoveTo={vi.fn()}
        />
      </DndContext>,
    );
  }

  const buttonNames = () => screen.getAllByRole('button').map((button) => button.getAttribute('aria-label'));

  it.each([
    ['grid', false],
    ['list', false],
    ['list', true],
  ] as const)(
    'names every tile and button apart in the %s (virtualised: %s), a lone name as before',
    (layout, virtualise) => {
      // happy-dom lays nothing out: the list's scroll box is given a height, so the virtualiser draws its rows.
      vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockImplementation(function (this: HTMLElement) {
        return this.dataset.virtualised ? 600 : 0;
      });
      // ...and its rows a height, else they all measure 0 at the top and the virtualiser leaves out the first.
      vi.spyOn(HTMLElement.prototype, 'offsetHeight', 'get').mockImplementation(function (this: HTMLElement) {
        return this.dataset.index === undefined ? 0 : 50;
      });
      renderStacks(stacks, layout, virtualise);
      const names = buttonNames();
      // Seven tiles, each with its Move and More actions buttons.
      expect(names).toHaveLength(21);
      expect(new Set(names).size).toBe(names.length);

      // Tiles alike in name, quantity and status are told apart by their place and their note's first line.
      expect(screen.getByRole('button', { name: 'Shortsword (1 of 2), quantity 1' })).toBeInTheDocument();
      expect(
        screen.getByRole('button', { name: 'Shortsword (2 of 2, Silvered, from the crypt), quantity 1' }),
      ).toBeInTheDocument();
      expect(
        screen.getByRole('button', { name: 'More actions for Shortsword (1 of 2)' }),
      ).toBeInTheDocument();
      expect(
        screen.getByRole('button', { name: 'Move Shortsword (2 of 2, Silvered, from the crypt) to...' }),
      ).toBeInTheDocument();

      // Tiles told apart already keep their names; their buttons say what tells them apart.
      for (const name of [
        'Arrow, quantity 6',
        'Arrow, quantity 4',
        'Dagger, quantity 1',
        'Dagger, quantity 1, equipped',
      ])
        expect(screen.getByRole('button', { name })).toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'More actions for Arrow (quantity 6)' })).toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Move Arrow (quantity 4) to...' })).toBeInTheDocument();
      expect(
        screen.getByRole('button', { name: 'More actions for Dagger (quantity 1, equipped)' }),
      ).toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Move Dagger (quantity 1) to...' })).toBeInTheDocument();

      // A name met once keeps its plain names (tests and end-to-end selectors rely on them).
      expect(screen.getByRole('button', { name: 'Torch, quantity 1' })).toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'More actions for Torch' })).toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Move Torch to...' })).toBeInTheDocument();
    },
  );

  it('names twins apart among stacks of their name that differ in quantity, and shortens a long note', () => {
    renderStacks(
      [
        buildItem({ id: 'item-a', name: 'Longsword', quantity: 1 }),
        buildItem({
          id: 'item-b',
          name: 'Longsword',
          quantity: 1,
          notes: 'Taken from the barrow of the last king of the northern marches',
        }),
        buildItem({ id: 'item-c', name: 'Longsword', quantity: 2 }),
        buildItem({ id: 'item-d', name: 'Longsword', quantity: 2 }),
      ],
      'grid',
    );
    const names = buttonNames();
    expect(names).toHaveLength(12);
    expect(new Set(names).size).toBe(names.length);
    expect(screen.getByRole('button', { name: 'Longsword (1 of 2), quantity 1' })).toBeInTheDocument();
    expect(
      screen.getByRole('button', {
        name: 'Longsword (2 of 2, Taken from the barrow of the last king…), quantity 1',
      }),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Longsword (2 of 2), quantity 2' })).toBeInTheDocument();
    // "1 of 2" alone would be said by a button of each quantity: the quantity comes first.
    expect(
      screen.getByRole('button', { name: 'More actions for Longsword (quantity 1, 1 of 2)' }),
    ).toBeInTheDocument();
    expect(
      screen.getByRole('button', { name: 'Move Longsword (quantity 2, 1 of 2) to...' }),
    ).toBeInTheDocument();
  });
});
