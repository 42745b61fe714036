import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useUiStore } from '../../../stores/ui-store';
import { failure, jsonResponse, mockFetch, success } from '../../../test/fixtures';
import { pageMeta } from '../../../test/party-fixtures';
import { renderRoutes } from '../../../test/render';
import { restoreViewportAfterEach, setViewport } from '../../../test/viewport';
import { buildContainer } from '../test/inventory-fixtures';
import { InventoryWorkspace } from './inventory-workspace';

const backpack = buildContainer({ id: 'c-pack', name: 'Backpack' });
const chest = buildContainer({ id: 'c-chest', name: 'Temp chest', is_primary: false });

function server() {
  return mockFetch(({ url, init }) => {
    const { pathname } = new URL(url, 'http://test');
    if (pathname === '/api/v1/characters/ch-1/containers' && init.method === 'POST')
      return jsonResponse(201, { status: 'success', data: chest });
    if (pathname.endsWith('/items'))
      return jsonResponse(200, { status: 'success', data: [], meta: pageMeta(1, 20) });
    if (pathname === `/api/v1/containers/${backpack.id}`) return success(backpack);
    if (pathname === `/api/v1/containers/${chest.id}`) return success(chest);
    return failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${pathname}`);
  });
}

const routes = [
  {
    path: '/containers/:id',
    element: (
      <InventoryWorkspace
        owner="Aria"
        containers={[backpack, chest]}
        initialLeft={{ tab: 'container', containerId: backpack.id }}
        initialRight={{ tab: 'container', containerId: backpack.id }}
        inParty={false}
        partyId={null}
        createOwner={{ type: 'character', id: 'ch-1' }}
      />
    ),
  },
];

/** Where the focus is the moment the dialog leaves the page (before any timer could move it back). */
function focusAsTheDialogGoes(dialog: HTMLElement): Promise<Element | null> {
  return new Promise((resolve) => {
    const observer = new MutationObserver(() => {
      if (dialog.isConnected) return;
      observer.disconnect();
      resolve(document.activeElement);
    });
    observer.observe(document.body, { childList: true, subtree: true });
  });
}

describe('InventoryWorkspace: the focus as the New Container dialog closes', { timeout: 20_000 }, () => {
  restoreViewportAfterEach();
  beforeEach(() => {
    setViewport(1280, 900);
    useUiStore.setState({ toasts: [] });
  });
  afterEach(() => {
    useUiStore.setState({ toasts: [] });
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('goes straight back to New Container once the container is made, never to the page', async () => {
    server();
    const user = userEvent.setup();
    renderRoutes(routes, `/containers/${backpack.id}`);
    const newContainer = await screen.findByRole('button', { name: 'New Container' });
    await user.click(newContainer);
    const dialog = await screen.findByRole('dialog', { name: 'Create New Container' });
    const name = within(dialog).getByRole('textbox', { name: /Container Name/ });
    await waitFor(() => expect(name).toHaveFocus());
    const gone = focusAsTheDialogGoes(dialog);
    await user.type(name, 'Temp chest{Enter}');
    expect(await gone).toBe(screen.getByRole('button', { name: 'New Container' }));
    expect(screen.getByRole('button', { name: 'New Container' })).toHaveFocus();
  });

  it('goes straight back to New Container on Cancel too', async () => {
    server();
    const user = userEvent.setup();
    renderRoutes(routes, `/containers/${backpack.id}`);
    await user.click(await screen.findByRole('button', { name: 'New Container' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create New Container' });
    await waitFor(() =>
      expect(within(dialog).getByRole('textbox', { name: /Container Name/ })).toHaveFocus(),
    );
    const gone = focusAsTheDialogGoes(dialog);
    await user.keyboard('{Escape}');
    expect(await gone).toBe(screen.getByRole('button', { name: 'New Container' }));
  });
});
