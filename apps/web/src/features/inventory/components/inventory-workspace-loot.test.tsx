import { type LootInstance, lootMessages } from '@haversack/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useUiStore } from '../../../stores/ui-store';
import { failure, jsonResponse, mockFetch, success } from '../../../test/fixtures';
import { buildCharacter, pageMeta } from '../../../test/party-fixtures';
import { restoreViewportAfterEach, setViewport } from '../../../test/viewport';
import { buildLootInstance } from '../../loot/test/loot-fixtures';
import { buildContainer, renderWithProviders } from '../test/inventory-fixtures';
import { joinPartyForShopsMessage } from './inventory-panel';
import { InventoryWorkspace } from './inventory-workspace';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

// The UI store keeps toasts for the whole run (no toasts component here to close them, files share modules):
// a test counting them starts with none.
beforeEach(() => useUiStore.setState({ toasts: [] }));

const partyId = 'party-1';
const hero = buildCharacter({ id: 'character-1', is_owner: true, party_id: partyId });
const backpack = buildContainer();
const stash = buildContainer({
  id: 'container-9',
  name: 'Party Stash',
  is_primary: false,
  character_id: null,
  party_id: partyId,
  owner: { type: 'party', id: partyId, name: 'The Copper Lanterns' },
});
/** Revealed loot a player may take from: 2 longswords (the fixture's stack). */
const hoard = buildLootInstance({ is_revealed: true, can_manage: false, can_take: true });

const takeResult = (quantity: number) =>
  success({
    kind: 'take',
    message: lootMessages.taken,
    loot_instance_id: hoard.id,
    quantity,
    item_instances: [],
    transaction_ids: ['transaction-1'],
  });

/**
 * The party's loot, its characters and the take at the network boundary. The loot may be a function, to
 * answer as the loot is now (someone else took from it).
 */
function lootServer(
  current: LootInstance | (() => LootInstance),
  take: () => Response = () => takeResult(1),
) {
  return mockFetch(({ url, init }) => {
    const { pathname } = new URL(url, 'http://test');
    const loot = typeof current === 'function' ? current() : current;
    if (pathname === `/api/v1/parties/${partyId}/loot_instances`) {
      return jsonResponse(200, { status: 'success', data: [loot], meta: pageMeta(1, 100) });
    }
    if (pathname === `/api/v1/loot_instances/${loot.id}` && init.method !== 'POST') return success(loot);
    if (pathname === '/api/v1/characters') {
      return jsonResponse(200, { status: 'success', data: [hero], meta: pageMeta(1, 100) });
    }
    if (init.method === 'POST' && pathname === `/api/v1/loot_instances/${loot.id}/take`) return take();
    return failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${pathname}`);
  });
}

function renderWorkspace(partyOf: string | null = partyId, leftTab: 'loot' | 'container' = 'loot') {
  return renderWithProviders(
    <InventoryWorkspace
      owner="The Lamplighters"
      containers={[backpack, stash]}
      initialLeft={{ tab: leftTab, containerId: backpack.id }}
      initialRight={{ tab: 'container', containerId: stash.id }}
      inParty={partyOf !== null}
      partyId={partyOf}
      createOwner={null}
    />,
  );
}

const takeCalls = (fetchMock: ReturnType<typeof mockFetch>) =>
  fetchMock.mock.calls
    .filter(([url, init]) => init?.method === 'POST' && String(url).endsWith('/take'))
    .map(([url, init]) => ({ url: String(url), body: JSON.parse(String(init?.body)) }));

const inputValue = (element: HTMLElement) => (element as HTMLInputElement).value;
const lastToast = () => useUiStore.getState().toasts.at(-1);
const errorToasts = () =>
  useUiStore
    .getState()
    .toasts.filter((t) => t.kind === 'error')
    .map((t) => t.message);

describe('InventoryWorkspace Loot tab (issue 11)', { timeout: 20_000 }, () => {
  it('takes part of a loot stack from the item modal: Take instead of edit, split and destroy', async () => {
    const fetchMock = lootServer(hoard);
    renderWorkspace();
    const user = userEvent.setup();

    await user.click(await screen.findByRole('button', { name: 'Longsword, quantity 2' }));
    const dialog = await screen.findByRole('dialog', { name: 'Longsword ×2' });
    expect(within(dialog).getByText('From Goblin Boss Hoard')).toBeInTheDocument();
    for (const name of ['Edit', 'Split', 'Destroy', 'Transfer']) {
      expect(within(dialog).queryByRole('button', { name })).not.toBeInTheDocument();
    }
    // Only my character's containers, never the party stash.
    const into = within(dialog).getByRole('combobox', { name: 'Take into' });
    await waitFor(() => expect(inputValue(into)).toMatch(/^Backpack \(Aria\)/));
    await user.click(into);
    expect(screen.queryByRole('option', { name: /Party Stash/ })).not.toBeInTheDocument();
    await user.keyboard('{Escape}');

    const quantity = within(dialog).getByRole('textbox', { name: 'Quantity' });
    // One at first, not the whole stack (review newgm L5).
    expect(quantity).toHaveValue('1');
    // A 0 stays as typed when the field is left, and says why, rather than becoming a take of 1.
    await user.clear(quantity);
    await user.type(quantity, '0');
    await user.tab();
    expect(quantity).toHaveValue('0');
    expect(within(dialog).getByText('Enter a whole number in range')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Take' })).toBeDisabled();
    await user.clear(quantity);
    await user.type(quantity, '1');
    await user.click(within(dialog).getByRole('button', { name: 'Take' }));

    await waitFor(() =>
      expect(lastToast()).toMatchObject({ kind: 'success', message: 'Item taken successfully' }),
    );
    expect(takeCalls(fetchMock)).toEqual([
      {
        url: `/api/v1/loot_instances/${hoard.id}/take`,
        body: { item_instance_id: 'loot-stack-1', target_container_id: backpack.id, quantity: 1 },
      },
    ]);
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Longsword ×2' })).not.toBeInTheDocument(),
    );
  });

  it('shows the server’s reason when the take is refused, and keeps the modal open', async () => {
    lootServer(hoard, () => failure(409, 'CONFLICT', lootMessages.alreadyTaken));
    renderWorkspace();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Longsword, quantity 2' }));
    const dialog = await screen.findByRole('dialog', { name: 'Longsword ×2' });
    await waitFor(() =>
      expect(inputValue(within(dialog).getByRole('combobox', { name: 'Take into' }))).toMatch(/^Backpack/),
    );
    await user.click(within(dialog).getByRole('button', { name: 'Take' }));
    expect(await within(dialog).findByTestId('take-error')).toHaveTextContent(lootMessages.alreadyTaken);
    // An error shows once: in the modal, not in a toast as well.
    expect(errorToasts()).toEqual([]);
    expect(screen.getByRole('dialog', { name: 'Longsword ×2' })).toBeInTheDocument();
  });

  it('brings the quantity down to what is left after a take refused for too many, to take again', async () => {
    const stackOf = (quantity: number): LootInstance => {
      const [stack] = hoard.container.item_instances;
      if (!stack) throw new Error('The hoard fixture has a stack');
      return { ...hoard, container: { ...hoard.container, item_instances: [{ ...stack, quantity }] } };
    };
    let left = 3;
    const fetchMock = lootServer(
      () => stackOf(left),
      () => {
        if (takeCalls(fetchMock).length > 1) return takeResult(2);
        // Someone else took 1 first: the refusal refreshes the loot, which has 2 left.
        left = 2;
        return failure(409, 'CONFLICT', 'Only 2 left in this loot.', [
          { field: 'quantity', message: 'Only 2 left in this loot.' },
        ]);
      },
    );
    renderWorkspace();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Longsword, quantity 3' }));
    const dialog = await screen.findByRole('dialog', { name: 'Longsword ×3' });
    await waitFor(() =>
      expect(inputValue(within(dialog).getByRole('combobox', { name: 'Take into' }))).toMatch(/^Backpack/),
    );
    // One is offered at first (review newgm L5): all three asked for.
    const asked = within(dialog).getByRole('textbox', { name: 'Quantity' });
    expect(asked).toHaveValue('1');
    await user.clear(asked);
    await user.type(asked, '3');
    await user.click(within(dialog).getByRole('button', { name: 'Take' }));
    expect(await within(dialog).findByTestId('take-error')).toHaveTextContent('Only 2 left in this loot.');
    await waitFor(() => expect(within(dialog).getByText('1 to 2')).toBeInTheDocument());
    expect(within(dialog).getByRole('textbox', { name: 'Quantity' })).toHaveValue('2');
    await user.click(within(dialog).getByRole('button', { name: 'Take' }));
    await waitFor(() => expect(lastToast()).toMatchObject({ kind: 'success', message: lootMessages.taken }));
    expect(takeCalls(fetchMock).map((call) => call.body.quantity)).toEqual([3, 2]);
  });

  it('closes the modal with the reason, once, when the stack was taken whole meanwhile', async () => {
    let taken = false;
    lootServer(
      () => (taken ? { ...hoard, container: { ...hoard.container, item_instances: [] } } : hoard),
      () => {
        // Someone else took the whole stack first: the refusal refreshes the loot, which no longer has it.
        taken = true;
        return failure(409, 'CONFLICT', lootMessages.alreadyTaken);
      },
    );
    renderWorkspace();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Longsword, quantity 2' }));
    const dialog = await screen.findByRole('dialog', { name: 'Longsword ×2' });
    await waitFor(() =>
      expect(inputValue(within(dialog).getByRole('combobox', { name: 'Take into' }))).toMatch(/^Backpack/),
    );
    await user.click(within(dialog).getByRole('button', { name: 'Take' }));
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Longsword ×2' })).not.toBeInTheDocument(),
    );
    expect(errorToasts()).toEqual([lootMessages.alreadyTaken]);
  });

  it('names the refused field’s reason (a container that is not my character’s)', async () => {
    const reason = lootMessages.containerNotCharacters;
    lootServer(hoard, () =>
      failure(422, 'VALIDATION_ERROR', 'Validation failed', [
        { field: 'target_container_id', message: reason },
      ]),
    );
    renderWorkspace();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Longsword, quantity 2' }));
    const dialog = await screen.findByRole('dialog', { name: 'Longsword ×2' });
    await waitFor(() =>
      expect(inputValue(within(dialog).getByRole('combobox', { name: 'Take into' }))).toMatch(/^Backpack/),
    );
    await user.click(within(dialog).getByRole('button', { name: 'Take' }));
    expect(await within(dialog).findByTestId('take-error')).toHaveTextContent(reason);
    expect(errorToasts()).toEqual([]);
  });

  it('toasts a refused take that no dialog is left to show ("Take to...")', async () => {
    lootServer(hoard, () => failure(409, 'CONFLICT', lootMessages.alreadyTaken));
    renderWorkspace();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Take Longsword to...' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Backpack (Aria)' }));
    const prompt = await screen.findByRole('dialog', { name: 'Take Longsword' });
    await user.click(within(prompt).getByRole('button', { name: 'Take' }));
    await waitFor(() => expect(errorToasts()).toEqual([lootMessages.alreadyTaken]));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('takes with "Take to...", asking how many of the stack (all by default)', async () => {
    const fetchMock = lootServer(hoard, () => takeResult(2));
    renderWorkspace();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Take Longsword to...' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Backpack (Aria)' }));
    const prompt = await screen.findByRole('dialog', { name: 'Take Longsword' });
    expect(within(prompt).getByText('How many of 2 go to Backpack?')).toBeInTheDocument();
    expect(within(prompt).getByRole('textbox', { name: 'Quantity' })).toHaveValue('2');
    await user.click(within(prompt).getByRole('button', { name: 'Take' }));
    await waitFor(() => expect(lastToast()).toMatchObject({ kind: 'success', message: lootMessages.taken }));
    expect(takeCalls(fetchMock)).toEqual([
      {
        url: `/api/v1/loot_instances/${hoard.id}/take`,
        body: { item_instance_id: 'loot-stack-1', target_container_id: backpack.id, quantity: 2 },
      },
    ]);
  });

  it('offers no Take on the GM’s hidden loot, and says why', async () => {
    const hidden = buildLootInstance({ can_take: true });
    const fetchMock = lootServer(hidden);
    renderWorkspace();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Longsword, quantity 2' }));
    const dialog = await screen.findByRole('dialog', { name: 'Longsword ×2' });
    expect(within(dialog).getByTestId('loot-take-blocked')).toHaveTextContent(lootMessages.notRevealed);
    expect(within(dialog).queryByRole('button', { name: 'Take' })).not.toBeInTheDocument();
    expect(takeCalls(fetchMock)).toEqual([]);
  });

  describe('on a phone', () => {
    // happy-dom's viewport, never an assigned `innerWidth` (it would stay on the worker's shared window).
    restoreViewportAfterEach();

    async function chooseBackpack(user: ReturnType<typeof userEvent.setup>) {
      await user.click(screen.getByRole('combobox', { name: 'Destination' }));
      await user.click(await screen.findByRole('option', { name: /^Backpack/ }));
    }

    it('does not offer the container on screen as the queue’s destination', async () => {
      setViewport(375, 800);
      lootServer(hoard);
      renderWorkspace(partyId, 'container');
      const user = userEvent.setup();
      await user.click(await screen.findByRole('combobox', { name: 'Destination' }));
      const options = (await screen.findAllByRole('option')).map((o) => o.textContent ?? '');
      expect(options.some((o) => o.startsWith('Party Stash'))).toBe(true);
      expect(options.some((o) => o.startsWith('Backpack'))).toBe(false);
    });

    it('queues a loot stack from its bottom sheet and takes it when the queue is processed', async () => {
      setViewport(375, 800);
      const fetchMock = lootServer(hoard, () => takeResult(2));
      renderWorkspace();
      const user = userEvent.setup();
      await user.click(await screen.findByRole('button', { name: 'Longsword, quantity 2' }));
      const sheet = await screen.findByRole('dialog', { name: 'Longsword ×2' });
      await user.click(within(sheet).getByRole('button', { name: 'Add to Queue' }));
      const queue = screen.getByTestId('transfer-queue');
      expect(within(queue).getByText('Longsword ×2')).toBeInTheDocument();

      await chooseBackpack(user);
      await user.click(within(queue).getByRole('button', { name: 'Process Queue' }));
      await waitFor(() =>
        expect(lastToast()).toMatchObject({ kind: 'success', message: lootMessages.taken }),
      );
      expect(takeCalls(fetchMock)).toEqual([
        {
          url: `/api/v1/loot_instances/${hoard.id}/take`,
          body: { item_instance_id: 'loot-stack-1', target_container_id: backpack.id, quantity: 2 },
        },
      ]);
    });

    it('takes a loot stack on a swipe right (Quick Transfer), asking how many first', async () => {
      setViewport(375, 800);
      const fetchMock = lootServer(hoard, () => takeResult(2));
      renderWorkspace();
      const user = userEvent.setup();
      const tile = await screen.findByRole('button', { name: 'Longsword, quantity 2' });
      await chooseBackpack(user);
      fireEvent.pointerDown(tile, { clientX: 10, clientY: 10 });
      fireEvent.pointerUp(tile, { clientX: 120, clientY: 12 });
      const prompt = await screen.findByRole('dialog', { name: 'Take Longsword' });
      expect(within(prompt).getByRole('textbox', { name: 'Quantity' })).toHaveValue('2');
      expect(takeCalls(fetchMock)).toEqual([]);
      await user.click(within(prompt).getByRole('button', { name: 'Take' }));
      await waitFor(() =>
        expect(lastToast()).toMatchObject({ kind: 'success', message: lootMessages.taken }),
      );
      expect(takeCalls(fetchMock)).toEqual([
        {
          url: `/api/v1/loot_instances/${hoard.id}/take`,
          body: { item_instance_id: 'loot-stack-1', target_container_id: backpack.id, quantity: 2 },
        },
      ]);
    });
  });

  it('needs a party for loot', async () => {
    mockFetch(() => failure(404, 'RESOURCE_NOT_FOUND', 'none'));
    renderWorkspace(null);
    expect(await screen.findByTestId('join-party-for-sources')).toHaveTextContent(joinPartyForShopsMessage);
  });
});
