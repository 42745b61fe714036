import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MainLayout } from '../../../app/layouts/main-layout';
import { failure, jsonResponse, mockFetch, success } from '../../../test/fixtures';
import { buildCharacter, pageMeta } from '../../../test/party-fixtures';
import { renderRoutes } from '../../../test/render';
import { inventoryKeys, noItemFilters } from '../api/inventory-api';
import { buildContainer, buildItem, buildPartyStash } from '../test/inventory-fixtures';
import { ContainerPage } from './container-page';

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
});
