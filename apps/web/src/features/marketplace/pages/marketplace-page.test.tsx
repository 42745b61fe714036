import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { failure, jsonResponse, mockFetch } from '../../../test/fixtures';
import { pageMeta } from '../../../test/party-fixtures';
import { renderRoutes } from '../../../test/render';
import { buildLootItemTemplate } from '../../loot/test/loot-fixtures';
import { MarketplacePage } from './marketplace-page';

const routes = [{ path: '/marketplace', element: <MarketplacePage /> }];

/** The query of the last GET search/items the page sent. */
const lastSearch = (fetchMock: ReturnType<typeof mockFetch>) => {
  const call = fetchMock.mock.calls.filter(([url]) => String(url).includes('/search/items?')).at(-1);
  return Object.fromEntries(new URL(String(call?.[0]), 'http://test').searchParams);
};

const results = (count: number, page = 1) =>
  jsonResponse(200, {
    status: 'success',
    data: [buildLootItemTemplate({ id: `t-${page}`, name: `Sword of page ${page}` })],
    meta: pageMeta(count, 50, page),
  });

describe('MarketplacePage', () => {
  it('shows placeholders while loading, then an error with Try again, then the empty words', async () => {
    let answer: () => Promise<Response> | Response = () => new Promise<Response>(() => undefined);
    mockFetch(() => answer());
    const view = renderRoutes(routes, '/marketplace');
    expect(view.container.querySelectorAll('.mantine-Skeleton-root').length).toBeGreaterThan(0);
    view.unmount();

    answer = () => failure(500, 'INTERNAL_SERVER_ERROR', 'The catalogue is resting');
    renderRoutes(routes, '/marketplace');
    expect(await screen.findByText('Error loading the marketplace', {}, { timeout: 10_000 })).toBeVisible();

    answer = () => jsonResponse(200, { status: 'success', data: [], meta: pageMeta(0, 50) });
    await userEvent.click(screen.getByRole('button', { name: /try again/i }));
    expect(await screen.findByText('No items found.')).toBeVisible();
  }, 20_000);

  it('offers "Clear filters" when a search finds nothing, and it asks the whole marketplace again', async () => {
    const fetchMock = mockFetch(({ url }) =>
      new URL(url, 'http://t').searchParams.has('search')
        ? jsonResponse(200, { status: 'success', data: [], meta: pageMeta(0, 50) })
        : results(1),
    );
    const view = renderRoutes(routes, '/marketplace?q=zzz&rarity=rare&min_value=5');
    expect(await screen.findByText('No items found.')).toBeVisible();
    await userEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    expect(await screen.findByText('Sword of page 1')).toBeVisible();
    expect(lastSearch(fetchMock)).not.toHaveProperty('search');
    expect(lastSearch(fetchMock)).not.toHaveProperty('rarity');
    expect(screen.getByRole('textbox', { name: 'Search' })).toHaveValue('');
    expect(view.router.state.location.search).toBe('');
  });

  it("shows a player-made card's rarity and its author, as the search answers them", async () => {
    const template = buildLootItemTemplate({
      name: 'Ember blade',
      is_system: false,
      creator_name: 'Mira',
      metadata: { rarity: 'rare' },
    });
    mockFetch(() => jsonResponse(200, { status: 'success', data: [template], meta: pageMeta(1, 50) }));
    renderRoutes(routes, '/marketplace');
    const card = (await screen.findByRole('link', { name: 'Ember blade' })).closest('.mantine-Paper-root');
    expect(card).toHaveTextContent('Rare');
    expect(card).toHaveTextContent('By Mira');
  });

  it('offers no "Clear filters" when nothing was filtered', async () => {
    mockFetch(() => jsonResponse(200, { status: 'success', data: [], meta: pageMeta(0, 50) }));
    renderRoutes(routes, '/marketplace');
    expect(await screen.findByText('No items found.')).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Clear filters' })).not.toBeInTheDocument();
  });

  it('asks the search the address holds and shows it in the fields', async () => {
    const fetchMock = mockFetch(({ url }) =>
      results(120, Number(new URL(url, 'http://t').searchParams.get('page'))),
    );
    renderRoutes(routes, '/marketplace?q=sword&rarity=rare&sort=value-desc&min_value=5&page=2');
    expect(await screen.findByText('Sword of page 2')).toBeVisible();
    expect(lastSearch(fetchMock)).toMatchObject({
      search: 'sword',
      rarity: 'rare',
      sort: 'value',
      direction: 'desc',
      min_value: '5',
      page: '2',
    });
    expect(screen.getByRole('textbox', { name: 'Search' })).toHaveValue('sword');
    expect(screen.getByRole('textbox', { name: 'Min value (gp)' })).toHaveValue('5');
    expect(screen.getByRole('combobox', { name: 'Rarity' })).toHaveValue('Rare');
    expect(screen.getByRole('combobox', { name: 'Sort by' })).toHaveValue('Value: high to low');
  });

  it('ignores what the address holds that is not a filter it knows', async () => {
    const fetchMock = mockFetch(() => results(1));
    renderRoutes(routes, '/marketplace?rarity=mythic&sort=price&page=-3&min_weight=heavy');
    expect(await screen.findByText('Sword of page 1')).toBeVisible();
    const asked = lastSearch(fetchMock);
    expect(asked).toMatchObject({ page: '1' });
    expect(asked).not.toHaveProperty('rarity');
    expect(asked).not.toHaveProperty('sort');
    expect(asked).not.toHaveProperty('min_weight');
  });

  it('leaves out what the search would refuse, rather than show an error the person cannot see', async () => {
    const fetchMock = mockFetch(() => results(1));
    const long = 'x'.repeat(300);
    renderRoutes(
      routes,
      `/marketplace?q=${long}&min_value=1e12&max_weight=99999999&tags=${'y'.repeat(1100)}&min_weight=2`,
    );
    expect(await screen.findByText('Sword of page 1')).toBeVisible();
    const asked = lastSearch(fetchMock);
    expect(asked.search).toHaveLength(200);
    expect(asked).not.toHaveProperty('min_value');
    expect(asked).not.toHaveProperty('max_weight');
    expect(asked).not.toHaveProperty('tags');
    expect(asked).toMatchObject({ min_weight: '2' });
  });

  it('goes to the last page that has results when the address names one past the end', async () => {
    const fetchMock = mockFetch(({ url }) => {
      const page = Number(new URL(url, 'http://t').searchParams.get('page'));
      return page > 3
        ? jsonResponse(200, { status: 'success', data: [], meta: pageMeta(120, 50, page) })
        : results(120, page);
    });
    const { router } = renderRoutes(routes, '/marketplace?page=999');
    expect(await screen.findByText('Sword of page 3')).toBeVisible();
    expect(router.state.location.search).toBe('?page=3');
    expect(lastSearch(fetchMock)).toMatchObject({ page: '3' });
  });

  it('writes typed filters into the address, back on page 1, and Back returns to the earlier page', async () => {
    const fetchMock = mockFetch(({ url }) =>
      results(120, Number(new URL(url, 'http://t').searchParams.get('page'))),
    );
    const user = userEvent.setup();
    const { router } = renderRoutes(routes, '/marketplace');
    expect(await screen.findByText('Sword of page 1')).toBeVisible();

    await user.click(screen.getByRole('button', { name: 'Page 2' }));
    await waitFor(() => expect(router.state.location.search).toBe('?page=2'));
    expect(await screen.findByText('Sword of page 2')).toBeVisible();

    await user.type(screen.getByRole('textbox', { name: 'Search' }), 'axe');
    await waitFor(() => expect(router.state.location.search).toBe('?q=axe'));
    // The address moves first; the search for it follows on the next render.
    await waitFor(() => expect(lastSearch(fetchMock)).toMatchObject({ search: 'axe', page: '1' }));

    await user.click(screen.getByRole('combobox', { name: 'Sort by' }));
    await user.click(await screen.findByRole('option', { name: 'Weight: light first' }));
    await waitFor(() => expect(router.state.location.search).toBe('?q=axe&sort=weight-asc'));
    await waitFor(() =>
      expect(lastSearch(fetchMock)).toMatchObject({ search: 'axe', sort: 'weight', direction: 'asc' }),
    );

    // Typing and sorting replaced the entry page 2 added: one step back is the plain marketplace.
    await act(() => router.navigate(-1));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    await waitFor(() => expect(screen.getByRole('textbox', { name: 'Search' })).toHaveValue(''));
    expect(screen.getByRole('combobox', { name: 'Sort by' })).toHaveValue('Best match');
  }, 20_000);
  it('marks a max value below the min value on the Max field and searches without the impossible range', async () => {
    const fetchMock = mockFetch(() => results(1));
    const user = userEvent.setup();
    const { router } = renderRoutes(routes, '/marketplace');
    expect(await screen.findByText('Sword of page 1')).toBeVisible();
    await user.type(screen.getByRole('textbox', { name: 'Min value (gp)' }), '500');
    const max = screen.getByRole('textbox', { name: 'Max value (gp)' });
    await user.type(max, '10');
    expect(await screen.findByText('Max value must be at least the min value')).toBeVisible();
    expect(max).toHaveAttribute('aria-invalid', 'true');
    // The address keeps what was typed; the search leaves out the pair that can match nothing.
    await waitFor(() => expect(router.state.location.search).toBe('?min_value=500&max_value=10'));
    // The min value alone was searched on the way; the search that follows the max value drops the pair.
    // The search waits out the typing (a debounce): on a loaded machine that is more than waitFor's 1 s.
    await waitFor(
      () => {
        const asked = lastSearch(fetchMock);
        expect(asked).not.toHaveProperty('max_value');
        expect(asked).not.toHaveProperty('min_value');
      },
      { timeout: 5_000 },
    );
  });
});
