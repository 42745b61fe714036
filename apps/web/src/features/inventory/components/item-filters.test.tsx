import { fireEvent, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { failure, jsonResponse, mockFetch } from '../../../test/fixtures';
import { type ItemFilters, itemFilterParams, noItemFilters } from '../api/inventory-api';
import { buildItem, renderWithProviders } from '../test/inventory-fixtures';
import { ItemCollection } from './item-collection';
import { rarities, unpricedOutOfRangeHint, WorkspaceTopBar } from './workspace-top-bar';

afterEach(() => vi.unstubAllGlobals());

function Harness() {
  const [open, setOpen] = useState(true);
  const [filters, setFilters] = useState<ItemFilters>(noItemFilters);
  return (
    <>
      <WorkspaceTopBar
        owner="Aria"
        titleOrder={1}
        wide
        searchOpen={open}
        onSearchOpenChange={setOpen}
        search={filters.search}
        onSearchChange={(search) => setFilters((f) => ({ ...f, search }))}
        filters={filters}
        onFiltersChange={(change) => setFilters((f) => ({ ...f, ...change }))}
        viewMode="single"
        onViewModeChange={() => undefined}
        layout="list"
        onLayoutChange={() => undefined}
        canCreate
        onCreateContainer={() => undefined}
      />
      <ItemCollection
        containerId="container-1"
        filters={filters}
        layout="list"
        draggable={false}
        swipeable={false}
        onOpen={() => undefined}
        onQuickTransfer={() => undefined}
        onAddToQueue={() => undefined}
      />
    </>
  );
}

const emptyPage = () =>
  jsonResponse(200, {
    status: 'success',
    data: [],
    meta: { current_page: 1, total_pages: 1, total_count: 0, per_page: 20 },
  });

describe('item filters (rarity and value range next to the search)', () => {
  it('maps the filters onto search, rarity, min_value and max_value', () => {
    expect(
      String(itemFilterParams({ search: ' bow ', rarity: 'very rare', minValue: 0, maxValue: 50.5 })),
    ).toBe('search=bow&rarity=very+rare&min_value=0&max_value=50.5');
    expect(String(itemFilterParams(noItemFilters))).toBe('');
  });

  it('offers the six rarities and sends the chosen filters to GET containers/{id}/items', async () => {
    const fetchMock = mockFetch(() => emptyPage());
    renderWithProviders(<Harness />);
    await screen.findByText('No items found.');
    fireEvent.click(screen.getByRole('combobox', { name: 'Rarity' }));
    expect((await screen.findAllByRole('option')).map((o) => o.textContent?.toLowerCase())).toEqual([
      ...rarities,
    ]);
    fireEvent.click(screen.getByRole('option', { name: 'Very rare' }));
    fireEvent.change(screen.getByRole('textbox', { name: 'Minimum value (gp)' }), {
      target: { value: '10' },
    });
    fireEvent.change(screen.getByRole('textbox', { name: 'Maximum value (gp)' }), {
      target: { value: '500' },
    });
    await waitFor(() =>
      expect(String(fetchMock.mock.calls.at(-1)?.[0])).toBe(
        '/api/v1/containers/container-1/items?page=1&per_page=20&rarity=very+rare&min_value=10&max_value=500',
      ),
    );

    // Escape closes the search and clears its filters: reopened, they start empty.
    fireEvent.keyDown(screen.getByRole('textbox', { name: 'Maximum value (gp)' }), { key: 'Escape' });
    expect(screen.queryByRole('combobox', { name: 'Rarity' })).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Search items' }));
    expect(screen.getByRole('combobox', { name: 'Rarity' })).toHaveValue('');
    expect(screen.getByRole('textbox', { name: 'Minimum value (gp)' })).toHaveValue('');
  });

  it('says that unpriced items are left out while a value range is set, and only then', async () => {
    mockFetch(() => emptyPage());
    renderWithProviders(<Harness />);
    await screen.findByText('No items found.');
    const min = screen.getByRole('textbox', { name: 'Minimum value (gp)' });
    const max = screen.getByRole('textbox', { name: 'Maximum value (gp)' });
    expect(screen.queryByText(unpricedOutOfRangeHint)).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('combobox', { name: 'Rarity' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Rare' }));
    expect(screen.getByRole('combobox', { name: 'Rarity' })).toHaveValue('Rare');
    expect(screen.queryByText(unpricedOutOfRangeHint)).not.toBeInTheDocument();

    fireEvent.change(max, { target: { value: '10' } });
    expect(screen.getByText(unpricedOutOfRangeHint)).toBeInTheDocument();
    fireEvent.change(max, { target: { value: '' } });
    expect(screen.queryByText(unpricedOutOfRangeHint)).not.toBeInTheDocument();

    // A minimum of 0 is a range too: it leaves them out as well.
    fireEvent.change(min, { target: { value: '0' } });
    expect(screen.getByText(unpricedOutOfRangeHint)).toBeInTheDocument();
  });

  it('shows the error state when the server refuses the filters', async () => {
    mockFetch(({ url }) =>
      url.includes('min_value')
        ? failure(422, 'VALIDATION_ERROR', 'Validation failed', [
            { field: 'min_value', message: 'min_value must be at least 0' },
          ])
        : emptyPage(),
    );
    renderWithProviders(<Harness />);
    await screen.findByText('No items found.');
    fireEvent.change(screen.getByRole('textbox', { name: 'Minimum value (gp)' }), { target: { value: '5' } });
    expect(await screen.findByText('Error loading items')).toBeInTheDocument();
  });

  it('tells a screen reader, politely, how many items a search or a filter finds', async () => {
    mockFetch(({ url }) => {
      const search = new URL(url, 'http://test').searchParams.get('search');
      const items = [buildItem({ id: 'i-1' }), buildItem({ id: 'i-2' })].slice(0, search ? 0 : 2);
      return jsonResponse(200, {
        status: 'success',
        data: items,
        meta: { current_page: 1, total_pages: 1, total_count: items.length, per_page: 20 },
      });
    });
    renderWithProviders(<Harness />);
    const results = screen.getByTestId('item-results-status');
    expect(results).toHaveAttribute('aria-live', 'polite');
    expect(await screen.findAllByRole('listitem')).toHaveLength(2);
    // The container as it opens: nothing searched, nothing to say.
    expect(results).toBeEmptyDOMElement();

    fireEvent.change(screen.getByRole('textbox', { name: 'Search items' }), { target: { value: 'zzz' } });
    await waitFor(() => expect(results).toHaveTextContent('0 items found.'));
    expect(screen.getByText('No items found.')).toBeVisible();

    fireEvent.change(screen.getByRole('textbox', { name: 'Search items' }), { target: { value: '' } });
    await waitFor(() => expect(results).toHaveTextContent('2 items found.'));
  });
});
