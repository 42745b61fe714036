import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useUiStore } from '../../../stores/ui-store';
import { failure, jsonResponse, mockFetch, success } from '../../../test/fixtures';
import { pageMeta } from '../../../test/party-fixtures';
import { restoreViewportAfterEach, setViewport } from '../../../test/viewport';
import { buildContainer, buildItem, buildPartyStash, renderWithProviders } from '../test/inventory-fixtures';
import { InventoryWorkspace } from './inventory-workspace';
import { nowhereFromStash } from './move-item-form';
import { queuedDestinationPlaceholder } from './transfer-queue-bar';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const backpack = buildContainer({ id: 'c-pack', name: 'Backpack' });
const pouch = buildContainer({ id: 'c-pouch', name: 'Belt Pouch', is_primary: false });
const longsword = buildItem({ id: 'i-sword', name: 'Longsword', quantity: 1, container_id: backpack.id });
const daggers = buildItem({ id: 'i-dagger', name: 'Dagger', quantity: 2, container_id: backpack.id });

/** The backpack's two stacks, an empty pouch, and the moves, at the network boundary. */
function server() {
  return mockFetch(({ url, init }) => {
    const { pathname } = new URL(url, 'http://test');
    if (pathname === `/api/v1/containers/${backpack.id}`) return success(backpack);
    if (pathname === `/api/v1/containers/${pouch.id}`) return success(pouch);
    if (pathname === `/api/v1/item_instances/${daggers.id}`) return success(daggers);
    if (pathname === `/api/v1/containers/${backpack.id}/items`)
      return jsonResponse(200, { status: 'success', data: [longsword, daggers], meta: pageMeta(1, 20) });
    if (pathname === `/api/v1/containers/${pouch.id}/items`)
      return jsonResponse(200, { status: 'success', data: [], meta: pageMeta(1, 20) });
    if (init.method === 'POST' && pathname === '/api/v1/containers/transfer') {
      const body = JSON.parse(String(init.body));
      return success({
        success: true,
        message: 'Item transferred successfully',
        moved: body.quantity,
        source_instance: null,
        target_instances: [],
        transaction_ids: [`entry-${body.item_instance_id}`],
      });
    }
    return failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${pathname}`);
  });
}

const transfers = (fetchMock: ReturnType<typeof mockFetch>) =>
  fetchMock.mock.calls
    .filter(([url, init]) => init?.method === 'POST' && String(url).endsWith('/containers/transfer'))
    .map(([, init]) => JSON.parse(String(init?.body)));

function renderWorkspace() {
  return renderWithProviders(
    <InventoryWorkspace
      owner="Aria"
      containers={[backpack, pouch]}
      initialLeft={{ tab: 'container', containerId: backpack.id }}
      initialRight={{ tab: 'container', containerId: pouch.id }}
      inParty={false}
      partyId={null}
      createOwner={null}
    />,
  );
}

describe('InventoryWorkspace transfer queue on a desktop', { timeout: 20_000 }, () => {
  // happy-dom's viewport, never an assigned `innerWidth` (it would stay on the worker's shared window).
  restoreViewportAfterEach();
  beforeEach(() => {
    setViewport(1280, 800);
    useUiStore.setState({ toasts: [] });
  });

  it('shows no queue until Ctrl+click or Q puts items in it, then moves each to the destination', async () => {
    const fetchMock = server();
    renderWorkspace();
    const user = userEvent.setup();
    const sword = await screen.findByRole('button', { name: 'Longsword, quantity 1' });
    expect(screen.queryByTestId('transfer-queue')).not.toBeInTheDocument();

    // Ctrl+click queues rather than opens the item.
    await user.keyboard('{Control>}');
    await user.click(sword);
    await user.keyboard('{/Control}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    const queue = await screen.findByTestId('transfer-queue');
    expect(within(queue).getByText('Longsword ×1')).toBeInTheDocument();

    // Q on a focused item, which says it takes that key.
    const dagger = screen.getByRole('button', { name: 'Dagger, quantity 2' });
    expect(dagger.getAttribute('aria-keyshortcuts')?.split(' ')).toContain('Q');
    dagger.focus();
    await user.keyboard('q');
    expect(within(queue).getByText('Dagger ×2')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

    // Nothing is swiped on a desktop: the bar says where queued items go.
    const destination = within(queue).getByRole('combobox', { name: 'Destination' });
    expect(destination).toHaveAttribute('placeholder', queuedDestinationPlaceholder);
    expect(within(queue).queryByText(/Swipe right/)).not.toBeInTheDocument();
    await user.click(destination);
    await user.click(await screen.findByRole('option', { name: /^Belt Pouch/ }));
    await user.click(within(queue).getByRole('button', { name: 'Process Queue' }));

    await waitFor(() =>
      expect(transfers(fetchMock)).toEqual([
        {
          item_instance_id: longsword.id,
          source_container_id: backpack.id,
          target_container_id: pouch.id,
          quantity: 1,
        },
        {
          item_instance_id: daggers.id,
          source_container_id: backpack.id,
          target_container_id: pouch.id,
          quantity: 2,
        },
      ]),
    );
    // Emptied by its run, the queue leaves a desktop's screen again.
    await waitFor(() => expect(screen.queryByTestId('transfer-queue')).not.toBeInTheDocument());
  });

  it("puts an item in the queue from its dialog's Add to Queue", async () => {
    server();
    renderWorkspace();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Dagger, quantity 2' }));
    const dialog = await screen.findByRole('dialog', { name: 'Dagger ×2' });
    await user.click(within(dialog).getByRole('button', { name: 'Add to Queue' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(within(screen.getByTestId('transfer-queue')).getByText('Dagger ×2')).toBeInTheDocument();
  });

  it('tells a keyboard user about Q with the other keys of the item grid', async () => {
    server();
    renderWorkspace();
    const sword = await screen.findByRole('button', { name: 'Longsword, quantity 1' });
    const help = document.getElementById(sword.getAttribute('aria-describedby')?.split(' ').at(-1) ?? '');
    expect(help).toHaveTextContent('Q or Ctrl+click adds it to the transfer queue');
  });
});

describe('InventoryWorkspace: nothing to move into from the party stash (a party with no character yet)', {
  timeout: 20_000,
}, () => {
  restoreViewportAfterEach();
  beforeEach(() => useUiStore.setState({ toasts: [] }));

  const stash = buildPartyStash({ id: 'party-1', name: 'Lantern Road' });
  const manacles = buildItem({ id: 'i-manacles', name: 'Manacles', quantity: 1, container_id: stash.id });

  function stashOnly() {
    mockFetch(({ url }) => {
      const { pathname } = new URL(url, 'http://test');
      if (pathname === `/api/v1/containers/${stash.id}`) return success(stash);
      if (pathname === `/api/v1/item_instances/${manacles.id}`) return success(manacles);
      if (pathname === `/api/v1/containers/${stash.id}/items`)
        return jsonResponse(200, { status: 'success', data: [manacles], meta: pageMeta(1, 20) });
      if (pathname === '/api/v1/characters')
        return jsonResponse(200, { status: 'success', data: [], meta: pageMeta(0, 100) });
      return failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${pathname}`);
    });
    return renderWithProviders(
      <InventoryWorkspace
        owner="Lantern Road"
        containers={[stash]}
        initialLeft={{ tab: 'container', containerId: stash.id }}
        initialRight={{ tab: 'container', containerId: stash.id }}
        inParty
        partyId="party-1"
        createOwner={null}
      />,
    );
  }

  it('offers no Add to Queue and says why the queue has no destination', async () => {
    setViewport(375, 812);
    stashOnly();
    const user = userEvent.setup();
    const queue = await screen.findByTestId('transfer-queue');
    expect(within(queue).getByText(nowhereFromStash)).toBeInTheDocument();
    expect(within(queue).queryByRole('combobox', { name: 'Destination' })).not.toBeInTheDocument();
    await user.click(await screen.findByRole('button', { name: 'Manacles, quantity 1' }));
    const dialog = await screen.findByRole('dialog', { name: 'Manacles' });
    expect(within(dialog).queryByRole('button', { name: 'Add to Queue' })).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Transfer' }));
    expect(await within(dialog).findByText(nowhereFromStash)).toBeInTheDocument();
  });

  it('explains, rather than queues, an item put in the queue by Q', async () => {
    setViewport(1280, 800);
    stashOnly();
    const user = userEvent.setup();
    const manacles = await screen.findByRole('button', { name: 'Manacles, quantity 1' });
    manacles.focus();
    await user.keyboard('q');
    await waitFor(() =>
      expect(useUiStore.getState().toasts.map((t) => t.message)).toContain(nowhereFromStash),
    );
    expect(screen.queryByTestId('transfer-queue')).not.toBeInTheDocument();
  });
});
