import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MainLayout } from '../../../app/layouts/main-layout';
import { failure, jsonResponse, mockFetch, success } from '../../../test/fixtures';
import { buildCharacter, buildParty, pageMeta } from '../../../test/party-fixtures';
import { renderRoutes } from '../../../test/render';
import { restoreViewportAfterEach, setViewport } from '../../../test/viewport';
import { buildCharacterWealth } from '../../characters/test/wealth-fixtures';
import { inventoryKeys, noItemFilters } from '../api/inventory-api';
import { buildContainer, buildItem, buildPartyStash } from '../test/inventory-fixtures';
import { ContainerPage } from './container-page';

restoreViewportAfterEach();
afterEach(() => vi.unstubAllGlobals());

const aria = buildCharacter({ id: 'ch-aria', name: 'Aria', party_id: null, primary_container_id: 'c-pack' });
const backpack = buildContainer({
  id: 'c-pack',
  name: 'Backpack',
  owner: { type: 'character', id: 'ch-aria', name: 'Aria' },
  character_id: 'ch-aria',
});
const rope = buildItem({ id: 'item-rope', name: 'Rope', quantity: 1, container_id: 'c-pack' });

/**
 * Aria's backpack holding a rope, while the server is up; once it is down, every request is refused, and
 * once the backpack is deleted it is not found.
 */
function mockServer() {
  const server = { up: true, backpackDeleted: false };
  mockFetch(({ url, init }) => {
    // What fetch does when nothing listens on the server's port.
    if (!server.up) throw new TypeError('Failed to fetch');
    const { pathname } = new URL(url, 'http://test');
    const method = init.method ?? 'GET';
    if (server.backpackDeleted && pathname.startsWith('/api/v1/containers/c-pack'))
      return failure(404, 'RESOURCE_NOT_FOUND', 'The requested item could not be found.');
    if (method === 'GET' && pathname === '/api/v1/containers/c-pack') return success(backpack);
    if (pathname === '/api/v1/containers/c-pack/items')
      return jsonResponse(200, { status: 'success', data: [rope], meta: pageMeta(1, 20) });
    if (pathname === '/api/v1/characters/ch-aria') return success(aria);
    if (pathname === '/api/v1/characters/ch-aria/containers') return success([backpack]);
    if (pathname === '/api/v1/characters')
      return jsonResponse(200, { status: 'success', data: [aria], meta: pageMeta(1, 100) });
    return failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${method} ${pathname}`);
  });
  return server;
}

describe('ContainerPage', { timeout: 20_000 }, () => {
  it('keeps the inventory on screen when a refetch fails because the server went away', async () => {
    const server = mockServer();
    const { queryClient } = renderRoutes(
      [{ path: '/containers/:id', element: <ContainerPage /> }],
      '/containers/c-pack',
    );
    expect(await screen.findByText('Rope')).toBeInTheDocument();

    server.up = false;
    // What a transfer does once it has failed: refresh the containers it touched (their items with them).
    await queryClient.invalidateQueries({ queryKey: inventoryKeys.container('c-pack') });
    expect(queryClient.getQueryState(inventoryKeys.container('c-pack'))?.status).toBe('error');
    expect(queryClient.getQueryState(inventoryKeys.items('c-pack', noItemFilters))?.status).toBe('error');

    await waitFor(() => expect(screen.getByText('Rope')).toBeInTheDocument());
    expect(screen.queryByText('Failed to load inventory')).not.toBeInTheDocument();
    expect(screen.queryByText('Error loading container')).not.toBeInTheDocument();
    expect(screen.queryByText('Error loading items')).not.toBeInTheDocument();
  });

  it('says the container is not found once it was deleted meanwhile, rather than keeping it on screen', async () => {
    const server = mockServer();
    const { queryClient } = renderRoutes(
      [{ path: '/containers/:id', element: <ContainerPage /> }],
      '/containers/c-pack',
    );
    expect(await screen.findByText('Rope')).toBeInTheDocument();

    server.backpackDeleted = true;
    await queryClient.invalidateQueries({ queryKey: inventoryKeys.container('c-pack') });
    expect(await screen.findByRole('heading', { level: 1, name: 'Container Not Found' })).toBeInTheDocument();
  });

  it("marks Parties in the sidebar for a party's stash, and Characters for a character's container", async () => {
    const stash = buildPartyStash({ id: 'party-1', name: 'Night Watch' });
    mockFetch(({ url }) => {
      const { pathname } = new URL(url, 'http://test');
      if (pathname === '/api/v1/containers/c-pack') return success(backpack);
      if (pathname === `/api/v1/containers/${stash.id}`) return success(stash);
      if (pathname.endsWith('/items'))
        return jsonResponse(200, { status: 'success', data: [], meta: pageMeta(1, 20) });
      if (pathname === '/api/v1/characters/ch-aria') return success(aria);
      if (pathname === '/api/v1/characters/ch-aria/containers') return success([backpack]);
      if (pathname === '/api/v1/parties/party-1/containers') return success([stash]);
      if (pathname === '/api/v1/characters')
        return jsonResponse(200, { status: 'success', data: [aria], meta: pageMeta(1, 100) });
      return failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${pathname}`);
    });
    const { router } = renderRoutes(
      [
        {
          path: '/',
          element: <MainLayout />,
          children: [{ path: 'containers/:id', element: <ContainerPage /> }],
        },
      ],
      `/containers/${stash.id}`,
    );
    const current = () => screen.getAllByRole('link', { current: 'page' }).map((link) => link.textContent);
    // The stash belongs to the party: the way back to it is Parties.
    await waitFor(() => expect(current()).toEqual(['Parties']));
    await router.navigate('/containers/c-pack');
    await waitFor(() => expect(current()).toEqual(['Characters']));
  });

  it('names the panel after what it shows, as a region', async () => {
    mockServer();
    renderRoutes([{ path: '/containers/:id', element: <ContainerPage /> }], '/containers/c-pack');
    expect(await screen.findByText('Rope')).toBeInTheDocument();
    const panel = screen.getByTestId('panel-left');
    expect(panel.tagName).toBe('SECTION');
    expect(screen.getByRole('region', { name: 'Backpack (Aria)' })).toBe(panel);
  });

  it('shows the error, with Try Again, when the inventory never loaded', async () => {
    const server = mockServer();
    server.up = false;
    renderRoutes([{ path: '/containers/:id', element: <ContainerPage /> }], '/containers/c-pack');
    expect(await screen.findByText('Failed to load inventory', {}, { timeout: 5_000 })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try Again' })).toBeInTheDocument();
  });

  describe("a GM's destinations (DESIGN §4 Who may act: the GM acts on every container of the party)", () => {
    const party = buildParty({ id: 'party-1', name: 'Night Watch' });
    const stash = buildPartyStash(party, { id: 'c-stash' });
    const ariaInParty = { ...aria, party_id: party.id, party_name: party.name };
    const brom = buildCharacter({
      id: 'ch-brom',
      name: 'Brom',
      party_id: party.id,
      primary_container_id: 'c-bag',
    });
    const saddlebag = buildContainer({
      id: 'c-bag',
      name: 'Saddlebag',
      owner: { type: 'character', id: brom.id, name: 'Brom' },
      character_id: brom.id,
    });
    const manacles = buildItem({
      id: 'item-manacles',
      name: 'Manacles',
      quantity: 1,
      container_id: stash.id,
    });
    const ariasRope = { ...rope };

    /** The party with Aria and Brom; `mine` are the user's characters, `isGm` whether the user is its GM. */
    function partyServer({ isGm, mine }: { isGm: boolean; mine: string[] }) {
      const characters = [ariaInParty, brom].map((c) => ({ ...c, is_owner: mine.includes(c.id) }));
      mockFetch(({ url }) => {
        const { pathname, searchParams } = new URL(url, 'http://test');
        const path = pathname.replace('/api/v1', '');
        if (path === '/characters') {
          const list = searchParams.has('party_id') ? characters : characters.filter((c) => c.is_owner);
          return jsonResponse(200, { status: 'success', data: list, meta: pageMeta(list.length, 100) });
        }
        if (path === `/parties/${party.id}`)
          return success({ ...party, is_gm: isGm, user_role: isGm ? 'gm' : 'player' });
        if (path === `/parties/${party.id}/containers`) return success([stash]);
        if (path === '/characters/ch-aria') return success(characters[0]);
        if (path === '/characters/ch-brom') return success(characters[1]);
        if (path === '/characters/ch-aria/containers') return success([backpack]);
        if (path === '/characters/ch-brom/containers') return success([saddlebag]);
        for (const [container, items] of [
          [stash, [manacles]],
          [backpack, [ariasRope]],
          [saddlebag, []],
        ] as const) {
          if (path === `/containers/${container.id}`) return success(container);
          if (path === `/containers/${container.id}/items`)
            return jsonResponse(200, { status: 'success', data: items, meta: pageMeta(items.length, 20) });
        }
        if (path === `/item_instances/${manacles.id}`) return success(manacles);
        if (path === `/item_instances/${rope.id}`) return success(ariasRope);
        if (path === '/subscription/check_feature') return success({ allowed: true, feature: 'x' });
        return failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${path}`);
      });
    }

    /** Opens the item's Move form and lists the destinations it offers. */
    async function destinationsOf(itemName: string) {
      const user = userEvent.setup();
      await user.click(await screen.findByRole('button', { name: `${itemName}, quantity 1` }));
      const dialog = await screen.findByRole('dialog', { name: itemName });
      await user.click(within(dialog).getByRole('button', { name: 'Transfer' }));
      await user.click(await within(dialog).findByRole('combobox', { name: 'Destination' }));
      const options = await screen.findAllByRole('option');
      return options.map((option) => (option.textContent ?? '').split(' · ')[0]);
    }

    it("offers a GM without a character every player's containers from the stash", async () => {
      setViewport(375, 812);
      partyServer({ isGm: true, mine: [] });
      renderRoutes([{ path: '/containers/:id', element: <ContainerPage /> }], `/containers/${stash.id}`);
      expect(await destinationsOf('Manacles')).toEqual(['Backpack (Aria)', 'Saddlebag (Brom)']);
      expect(screen.queryByTestId('move-nowhere')).not.toBeInTheDocument();
    });

    it('asks for the containers of every character of a GM’s party in one request, not one each', async () => {
      setViewport(375, 812);
      const many = Array.from({ length: 30 }, (_, i) =>
        buildCharacter({ id: `ch-${i}`, name: `Hero ${i}`, party_id: party.id, is_owner: false }),
      );
      const bags = many.map((c) =>
        buildContainer({
          id: `c-${c.id}`,
          name: 'Bag',
          owner: { type: 'character', id: c.id, name: c.name },
        }),
      );
      const fetchMock = mockFetch(({ url }) => {
        const { pathname, searchParams } = new URL(url, 'http://test');
        const path = pathname.replace('/api/v1', '');
        if (path === '/characters') {
          const list = searchParams.has('party_id') ? many : [];
          return jsonResponse(200, { status: 'success', data: list, meta: pageMeta(list.length, 100) });
        }
        if (path === `/parties/${party.id}`) return success({ ...party, is_gm: true, user_role: 'gm' });
        if (path === `/parties/${party.id}/containers`) return success([stash]);
        const owner = /^\/characters\/(ch-\d+)\/containers$/.exec(path);
        if (owner) return success(bags.filter((bag) => bag.owner.id === owner[1]));
        if (path === `/containers/${stash.id}`) return success(stash);
        if (path === `/containers/${stash.id}/items`)
          return jsonResponse(200, { status: 'success', data: [manacles], meta: pageMeta(1, 20) });
        if (path === `/item_instances/${manacles.id}`) return success(manacles);
        if (path === '/subscription/check_feature') return success({ allowed: true, feature: 'x' });
        return failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${path}`);
      });
      renderRoutes([{ path: '/containers/:id', element: <ContainerPage /> }], `/containers/${stash.id}`);
      expect(await destinationsOf('Manacles')).toHaveLength(30);
      const ownerLists = fetchMock.mock.calls
        .map(([url]) => new URL(String(url), 'http://test').pathname)
        .filter((path) => /\/(characters|parties)\/[^/]+\/containers$|\/containers\/by_owner$/.test(path));
      expect(ownerLists).toEqual(['/api/v1/containers/by_owner']);
    });

    it.each([
      ['the GM', true, [], ['Party Stash (Night Watch)', 'Saddlebag (Brom)']],
      ['a player', false, ['ch-aria'], ['Party Stash (Night Watch)']],
    ])(
      "offers %s in a player's backpack the containers they may act on",
      async (_who, isGm, mine, expected) => {
        setViewport(375, 812);
        partyServer({ isGm, mine });
        renderRoutes([{ path: '/containers/:id', element: <ContainerPage /> }], '/containers/c-pack');
        expect(await destinationsOf('Rope')).toEqual(expected);
      },
    );
  });
});

describe('ContainerPage load', { timeout: 20_000 }, () => {
  it('colours the main container’s weight bar as the strip’s encumbrance says, not green at 36 %', async () => {
    // Review: "Load 17.8 / 50 lbs" and "Encumbered" in the strip, above a green bar at 36 %: the backpack
    // carries Aria's own capacity (her max weight), so its bar is her load.
    const carrying = {
      ...backpack,
      capacity: { ...backpack.capacity, used: 17.8, max: 50 },
    };
    mockFetch(({ url }) => {
      const { pathname } = new URL(url, 'http://test');
      if (pathname === '/api/v1/containers/c-pack') return success(carrying);
      if (pathname === '/api/v1/containers/c-pack/items')
        return jsonResponse(200, { status: 'success', data: [rope], meta: pageMeta(1, 20) });
      if (pathname === '/api/v1/characters/ch-aria/wealth')
        return success(
          buildCharacterWealth({
            character_id: 'ch-aria',
            carried_weight: 17.8,
            max_weight: 50,
            encumbrance: 'encumbered',
          }),
        );
      if (pathname === '/api/v1/characters/ch-aria') return success(aria);
      if (pathname === '/api/v1/characters/ch-aria/containers') return success([carrying]);
      if (pathname === '/api/v1/characters')
        return jsonResponse(200, { status: 'success', data: [aria], meta: pageMeta(1, 100) });
      return failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${pathname}`);
    });
    renderRoutes([{ path: '/containers/:id', element: <ContainerPage /> }], '/containers/c-pack');
    expect(await screen.findByTestId('encumbrance-badge')).toHaveTextContent('Encumbered');
    const weight = within(screen.getByTestId('panel-left')).getByRole('progressbar', { name: 'Weight used' });
    await waitFor(() =>
      expect(weight.style.getPropertyValue('--progress-section-color')).toContain('yellow'),
    );
    // The slots stay the container's own.
    const slots = within(screen.getByTestId('panel-left')).getByRole('progressbar', { name: 'Slots used' });
    expect(slots.style.getPropertyValue('--progress-section-color')).toContain('teal');
  });
});
