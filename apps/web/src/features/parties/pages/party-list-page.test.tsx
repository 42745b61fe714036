import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { refetchFailedWhenBackOnline } from '../../../lib/query-client';
import { failure, jsonResponse, mockFetch } from '../../../test/fixtures';
import { buildParty, pageMeta } from '../../../test/party-fixtures';
import { renderRoutes } from '../../../test/render';
import { PartyListPage } from './party-list-page';

const routes = [{ path: '/parties', element: <PartyListPage /> }];

function listResponse(count: number, total = count, page = 1) {
  const parties = Array.from({ length: count }, (_, index) =>
    buildParty({ id: `party-${page}-${index}`, name: `Party ${page}-${index}` }),
  );
  return jsonResponse(200, { status: 'success', data: parties, meta: pageMeta(total, 9, page) });
}

const lastListQuery = (fetchMock: ReturnType<typeof mockFetch>) => {
  const url = String(fetchMock.mock.calls.at(-1)?.[0]);
  return Object.fromEntries(new URL(url, 'http://test').searchParams);
};

describe('PartyListPage', () => {
  it('asks for 9 live parties first, then follows Show Archived, My Parties Only and the pager', async () => {
    const fetchMock = mockFetch(({ url }) => {
      const page = Number(new URL(url, 'http://test').searchParams.get('page'));
      return listResponse(9, 90, page);
    });
    const user = userEvent.setup();
    renderRoutes(routes, '/parties');
    expect(await screen.findAllByTestId('party-card')).toHaveLength(9);
    expect(lastListQuery(fetchMock)).toEqual({ page: '1', per_page: '9', is_archived: 'false' });

    await user.click(screen.getByRole('switch', { name: 'Show Archived' }));
    await vi.waitFor(() => expect(lastListQuery(fetchMock)).toEqual({ page: '1', per_page: '9' }));

    await user.click(screen.getByRole('switch', { name: 'My Parties Only' }));
    await vi.waitFor(() =>
      expect(lastListQuery(fetchMock)).toEqual({ page: '1', per_page: '9', owned: 'true' }),
    );

    // 10 pages: the pager shows 1 … and ellipses rather than every number.
    const pager = screen
      .getByRole('button', { name: 'Page 10' })
      .closest('.mantine-Pagination-root') as HTMLElement;
    expect(within(pager).queryByRole('button', { name: 'Page 6' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Page 2' }));
    await vi.waitFor(() =>
      expect(lastListQuery(fetchMock)).toEqual({ page: '2', per_page: '9', owned: 'true' }),
    );
    expect(await screen.findByText('Party 2-0')).toBeInTheDocument();
  });

  it('sends the search text and goes back to page 1', async () => {
    const fetchMock = mockFetch(() => listResponse(3, 30));
    const user = userEvent.setup();
    renderRoutes(routes, '/parties');
    await screen.findAllByTestId('party-card');
    await user.click(screen.getByRole('button', { name: 'Page 2' }));
    await vi.waitFor(() => expect(lastListQuery(fetchMock).page).toBe('2'));
    await user.type(screen.getByRole('textbox', { name: 'Search parties' }), 'lantern');
    await vi.waitFor(() =>
      expect(lastListQuery(fetchMock)).toEqual({
        page: '1',
        per_page: '9',
        search: 'lantern',
        is_archived: 'false',
      }),
    );
  });

  it('shows the GM badge and Delete only for GMs, and the role badge otherwise', async () => {
    mockFetch(() =>
      jsonResponse(200, {
        status: 'success',
        data: [
          buildParty({ id: 'a', name: 'Mine', is_gm: true, user_role: 'gm', member_count: 1 }),
          buildParty({ id: 'b', name: 'Theirs', user_role: 'observer', member_count: 3 }),
        ],
        meta: pageMeta(2, 9),
      }),
    );
    renderRoutes(routes, '/parties');
    const [mine, theirs] = await screen.findAllByTestId('party-card');
    expect(within(mine as HTMLElement).getByText('GM')).toBeInTheDocument();
    expect(within(mine as HTMLElement).getByText('1 member')).toBeInTheDocument();
    expect(within(mine as HTMLElement).getByRole('button', { name: 'Delete Mine' })).toBeInTheDocument();
    expect(within(theirs as HTMLElement).getByText('Observer')).toBeInTheDocument();
    expect(within(theirs as HTMLElement).getByText('3 members')).toBeInTheDocument();
    expect(within(theirs as HTMLElement).queryByRole('button', { name: /Delete/ })).not.toBeInTheDocument();
  });

  it('goes back to the last page when the one shown empties: no "No parties joined" beside 9 parties', async () => {
    // Ten parties: nine on page 1, the GM's own on page 2. Deleting it left page 2 of 1, which said the user
    // had joined no party and hid the pager.
    let deleted = false;
    const fetchMock = mockFetch(({ url, init }) => {
      const { pathname, searchParams } = new URL(url, 'http://test');
      if (init.method === 'DELETE' && pathname === '/api/v1/parties/last') {
        deleted = true;
        return new Response(null, { status: 204 });
      }
      const page = Number(searchParams.get('page'));
      if (page === 2 && !deleted) {
        return jsonResponse(200, {
          status: 'success',
          data: [buildParty({ id: 'last', name: 'Last', is_gm: true, user_role: 'gm' })],
          meta: pageMeta(10, 9, 2),
        });
      }
      return page === 1 ? listResponse(9, deleted ? 9 : 10, 1) : listResponse(0, 9, page);
    });
    const user = userEvent.setup();
    renderRoutes(routes, '/parties');
    await user.click(await screen.findByRole('button', { name: 'Page 2' }));
    await user.click(await screen.findByRole('button', { name: 'Delete Last' }));
    await user.click(await screen.findByRole('button', { name: 'Delete Party' }));
    await vi.waitFor(() => expect(lastListQuery(fetchMock)).toMatchObject({ page: '1' }));
    expect(await screen.findAllByTestId('party-card')).toHaveLength(9);
    expect(screen.queryByText('No parties joined')).not.toBeInTheDocument();
  });

  it('shows the empty state with Browse Parties, and Error loading parties with Try Again', async () => {
    mockFetch(() => listResponse(0));
    const first = renderRoutes(routes, '/parties');
    expect(await screen.findByText('No parties joined')).toBeInTheDocument();
    expect(
      screen.getByText('Join a party to collaborate with other players or create your own.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Browse Parties' })).toHaveAttribute('href', '/parties/discover');
    first.unmount();

    mockFetch(() => failure(500, 'INTERNAL_SERVER_ERROR', 'boom'));
    renderRoutes(routes, '/parties');
    expect(
      await screen.findByText('Error loading parties', undefined, { timeout: 5_000 }),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try Again' })).toBeInTheDocument();
  });
});

describe('PartyListPage on a slow or dropped connection', () => {
  /** The parties, or a dropped connection while `connected` is false. */
  function serve() {
    const state = { connected: true, count: 2 };
    const fetchMock = mockFetch(() => {
      if (!state.connected) throw new TypeError('Failed to fetch');
      return listResponse(state.count);
    });
    return { state, fetchMock };
  }

  it('keeps the loaded parties when a refresh fails, says so, and tries again on request', async () => {
    const { state, fetchMock } = serve();
    const user = userEvent.setup();
    const { queryClient } = renderRoutes(routes, '/parties');
    expect(await screen.findAllByTestId('party-card')).toHaveLength(2);
    state.connected = false;
    await queryClient.refetchQueries({ queryKey: ['parties'] });
    await waitFor(() => expect(screen.getByTestId('refresh-failed-note')).toBeVisible(), { timeout: 5_000 });
    expect(screen.getByTestId('refresh-failed-note')).toHaveTextContent(
      'Could not refresh. Showing what was loaded before.',
    );
    expect(screen.getAllByTestId('party-card')).toHaveLength(2);
    expect(screen.queryByText('Error loading parties')).not.toBeInTheDocument();

    state.connected = true;
    state.count = 3;
    const asked = fetchMock.mock.calls.length;
    await user.click(
      within(screen.getByTestId('refresh-failed-note')).getByRole('button', { name: 'Try Again' }),
    );
    await waitFor(() => expect(screen.getAllByTestId('party-card')).toHaveLength(3));
    expect(fetchMock.mock.calls.length).toBe(asked + 1);
    expect(screen.queryByTestId('refresh-failed-note')).not.toBeInTheDocument();
  });

  it('asks again for the parties whose refresh failed when the browser is back online', async () => {
    const { state, fetchMock } = serve();
    const { queryClient } = renderRoutes(routes, '/parties');
    const stopListening = refetchFailedWhenBackOnline(queryClient);
    try {
      await screen.findAllByTestId('party-card');
      state.connected = false;
      await queryClient.refetchQueries({ queryKey: ['parties'] });
      await screen.findByTestId('refresh-failed-note', undefined, { timeout: 5_000 });
      state.connected = true;
      state.count = 3;
      const asked = fetchMock.mock.calls.length;
      window.dispatchEvent(new Event('online'));
      await waitFor(() => expect(screen.getAllByTestId('party-card')).toHaveLength(3));
      expect(fetchMock.mock.calls.length).toBe(asked + 1);
      expect(screen.queryByTestId('refresh-failed-note')).not.toBeInTheDocument();
    } finally {
      stopListening();
    }
  });
});
