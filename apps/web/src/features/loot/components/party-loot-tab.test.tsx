import { lootMessages } from '@haversack/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { useUiStore } from '../../../stores/ui-store';
import { failure, jsonResponse, mockFetch, success } from '../../../test/fixtures';
import { pageMeta } from '../../../test/party-fixtures';
import { renderWithProviders } from '../../inventory/test/inventory-fixtures';
import { buildLootInstance, sunkenChestStacks } from '../test/loot-fixtures';
import { PartyLootTab } from './party-loot-tab';

type Loot = ReturnType<typeof buildLootInstance>;

const hiddenHoard = buildLootInstance({
  id: 'loot-1',
  name: 'Goblin Boss Hoard',
  source: 'Goblin boss',
  instance_data: { location_name: 'Under the throne' },
});
const revealedChest = buildLootInstance({
  id: 'loot-2',
  name: 'Dusty Chest',
  description: 'A chest full of cobwebs.',
  source: 'Crypt',
  is_revealed: true,
  revealed_at: '2026-01-02T00:00:00.000Z',
  items_count: 3,
  total_value_cp: 4500,
  distributed_at: '2026-03-05T12:00:00.000Z',
  distribution_mode: 'by_value',
});

function list(instances: Loot[]) {
  return jsonResponse(200, {
    status: 'success',
    data: instances,
    meta: pageMeta(instances.length, 100),
  });
}

/** The party's loot at the network boundary; `actions` answers reveal, hide (PATCH) and delete. */
function mockLoot(instances: Loot[], actions: (url: string, method: string) => Response | null = () => null) {
  return mockFetch(({ url, init }) => {
    const { pathname } = new URL(url, 'http://test');
    const method = init.method ?? 'GET';
    const answer = actions(pathname, method);
    if (answer) return answer;
    if (method === 'GET' && pathname === '/api/v1/parties/party-1/loot_instances') return list(instances);
    return failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${method} ${pathname}`);
  });
}

const cardOf = (name: string) =>
  screen
    .getAllByTestId('loot-card')
    .find((card) => within(card).queryByRole('heading', { name })) as HTMLElement;

const lastToast = () => useUiStore.getState().toasts.at(-1);

describe('PartyLootTab', () => {
  it('shows the GM every loot, hidden ones badged, with source, location, contents and the way in', async () => {
    const fetchMock = mockLoot([hiddenHoard, revealedChest]);
    renderWithProviders(<PartyLootTab partyId="party-1" isGm />);
    expect(screen.getByRole('heading', { name: 'Party Loot' })).toBeInTheDocument();
    expect(screen.getByText('Manage loot instances for your party.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Browse Loot Templates' })).toHaveAttribute(
      'href',
      '/loot/templates?party_id=party-1',
    );
    expect(screen.getByTestId('loot-skeletons')).toBeInTheDocument();

    const hoard = await waitFor(() => cardOf('Goblin Boss Hoard'));
    const url = new URL(String(fetchMock.mock.calls[0]?.[0]), 'http://test');
    expect(url.pathname).toBe('/api/v1/parties/party-1/loot_instances');
    expect(within(hoard).getByText('Hidden')).toBeInTheDocument();
    expect(within(hoard).getByText('What the goblin boss kept under his throne.')).toBeInTheDocument();
    expect(within(hoard).getByText('Goblin boss')).toBeInTheDocument();
    expect(within(hoard).getByText('Under the throne')).toBeInTheDocument();
    // Two longswords in one stack: 2 items.
    expect(within(hoard).getByTestId('loot-card-contents')).toHaveTextContent('2 items · 30 gp');
    expect(within(hoard).getByRole('link', { name: /View Loot Contents/ })).toHaveAttribute(
      'href',
      '/loot/instances/loot-1',
    );
    expect(within(hoard).getByRole('button', { name: 'Reveal Goblin Boss Hoard' })).toHaveAttribute(
      'title',
      'Reveal to players',
    );
    expect(within(hoard).queryByRole('button', { name: /^Hide/ })).not.toBeInTheDocument();

    const chest = cardOf('Dusty Chest');
    expect(within(chest).queryByText('Hidden')).not.toBeInTheDocument();
    // Distributed: hiding it would hide from the players how they came by what they hold (409 too).
    expect(within(chest).queryByRole('button', { name: /^Hide/ })).not.toBeInTheDocument();
    expect(within(chest).getByRole('button', { name: 'Delete Dusty Chest' })).toBeInTheDocument();
    expect(within(chest).getByTestId('loot-distributed')).toHaveTextContent(
      'Distributed · By value · Mar 5, 2026',
    );
  });

  it('counts items and coins by the unit, apart, beside the worth, and never says "0 items"', async () => {
    const stacks = sunkenChestStacks();
    const coinsOnly = stacks.filter((stack) => stack.item_template.coin !== null);
    const loot = (id: string, name: string, items: typeof stacks) =>
      buildLootInstance({
        id,
        name,
        is_revealed: true,
        container: { id: `container-${id}`, name, item_instances: items },
        // What the server sends: kinds of stacks, coins included.
        items_count: items.length,
        total_value_cp: items.reduce((sum, stack) => sum + stack.value_cp * stack.quantity, 0),
      });
    mockLoot([
      loot('loot-chest', 'Sunken Chest', stacks),
      loot('loot-purse', 'Purse', coinsOnly),
      loot('loot-empty', 'Picked Clean', []),
    ]);
    renderWithProviders(<PartyLootTab partyId="party-1" isGm />);
    const chest = await waitFor(() => cardOf('Sunken Chest'));
    // A spyglass, a lock and 2 potions; 150 gp, 400 sp and 30 ep, named apart so that the count is not
    // taken for the rows (live review: "2 items" over 4 rows); all of it in the worth (1,315 gp).
    expect(within(chest).getByTestId('loot-card-contents')).toHaveTextContent(
      /^4 items and 580 coins · 1,315 gp$/,
    );
    expect(within(cardOf('Purse')).getByTestId('loot-card-contents')).toHaveTextContent(
      /^580 coins · 205 gp$/,
    );
    expect(within(cardOf('Picked Clean')).getByTestId('loot-card-contents')).toHaveTextContent(/^Empty$/);
  });

  it('badges each loot by where it stands: Hidden, Revealed, or its distribution', async () => {
    const revealedSack = buildLootInstance({
      id: 'loot-3',
      name: 'Bandit Sack',
      is_revealed: true,
      revealed_at: '2026-01-02T00:00:00.000Z',
    });
    mockLoot([hiddenHoard, revealedSack, revealedChest]);
    renderWithProviders(<PartyLootTab partyId="party-1" isGm />);
    const sack = await waitFor(() => cardOf('Bandit Sack'));
    expect(within(sack).getByTestId('loot-revealed-badge')).toHaveTextContent('Revealed');
    expect(within(sack).queryByTestId('loot-hidden-badge')).not.toBeInTheDocument();
    const hoard = cardOf('Goblin Boss Hoard');
    expect(within(hoard).getByTestId('loot-hidden-badge')).toHaveTextContent('Hidden');
    expect(within(hoard).queryByTestId('loot-revealed-badge')).not.toBeInTheDocument();
    // Distributed says so itself (and when); a second badge would repeat that it was revealed.
    const chest = cardOf('Dusty Chest');
    expect(within(chest).getByTestId('loot-distributed')).toBeInTheDocument();
    expect(within(chest).queryByTestId('loot-revealed-badge')).not.toBeInTheDocument();
  });

  it('gives players no GM controls, and veils a hidden loot it is sent', async () => {
    const playerChest = { ...revealedChest, can_manage: false, can_take: true };
    const veiled = { ...hiddenHoard, can_manage: false };
    mockLoot([playerChest, veiled]);
    renderWithProviders(<PartyLootTab partyId="party-1" isGm={false} />);
    const chest = await waitFor(() => cardOf('Dusty Chest'));
    expect(screen.queryByRole('link', { name: 'Browse Loot Templates' })).not.toBeInTheDocument();
    expect(within(chest).getByRole('link', { name: /View Loot Contents/ })).toBeInTheDocument();
    expect(within(chest).queryByRole('button', { name: /^Hide/ })).not.toBeInTheDocument();
    expect(within(chest).queryByRole('button', { name: /^Delete/ })).not.toBeInTheDocument();

    const hoard = cardOf('Goblin Boss Hoard');
    expect(within(hoard).getByText('This loot has not been revealed yet')).toBeInTheDocument();
    expect(within(hoard).queryByText('Under the throne')).not.toBeInTheDocument();
    expect(within(hoard).queryByRole('link', { name: /View Loot Contents/ })).not.toBeInTheDocument();
  });

  it('reveals a hidden loot and says so', async () => {
    const user = userEvent.setup();
    const fetchMock = mockLoot([hiddenHoard], (pathname, method) =>
      method === 'POST' && pathname === '/api/v1/loot_instances/loot-1/reveal'
        ? success({ ...hiddenHoard, is_revealed: true })
        : null,
    );
    renderWithProviders(<PartyLootTab partyId="party-1" isGm />);
    await user.click(await screen.findByRole('button', { name: 'Reveal Goblin Boss Hoard' }));
    await waitFor(() =>
      expect(lastToast()).toMatchObject({ kind: 'success', message: 'Loot revealed to party' }),
    );
    expect(
      fetchMock.mock.calls.some(
        ([url, init]) => init?.method === 'POST' && String(url).endsWith('/loot_instances/loot-1/reveal'),
      ),
    ).toBe(true);
  });

  it('hides a revealed loot with PATCH is_revealed false, and shows the server’s refusal', async () => {
    const user = userEvent.setup();
    let refuse = false;
    const undistributed = { ...revealedChest, distributed_at: null, distribution_mode: null };
    const fetchMock = mockLoot([undistributed], (pathname, method) => {
      if (method !== 'PATCH' || pathname !== '/api/v1/loot_instances/loot-2') return null;
      return refuse
        ? failure(403, 'FORBIDDEN', 'This party is archived: its loot is read-only.')
        : success({ ...undistributed, is_revealed: false });
    });
    renderWithProviders(<PartyLootTab partyId="party-1" isGm />);
    expect(await screen.findByRole('button', { name: 'Hide Dusty Chest' })).toHaveAttribute(
      'title',
      'Hide from players',
    );
    await user.click(await screen.findByRole('button', { name: 'Hide Dusty Chest' }));
    await waitFor(() =>
      expect(lastToast()).toMatchObject({ kind: 'success', message: 'Loot hidden from party' }),
    );
    const patch = fetchMock.mock.calls.find(([, init]) => init?.method === 'PATCH');
    expect(JSON.parse(String(patch?.[1]?.body))).toEqual({ loot_instance: { is_revealed: false } });

    refuse = true;
    await user.click(await screen.findByRole('button', { name: 'Hide Dusty Chest' }));
    await waitFor(() =>
      expect(lastToast()).toMatchObject({
        kind: 'error',
        message: 'This party is archived: its loot is read-only.',
      }),
    );
  });

  it('offers Hide disabled, saying why, once someone has had something from the loot', async () => {
    const takenFrom = {
      ...revealedChest,
      distributed_at: null,
      distribution_mode: null,
      claimed_by: [{ id: 'ch-pip', name: 'Pip' }],
    };
    const fetchMock = mockLoot([takenFrom]);
    renderWithProviders(<PartyLootTab partyId="party-1" isGm />);
    const hide = await screen.findByRole('button', { name: 'Hide Dusty Chest' });
    expect(hide).toBeDisabled();
    expect(hide).toHaveAccessibleDescription(
      'Items have already been taken from this loot, so it cannot be hidden: the party keeps the record of who got what.',
    );
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'PATCH')).toBe(false);
    // Reveal and Delete are as they were.
    expect(within(cardOf('Dusty Chest')).getByRole('button', { name: 'Delete Dusty Chest' })).toBeEnabled();
  });

  it('shows the server’s refusal when someone took from the loot after the list was read', async () => {
    const user = userEvent.setup();
    const stale = { ...revealedChest, distributed_at: null, distribution_mode: null };
    mockLoot([stale], (pathname, method) =>
      method === 'PATCH' && pathname === '/api/v1/loot_instances/loot-2'
        ? failure(409, 'CONFLICT', lootMessages.takenCannotHide)
        : null,
    );
    renderWithProviders(<PartyLootTab partyId="party-1" isGm />);
    await user.click(await screen.findByRole('button', { name: 'Hide Dusty Chest' }));
    await waitFor(() =>
      expect(lastToast()).toMatchObject({
        kind: 'error',
        message:
          'Items have already been taken from this loot, so it cannot be hidden: the party keeps the record of who got what.',
      }),
    );
  });

  it('falls back to "Failed to reveal loot" when the failure carries no message of the server', async () => {
    const user = userEvent.setup();
    mockLoot([hiddenHoard], (pathname, method) =>
      method === 'POST' && pathname.endsWith('/reveal') ? new Response('oops', { status: 502 }) : null,
    );
    renderWithProviders(<PartyLootTab partyId="party-1" isGm />);
    await user.click(await screen.findByRole('button', { name: 'Reveal Goblin Boss Hoard' }));
    await waitFor(() =>
      expect(lastToast()).toMatchObject({ kind: 'error', message: lootMessages.revealFailed }),
    );
  });

  it('asks before deleting, then deletes and says so', async () => {
    const user = userEvent.setup();
    let deleted = false;
    const fetchMock = mockLoot([hiddenHoard], (pathname, method) => {
      if (method === 'DELETE' && pathname === '/api/v1/loot_instances/loot-1') {
        deleted = true;
        return new Response(null, { status: 204 });
      }
      if (deleted && method === 'GET') return list([]);
      return null;
    });
    renderWithProviders(<PartyLootTab partyId="party-1" isGm />);
    await user.click(await screen.findByRole('button', { name: 'Delete Goblin Boss Hoard' }));
    const dialog = await screen.findByRole('dialog');
    expect(
      within(dialog).getByText('Are you sure you want to delete this loot instance? This cannot be undone.'),
    ).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'DELETE')).toBe(false);
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() =>
      expect(lastToast()).toMatchObject({ kind: 'success', message: 'Loot instance deleted' }),
    );
    expect(await screen.findByText(lootMessages.noPartyLoot)).toBeInTheDocument();
  });

  it('keeps the keyboard on the next loot once one is deleted, then on the heading', async () => {
    const user = userEvent.setup();
    let instances = [hiddenHoard, revealedChest];
    mockLoot([], (pathname, method) => {
      const deleted = pathname.match(/^\/api\/v1\/loot_instances\/(loot-\d)$/);
      if (method === 'DELETE' && deleted) {
        instances = instances.filter((loot) => loot.id !== deleted[1]);
        return new Response(null, { status: 204 });
      }
      if (method === 'GET' && pathname === '/api/v1/parties/party-1/loot_instances') return list(instances);
      return null;
    });
    renderWithProviders(<PartyLootTab partyId="party-1" isGm />);
    const deleteIn = async (name: string) => {
      await user.click(await within(cardOf(name)).findByRole('button', { name: `Delete ${name}` }));
      const dialog = await screen.findByRole('dialog');
      await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    };
    await screen.findByRole('heading', { name: 'Dusty Chest' });
    await deleteIn('Goblin Boss Hoard');
    await waitFor(() => expect(screen.getAllByTestId('loot-card')).toHaveLength(1));
    await waitFor(() =>
      expect(
        within(cardOf('Dusty Chest')).getByRole('link', {
          name: `${lootMessages.viewContents}: Dusty Chest`,
        }),
      ).toHaveFocus(),
    );
    await deleteIn('Dusty Chest');
    await screen.findByText(lootMessages.noPartyLoot);
    await waitFor(() =>
      expect(screen.getByRole('heading', { level: 2, name: lootMessages.partyLootHeading })).toHaveFocus(),
    );
  });

  it('offers the GM "Deploy Loot Template" on an empty tab, and players only the sentence', async () => {
    mockLoot([]);
    const { unmount } = renderWithProviders(<PartyLootTab partyId="party-1" isGm />);
    const empty = await screen.findByTestId('empty-state');
    expect(within(empty).getByText('No loot instances in this party yet')).toBeInTheDocument();
    expect(within(empty).getByRole('link', { name: 'Deploy Loot Template' })).toHaveAttribute(
      'href',
      '/loot/templates?party_id=party-1',
    );
    unmount();

    renderWithProviders(<PartyLootTab partyId="party-1" isGm={false} />);
    const playerView = await screen.findByTestId('empty-state');
    expect(within(playerView).getByText('No loot instances in this party yet')).toBeInTheDocument();
    expect(within(playerView).queryByRole('link', { name: 'Deploy Loot Template' })).not.toBeInTheDocument();
  });

  it('shows an error with Try Again that loads the loot again', async () => {
    const user = userEvent.setup();
    let fail = true;
    mockFetch(() => (fail ? failure(403, 'FORBIDDEN', 'Access forbidden') : list([revealedChest])));
    renderWithProviders(<PartyLootTab partyId="party-1" isGm />);
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Unable to Load Loot')).toBeInTheDocument();
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Try Again' }));
    expect(await screen.findByRole('heading', { name: 'Dusty Chest' })).toBeInTheDocument();
  });

  it('pages through 200 loots 12 at a time, counts them, and searches and filters them on the server', async () => {
    const user = userEvent.setup();
    const asked: URLSearchParams[] = [];
    mockFetch(({ url }) => {
      const { pathname, searchParams } = new URL(url, 'http://test');
      if (pathname !== '/api/v1/parties/party-1/loot_instances')
        return failure(404, 'RESOURCE_NOT_FOUND', url);
      asked.push(searchParams);
      const page = Number(searchParams.get('page'));
      const perPage = Number(searchParams.get('per_page'));
      const filtered = searchParams.has('search') || searchParams.has('is_revealed');
      const total = filtered ? 3 : 200;
      const shown = Math.min(perPage, total - (page - 1) * perPage);
      const hoards = Array.from({ length: shown }, (_, index) =>
        buildLootInstance({ id: `loot-${page}-${index}`, name: `Hoard ${page}-${index}` }),
      );
      return jsonResponse(200, { status: 'success', data: hoards, meta: pageMeta(total, perPage, page) });
    });
    renderWithProviders(<PartyLootTab partyId="party-1" isGm />);
    await waitFor(() => cardOf('Hoard 1-0'));
    expect(asked[0]?.get('per_page')).toBe('12');
    expect(screen.getAllByTestId('loot-card')).toHaveLength(12);
    expect(screen.getByTestId('party-loot-count')).toHaveTextContent('Showing 1–12 of 200');
    await user.click(screen.getByRole('button', { name: 'Page 17' }));
    await waitFor(() => cardOf('Hoard 17-0'));
    expect(screen.getAllByTestId('loot-card')).toHaveLength(8);
    expect(screen.getByTestId('party-loot-count')).toHaveTextContent('Showing 193–200 of 200');

    await user.type(screen.getByRole('textbox', { name: 'Search loot' }), 'crypt');
    await waitFor(() => expect(asked.at(-1)?.get('search')).toBe('crypt'));
    expect(asked.at(-1)?.get('page')).toBe('1');
    await waitFor(() => expect(screen.getByTestId('party-loot-count')).toHaveTextContent('Showing 1–3 of 3'));
    await user.click(screen.getByRole('combobox', { name: 'Status' }));
    await user.click(await screen.findByRole('option', { name: 'Hidden' }));
    await waitFor(() => expect(asked.at(-1)?.get('is_revealed')).toBe('false'));
    expect(asked.at(-1)?.get('search')).toBe('crypt');
  });

  it('goes back to the last page left when the one shown was emptied meanwhile', async () => {
    // Page 1 counted 13 loots; by the time page 2 is asked for, its only loot was deleted elsewhere.
    const firstPage = Array.from({ length: 12 }, (_, i) =>
      buildLootInstance({ id: `l${i}`, name: `Loot ${i}` }),
    );
    const fetchMock = mockFetch(({ url }) => {
      const page = Number(new URL(url, 'http://test').searchParams.get('page') ?? '1');
      return jsonResponse(200, {
        status: 'success',
        data: page === 1 ? firstPage : [],
        meta: page === 1 ? pageMeta(13, 12) : pageMeta(12, 12, page),
      });
    });
    renderWithProviders(<PartyLootTab partyId="party-1" isGm />);
    await userEvent.click(await screen.findByRole('button', { name: 'Page 2' }));
    await waitFor(() =>
      expect(fetchMock.mock.calls.some(([url]) => String(url).includes('page=2'))).toBe(true),
    );
    await waitFor(() => expect(cardOf('Loot 0')).toBeDefined());
    expect(screen.queryByTestId('empty-state')).not.toBeInTheDocument();
  });

  it('says when no loot matches the search, rather than that the party has none', async () => {
    const user = userEvent.setup();
    mockFetch(({ url }) => {
      const { searchParams } = new URL(url, 'http://test');
      const hoards = searchParams.has('search') ? [] : [revealedChest];
      return jsonResponse(200, { status: 'success', data: hoards, meta: pageMeta(hoards.length, 12) });
    });
    renderWithProviders(<PartyLootTab partyId="party-1" isGm={false} />);
    await waitFor(() => cardOf('Dusty Chest'));
    // Players see revealed loot only: no Hidden to filter by.
    expect(screen.queryByRole('combobox', { name: 'Status' })).not.toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: 'Search loot' }), 'dragon');
    expect(await screen.findByText('No loot matches your search')).toBeInTheDocument();
    expect(screen.queryByText('No loot instances in this party yet')).not.toBeInTheDocument();
  });
});
