import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useUiStore } from '../../../stores/ui-store';
import { failure, jsonResponse, mockFetch, success } from '../../../test/fixtures';
import { pageMeta } from '../../../test/party-fixtures';
import { renderRoutes } from '../../../test/render';
import { restoreViewportAfterEach, setViewport } from '../../../test/viewport';
import { buildContainer, buildItem } from '../test/inventory-fixtures';
import { InventoryWorkspace } from './inventory-workspace';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const backpack = buildContainer({ id: 'c-pack', name: 'Backpack' });
const pouch = buildContainer({ id: 'c-pouch', name: 'Belt Pouch', is_primary: false });
const longsword = buildItem({ id: 'i-sword', name: 'Longsword', quantity: 1, container_id: backpack.id });
const ruby = buildItem({ id: 'i-ruby', name: 'Ruby', quantity: 3, container_id: pouch.id });

function server() {
  return mockFetch(({ url }) => {
    const { pathname } = new URL(url, 'http://test');
    if (pathname === `/api/v1/containers/${backpack.id}/items`)
      return jsonResponse(200, { status: 'success', data: [longsword], meta: pageMeta(1, 20) });
    if (pathname === `/api/v1/containers/${pouch.id}/items`)
      return jsonResponse(200, { status: 'success', data: [ruby], meta: pageMeta(1, 20) });
    if (pathname === `/api/v1/containers/${backpack.id}`) return success(backpack);
    if (pathname === `/api/v1/containers/${pouch.id}`) return success(pouch);
    return failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${pathname}`);
  });
}

const routes = [
  {
    path: '/containers/:id',
    element: (
      <InventoryWorkspace
        owner="Aria"
        containers={[backpack, pouch]}
        initialLeft={{ tab: 'container', containerId: backpack.id }}
        initialRight={{ tab: 'container', containerId: pouch.id }}
        inParty={false}
        partyId={null}
        createOwner={null}
      />
    ),
  },
];

describe('InventoryWorkspace keeps its sources in the address', { timeout: 20_000 }, () => {
  restoreViewportAfterEach();
  beforeEach(() => {
    setViewport(375, 812);
    useUiStore.setState({ toasts: [] });
  });

  it('writes the chosen source into the address, and a reload opens it again', async () => {
    server();
    const user = userEvent.setup();
    const { router, unmount } = renderRoutes(routes, `/containers/${backpack.id}`);
    await screen.findByRole('button', { name: 'Longsword, quantity 1' });
    // What the page opens on by itself stays out of the address.
    expect(router.state.location.search).toBe('');

    await user.click(screen.getByRole('combobox', { name: 'Source' }));
    await user.click(await screen.findByRole('option', { name: /Belt Pouch/ }));
    await screen.findByRole('button', { name: 'Ruby, quantity 3' });
    expect(router.state.location.search).toBe(`?left=container.${pouch.id}`);
    // Replaced, not pushed: Back leaves the page rather than stepping through sources.
    expect(router.state.historyAction).toBe('REPLACE');

    const reloadedAt = `${router.state.location.pathname}${router.state.location.search}`;
    unmount();
    renderRoutes(routes, reloadedAt);
    expect(await screen.findByRole('button', { name: 'Ruby, quantity 3' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Longsword, quantity 1' })).not.toBeInTheDocument();
  });

  it('opens the page’s own choice when the address names a container it does not offer', async () => {
    server();
    const { router } = renderRoutes(routes, `/containers/${backpack.id}?left=container.c-gone&view=sideways`);
    expect(await screen.findByRole('button', { name: 'Longsword, quantity 1' })).toBeInTheDocument();
    // The unusable choices are dropped from the address too.
    expect(router.state.location.search).toBe('');
  });
});

describe('InventoryWorkspace tabs', { timeout: 20_000 }, () => {
  restoreViewportAfterEach();
  beforeEach(() => {
    setViewport(1280, 800);
    useUiStore.setState({ toasts: [] });
  });
  afterEach(() => useUiStore.setState({ toasts: [] }));

  it('selects the first and the last tab with Home and End, as the arrow keys select as they move', async () => {
    server();
    const user = userEvent.setup();
    renderRoutes(routes, `/containers/${backpack.id}`);
    await screen.findByRole('button', { name: 'Longsword, quantity 1' });
    const [first, second] = screen.getAllByRole('tab');
    if (!first || !second) throw new Error('no tabs');
    first.focus();
    await user.keyboard('{ArrowRight}');
    expect(second).toHaveAttribute('aria-selected', 'true');
    await user.keyboard('{End}');
    const last = screen.getAllByRole('tab').at(-1);
    expect(document.activeElement).toBe(last);
    expect(last).toHaveAttribute('aria-selected', 'true');
    await user.keyboard('{Home}');
    expect(document.activeElement).toBe(first);
    expect(first).toHaveAttribute('aria-selected', 'true');
    expect(await screen.findByRole('button', { name: 'Longsword, quantity 1' })).toBeInTheDocument();
  });
});
