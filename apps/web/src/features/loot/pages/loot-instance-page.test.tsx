import { type LootInstance, lootContentsFingerprint } from '@haversack/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { useUiStore } from '../../../stores/ui-store';
import { failure, jsonResponse, mockFetch, success } from '../../../test/fixtures';
import { buildCharacter, buildParty, pageMeta } from '../../../test/party-fixtures';
import { renderRoutes } from '../../../test/render';
import { buildContainer, buildItem } from '../../inventory/test/inventory-fixtures';
import { lootKeys } from '../api/loot-api';
import { buildLootInstance, sunkenChestStacks } from '../test/loot-fixtures';
import { LootInstancePage } from './loot-instance-page';

const gold = buildItem({
  id: 'loot-stack-gp',
  name: 'Gold Piece',
  displayName: 'Gold Piece (50)',
  quantity: 50,
  value: 1,
  value_cp: 100,
  currency: 'gp',
  item_template_id: 'coin-gp',
  item_template: { name: 'Gold Piece', stack_size: 0, tags: ['currency'], metadata: {}, coin: 'gp' },
  container_id: 'loot-container-1',
});

const base = buildLootInstance();
const sword = base.container.item_instances[0];

/** Revealed loot as a player with a character sees it: two longswords and 50 gp. */
const playerLoot = buildLootInstance({
  is_revealed: true,
  revealed_at: '2026-01-02T00:00:00.000Z',
  instance_data: { location_name: 'Under the throne' },
  claimed_by: [{ id: 'ch-bram', name: 'Bram' }],
  container: { ...base.container, item_instances: [...(sword ? [sword] : []), gold] },
  items_count: 2,
  total_value_cp: 8000,
  can_manage: false,
  can_take: true,
});

const characters = [
  buildCharacter({ id: 'ch-aria', name: 'Aria', party_id: 'party-1', primary_container_id: 'c-pack' }),
  buildCharacter({ id: 'ch-bram', name: 'Bram', party_id: 'party-1', is_owner: false, user_id: 'user-2' }),
];
const ariaContainers = [
  buildContainer({
    id: 'c-pack',
    name: 'Backpack',
    owner: { type: 'character', id: 'ch-aria', name: 'Aria' },
    character_id: 'ch-aria',
    party_id: 'party-1',
  }),
  buildContainer({
    id: 'c-sack',
    name: 'Sack',
    is_primary: false,
    owner: { type: 'character', id: 'ch-aria', name: 'Aria' },
    character_id: 'ch-aria',
    party_id: 'party-1',
  }),
];

type Handler = (pathname: string, method: string, body: unknown) => Response | null;

/** The loot, the party's characters and Aria's containers at the network boundary. */
function mockLootPage(loot: LootInstance | Response, extra: Handler = () => null) {
  return mockFetch(({ url, init }) => {
    const { pathname, searchParams } = new URL(url, 'http://test');
    const method = init.method ?? 'GET';
    const answer = extra(pathname, method, init.body ? JSON.parse(String(init.body)) : undefined);
    if (answer) return answer;
    if (method === 'GET' && pathname === '/api/v1/loot_instances/loot-1') {
      return loot instanceof Response ? loot.clone() : success(loot);
    }
    if (pathname === '/api/v1/characters' && searchParams.get('party_id') === 'party-1') {
      return jsonResponse(200, {
        status: 'success',
        data: characters,
        meta: pageMeta(characters.length, 100),
      });
    }
    if (pathname === '/api/v1/characters/ch-aria/containers') return success(ariaContainers);
    return failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${method} ${pathname}`);
  });
}

function renderPage() {
  return renderRoutes(
    [
      { path: '/loot/instances/:id', element: <LootInstancePage /> },
      { path: '/parties/:id', element: <p>Party page</p> },
    ],
    '/loot/instances/loot-1',
  );
}

const bodiesTo = (fetchMock: ReturnType<typeof mockFetch>, suffix: string, method = 'POST') =>
  fetchMock.mock.calls
    .filter(
      ([url, init]) =>
        init?.method === method && new URL(String(url), 'http://test').pathname.endsWith(suffix),
    )
    .map(([, init]) => JSON.parse(String(init?.body)));

const lastToast = () => useUiStore.getState().toasts.at(-1);

const takeResultOf = (quantity: number) => ({
  kind: 'take',
  message: 'Item taken successfully',
  loot_instance_id: 'loot-1',
  quantity,
  item_instances: [buildItem({ id: 'new-gold', container_id: 'c-pack', quantity })],
  transaction_ids: ['tx-1'],
});

/** Take and Claim wait for my characters and their containers (three requests in a row). */
const buttonReady = (name: string) =>
  waitFor(() => expect(screen.getByRole('button', { name })).toBeEnabled(), { timeout: 5_000 });

// A shared, busy machine: typing into the edit form and the chained requests can take a few seconds.

// The UI store keeps toasts for the whole run (no toasts component here to close them, files share modules):
// a test counting them starts with none.
beforeEach(() => useUiStore.setState({ toasts: [] }));

describe('LootInstancePage', { timeout: 20_000 }, () => {
  it('puts its trail in a Breadcrumb landmark that ends at the loot, marked the current page', async () => {
    mockLootPage(playerLoot);
    renderPage();
    const trail = await screen.findByRole('navigation', { name: 'Breadcrumb' });
    expect(within(trail).getByRole('link', { name: 'Parties' })).toHaveAttribute('href', '/parties');
    expect(within(trail).getByText('Goblin Boss Hoard')).toHaveAttribute('aria-current', 'page');
  });

  it('shows the loot: name, party, source, location, description, who claimed, and its items', async () => {
    mockLootPage(playerLoot);
    renderPage();
    expect(await screen.findByRole('heading', { level: 1, name: 'Goblin Boss Hoard' })).toBeInTheDocument();
    expect(screen.queryByTestId('loot-hidden-badge')).not.toBeInTheDocument();
    expect(screen.getAllByRole('link', { name: 'The Copper Lanterns' })[0]).toHaveAttribute(
      'href',
      '/parties/party-1',
    );
    expect(screen.getByText('Goblin boss')).toBeInTheDocument();
    expect(screen.getByText('Under the throne')).toBeInTheDocument();
    expect(screen.getByText('What the goblin boss kept under his throne.')).toBeInTheDocument();
    // Bram had something, but a sword and the gold are still there to take: not "Claimed by".
    expect(screen.getByTestId('loot-claimed-by')).toHaveTextContent(/^Received so far: Bram$/);
    const stacks = screen.getAllByTestId('loot-stack');
    expect(stacks.map((s) => s.getAttribute('data-item-name'))).toEqual(['Longsword', 'Gold Piece']);
    expect(within(stacks[1] as HTMLElement).getByTestId('loot-stack-facts')).toHaveTextContent(
      'Quantity 50 · 1 gp each',
    );
    expect(within(stacks[1] as HTMLElement).getByTestId('loot-stack-value')).toHaveTextContent('50 gp');
    // A player has no GM controls.
    expect(screen.queryByTestId('loot-gm-panel')).not.toBeInTheDocument();
    await buttonReady('Take Gold Piece');
  });

  it('counts the Sunken Chest’s items by the unit, and says "Claimed by" only once nothing is left', async () => {
    const chest = sunkenChestStacks();
    const pip = { id: 'ch-pip', name: 'Pip Lightfoot' };
    // Pip claimed the 2 potions: 5 stacks still to take and claim.
    const left = chest.filter((stack) => stack.name !== 'Potion of Healing');
    const partlyTaken = {
      ...playerLoot,
      name: 'Sunken Chest',
      claimed_by: [pip],
      container: { ...playerLoot.container, item_instances: left },
      items_count: left.length,
      total_value_cp: left.reduce((sum, stack) => sum + stack.value_cp * stack.quantity, 0),
    };
    mockLootPage(partlyTaken);
    const { unmount } = renderPage();
    expect(await screen.findByTestId('loot-claimed-by')).toHaveTextContent(
      /^Received so far: Pip Lightfoot$/,
    );
    // A spyglass and a lock; 150 gp, 400 sp and 30 ep, named apart from the items; all in the worth.
    expect(screen.getByText(/· 2 items and 580 coins · 1,215 gp$/)).toBeInTheDocument();
    unmount();

    mockLootPage({
      ...partlyTaken,
      claimed_by: [pip, { id: 'ch-rook', name: 'Rook' }],
      container: { ...playerLoot.container, item_instances: [] },
      items_count: 0,
      total_value_cp: 0,
    });
    renderPage();
    expect(await screen.findByTestId('loot-claimed-by')).toHaveTextContent(
      /^Claimed by: Pip Lightfoot, Rook$/,
    );
    expect(screen.getByText(/· Empty$/)).toBeInTheDocument();
  });

  it('tells apart the Take and Claim of stacks that share a name', async () => {
    const manacles = (id: string, notes = '') =>
      buildItem({
        id,
        name: 'Manacles',
        displayName: 'Manacles',
        quantity: 1,
        notes,
        container_id: 'loot-container-1',
      });
    // Not alike (one has a note of its own), so two lines of one name.
    mockLootPage({
      ...playerLoot,
      container: {
        ...playerLoot.container,
        item_instances: [manacles('m-1'), ...(sword ? [sword] : []), manacles('m-2', 'Rusted shut')],
      },
    });
    renderPage();
    await buttonReady('Take Manacles, 1 of 2');
    expect(screen.getByRole('button', { name: 'Take Manacles, 2 of 2' })).toHaveTextContent(/^Take$/);
    expect(screen.getByRole('button', { name: 'Claim Manacles, 1 of 2' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Claim Manacles, 2 of 2' })).toHaveTextContent(/^Claim$/);
    // A stack alone under its name keeps the plain name.
    expect(screen.getByRole('button', { name: 'Take Longsword' })).toBeInTheDocument();
  });

  it('lists identical stacks as one line with their total, and takes from that line', async () => {
    const user = userEvent.setup();
    // Longswords do not stack: three of them lie in the loot as three stacks of one.
    const longsword = (id: string) => ({ ...(sword ?? buildItem()), id, quantity: 1 });
    const fetchMock = mockLootPage(
      {
        ...playerLoot,
        container: {
          ...playerLoot.container,
          item_instances: [longsword('sword-a'), gold, longsword('sword-b'), longsword('sword-c')],
        },
      },
      (pathname, method) =>
        method === 'POST' && pathname === '/api/v1/loot_instances/loot-1/take'
          ? success(takeResultOf(3))
          : null,
    );
    renderPage();
    await buttonReady('Take Longsword');
    const stacks = screen.getAllByTestId('loot-stack');
    expect(stacks.map((s) => s.getAttribute('data-item-name'))).toEqual(['Longsword', 'Gold Piece']);
    expect(within(stacks[0] as HTMLElement).getByTestId('loot-stack-facts')).toHaveTextContent(
      'Quantity 3 · 15 gp each',
    );
    expect(within(stacks[0] as HTMLElement).getByTestId('loot-stack-value')).toHaveTextContent('45 gp');

    await user.click(screen.getByRole('button', { name: 'Take Longsword' }));
    const dialog = await screen.findByRole('dialog', { name: 'Take Longsword' });
    expect(within(dialog).getByTestId('take-facts')).toHaveTextContent('3 in this loot, worth 15 gp each.');
    // One at first (review newgm L5); all three asked for.
    const swords = within(dialog).getByRole('textbox', { name: 'Quantity' });
    expect(swords).toHaveValue('1');
    await user.clear(swords);
    await user.type(swords, '3');
    await user.click(within(dialog).getByRole('button', { name: 'Take 3' }));
    await waitFor(() =>
      expect(lastToast()).toMatchObject({ kind: 'success', message: 'Item taken successfully' }),
    );
    // The line's first stack is named; the server takes the rest from the line's other stacks.
    expect(bodiesTo(fetchMock, '/take')).toEqual([
      { item_instance_id: 'sword-a', target_container_id: 'c-pack', quantity: 3 },
    ]);
  });

  it('takes part of a stack into the container I choose', async () => {
    const user = userEvent.setup();
    const fetchMock = mockLootPage(playerLoot, (pathname, method) =>
      method === 'POST' && pathname === '/api/v1/loot_instances/loot-1/take'
        ? success({
            kind: 'take',
            message: 'Item taken successfully',
            loot_instance_id: 'loot-1',
            quantity: 20,
            item_instances: [buildItem({ id: 'new-gold', container_id: 'c-sack', quantity: 20 })],
            transaction_ids: ['tx-1'],
          })
        : null,
    );
    renderPage();
    await buttonReady('Take Gold Piece');
    await user.click(screen.getByRole('button', { name: 'Take Gold Piece' }));
    const dialog = await screen.findByRole('dialog', { name: 'Take Gold Piece' });
    const quantity = within(dialog).getByRole('textbox', { name: 'Quantity' });
    // One of the stack by default (review newgm L5), not all 50.
    expect(quantity).toHaveValue('1');
    await user.clear(quantity);
    await user.type(quantity, '20');
    const destination = within(dialog).getByRole('combobox', { name: 'Put it in' });
    expect(destination).toHaveValue('Backpack (Aria)');
    await user.click(destination);
    await user.click(await screen.findByRole('option', { name: 'Sack (Aria)' }));
    await user.click(within(dialog).getByRole('button', { name: 'Take 20' }));
    await waitFor(() =>
      expect(lastToast()).toMatchObject({ kind: 'success', message: 'Item taken successfully' }),
    );
    expect(bodiesTo(fetchMock, '/take')).toEqual([
      { item_instance_id: 'loot-stack-gp', target_container_id: 'c-sack', quantity: 20 },
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('shows why a take was refused, in the server’s words', async () => {
    const user = userEvent.setup();
    mockLootPage(playerLoot, (pathname, method) =>
      method === 'POST' && pathname.endsWith('/take')
        ? failure(409, 'CONFLICT', 'Only 10 left in this loot.', [
            { field: 'quantity', message: 'Only 10 left in this loot.' },
          ])
        : null,
    );
    renderPage();
    await buttonReady('Take Gold Piece');
    await user.click(screen.getByRole('button', { name: 'Take Gold Piece' }));
    const dialog = await screen.findByRole('dialog');
    // One is offered at first (review newgm L5): all 50 asked for.
    const asked = within(dialog).getByRole('textbox', { name: 'Quantity' });
    await user.clear(asked);
    await user.type(asked, '50');
    await user.click(within(dialog).getByRole('button', { name: 'Take 50' }));
    expect(await within(dialog).findByTestId('take-error')).toHaveTextContent('Only 10 left in this loot.');
    // An error shows once: in the dialog, not in a toast as well.
    expect(useUiStore.getState().toasts.map((t) => t.message)).not.toContain('Only 10 left in this loot.');
  });

  it('brings the quantity down to what is left after a take refused for too many, to take again', async () => {
    const user = userEvent.setup();
    let refused = false;
    const fetchMock = mockLootPage(playerLoot, (pathname, method) => {
      if (method === 'POST' && pathname.endsWith('/take')) {
        if (refused) return success(takeResultOf(10));
        refused = true;
        return failure(409, 'CONFLICT', 'Only 10 left in this loot.', [
          { field: 'quantity', message: 'Only 10 left in this loot.' },
        ]);
      }
      // Someone else took 40 meanwhile: the loot the refusal refreshes has 10 left.
      if (method === 'GET' && pathname === '/api/v1/loot_instances/loot-1' && refused) {
        const items = [{ ...gold, quantity: 10 }];
        return success({ ...playerLoot, container: { ...playerLoot.container, item_instances: items } });
      }
      return null;
    });
    renderPage();
    await buttonReady('Take Gold Piece');
    await user.click(screen.getByRole('button', { name: 'Take Gold Piece' }));
    const dialog = await screen.findByRole('dialog', { name: 'Take Gold Piece' });
    const asked = within(dialog).getByRole('textbox', { name: 'Quantity' });
    await user.clear(asked);
    await user.type(asked, '50');
    await user.click(within(dialog).getByRole('button', { name: 'Take 50' }));
    expect(await within(dialog).findByTestId('take-error')).toHaveTextContent('Only 10 left in this loot.');
    expect(await within(dialog).findByText(/^10 in this loot/)).toBeInTheDocument();
    const quantity = within(dialog).getByRole('textbox', { name: 'Quantity' });
    expect(quantity).toHaveValue('10');
    expect(within(dialog).getByText('1 to 10')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Take 10' }));
    await waitFor(() =>
      expect(lastToast()).toMatchObject({ kind: 'success', message: 'Item taken successfully' }),
    );
    expect(bodiesTo(fetchMock, '/take').map((body) => body.quantity)).toEqual([50, 10]);
  });

  it('closes a claim lost to someone else and says so once', async () => {
    const user = userEvent.setup();
    let taken = false;
    const withoutSword = { ...playerLoot, container: { ...playerLoot.container, item_instances: [gold] } };
    mockLootPage(playerLoot, (pathname, method) => {
      if (method === 'POST' && pathname.endsWith('/claim')) {
        taken = true;
        return failure(409, 'CONFLICT', 'Someone has already taken that item.');
      }
      if (method === 'GET' && pathname === '/api/v1/loot_instances/loot-1' && taken)
        return success(withoutSword);
      return null;
    });
    renderPage();
    await buttonReady('Claim Longsword');
    await user.click(screen.getByRole('button', { name: 'Claim Longsword' }));
    const dialog = await screen.findByRole('dialog', { name: 'Claim Longsword' });
    await user.click(within(dialog).getByRole('button', { name: 'Claim for Aria' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(
      useUiStore.getState().toasts.filter((t) => t.message === 'Someone has already taken that item.'),
    ).toMatchObject([{ kind: 'error' }]);
    expect(screen.getAllByTestId('loot-stack').map((s) => s.getAttribute('data-item-name'))).toEqual([
      'Gold Piece',
    ]);
  });

  it('follows the stack while the dialog is open: fewer left, then none', async () => {
    const user = userEvent.setup();
    let left: number | null = null;
    mockLootPage(playerLoot, (pathname, method) => {
      if (method !== 'GET' || pathname !== '/api/v1/loot_instances/loot-1' || left === null) return null;
      const items = left > 0 ? [{ ...gold, quantity: left }] : [];
      return success({ ...playerLoot, container: { ...playerLoot.container, item_instances: items } });
    });
    const { queryClient } = renderPage();
    await buttonReady('Take Gold Piece');
    await user.click(screen.getByRole('button', { name: 'Take Gold Piece' }));
    const dialog = await screen.findByRole('dialog', { name: 'Take Gold Piece' });
    expect(within(dialog).getByText(/^50 in this loot/)).toBeInTheDocument();
    // One is offered at first (review newgm L5): all 50 asked for.
    const asked = within(dialog).getByRole('textbox', { name: 'Quantity' });
    await user.clear(asked);
    await user.type(asked, '50');
    // Someone else takes 30 (a live event refreshes the loot).
    left = 20;
    await queryClient.invalidateQueries({ queryKey: lootKeys.instance('loot-1') });
    expect(await within(dialog).findByText(/^20 in this loot/)).toBeInTheDocument();
    // The whole stack asked for comes down to what is left, ready to take.
    expect(within(dialog).getByRole('textbox', { name: 'Quantity' })).toHaveValue('20');
    expect(within(dialog).getByText('1 to 20')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Take 20' })).toBeEnabled();
    // Then the rest.
    left = 0;
    await queryClient.invalidateQueries({ queryKey: lootKeys.instance('loot-1') });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(lastToast()).toMatchObject({ kind: 'error', message: 'Someone has already taken that item.' });
  });

  it('claims a whole stack for one of my characters (never someone else’s)', async () => {
    const user = userEvent.setup();
    const fetchMock = mockLootPage(playerLoot, (pathname, method) =>
      method === 'POST' && pathname === '/api/v1/loot_instances/loot-1/claim'
        ? success({
            kind: 'claim',
            message: 'Item claimed successfully',
            loot_instance_id: 'loot-1',
            quantity: 2,
            item_instances: [buildItem({ id: 'new-sword', container_id: 'c-pack', quantity: 2 })],
            transaction_ids: ['tx-2'],
          })
        : null,
    );
    renderPage();
    await buttonReady('Claim Longsword');
    await user.click(screen.getByRole('button', { name: 'Claim Longsword' }));
    const dialog = await screen.findByRole('dialog', { name: 'Claim Longsword' });
    const claimFor = within(dialog).getByRole('combobox', { name: 'Claim for' });
    expect(claimFor).toHaveValue('Aria');
    await user.click(claimFor);
    expect((await screen.findAllByRole('option')).map((o) => o.textContent)).toEqual(['Aria']);
    await user.click(screen.getByRole('option', { name: 'Aria' }));
    await user.click(within(dialog).getByRole('button', { name: 'Claim for Aria' }));
    await waitFor(() =>
      expect(lastToast()).toMatchObject({ kind: 'success', message: 'Item claimed successfully' }),
    );
    expect(bodiesTo(fetchMock, '/claim')).toEqual([
      { claim: { item_instance_id: 'loot-stack-1', character_id: 'ch-aria' } },
    ]);
  });

  it('hands keyboard focus to the next row’s Claim once a claimed stack leaves the list', async () => {
    const user = userEvent.setup();
    let claimed = false;
    const withoutSword = { ...playerLoot, container: { ...playerLoot.container, item_instances: [gold] } };
    mockLootPage(playerLoot, (pathname, method) => {
      if (method === 'POST' && pathname === '/api/v1/loot_instances/loot-1/claim') {
        claimed = true;
        return success({
          kind: 'claim',
          message: 'Item claimed successfully',
          loot_instance_id: 'loot-1',
          quantity: 2,
          item_instances: [buildItem({ id: 'new-sword', container_id: 'c-pack', quantity: 2 })],
          transaction_ids: ['tx-2'],
        });
      }
      if (method === 'GET' && pathname === '/api/v1/loot_instances/loot-1' && claimed)
        return success(withoutSword);
      return null;
    });
    renderPage();
    await buttonReady('Claim Longsword');
    // The row's Claim has focus as it opens the dialog (a click focuses it, as Tab would).
    await user.click(screen.getByRole('button', { name: 'Claim Longsword' }));
    const dialog = await screen.findByRole('dialog', { name: 'Claim Longsword' });
    await user.click(within(dialog).getByRole('button', { name: 'Claim for Aria' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() =>
      expect(screen.queryByRole('button', { name: 'Claim Longsword' })).not.toBeInTheDocument(),
    );
    // Not the page: the next Tab goes on from the list, not from the top.
    await waitFor(() => expect(screen.getByRole('button', { name: 'Claim Gold Piece' })).toHaveFocus());
  });

  it('lets a GM with no character of their own claim for a player’s character', async () => {
    const user = userEvent.setup();
    // As the GM reads the party: nobody's character is theirs.
    const theirs = characters.map((c) => ({
      ...c,
      is_owner: false,
      user_id: `user-${c.name.toLowerCase()}`,
    }));
    const bramPack = buildContainer({
      id: 'c-bram',
      name: 'Pack',
      owner: { type: 'character', id: 'ch-bram', name: 'Bram' },
      character_id: 'ch-bram',
      party_id: 'party-1',
    });
    const fetchMock = mockLootPage(
      { ...playerLoot, can_manage: true, can_take: true },
      (pathname, method) => {
        if (pathname === '/api/v1/characters' && method === 'GET')
          return jsonResponse(200, { status: 'success', data: theirs, meta: pageMeta(theirs.length, 100) });
        if (pathname === '/api/v1/characters/ch-bram/containers') return success([bramPack]);
        if (method === 'POST' && pathname === '/api/v1/loot_instances/loot-1/claim')
          return success({
            kind: 'claim',
            message: 'Item claimed successfully',
            loot_instance_id: 'loot-1',
            quantity: 2,
            item_instances: [buildItem({ id: 'new-sword', container_id: 'c-bram', quantity: 2 })],
            transaction_ids: ['tx-3'],
          });
        return null;
      },
    );
    renderPage();
    await buttonReady('Claim Longsword');
    expect(screen.queryByTestId('cannot-take')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Claim Longsword' }));
    const dialog = await screen.findByRole('dialog', { name: 'Claim Longsword' });
    await user.click(within(dialog).getByRole('combobox', { name: 'Claim for' }));
    expect((await screen.findAllByRole('option')).map((o) => o.textContent)).toEqual(['Aria', 'Bram']);
    await user.click(screen.getByRole('option', { name: 'Bram' }));
    await user.click(within(dialog).getByRole('button', { name: 'Claim for Bram' }));
    await waitFor(() =>
      expect(lastToast()).toMatchObject({ kind: 'success', message: 'Item claimed successfully' }),
    );
    expect(bodiesTo(fetchMock, '/claim')).toEqual([
      { claim: { item_instance_id: 'loot-stack-1', character_id: 'ch-bram' } },
    ]);
  });

  it('lets a GM take into the containers of any character of the party', async () => {
    const user = userEvent.setup();
    const theirs = characters.map((c) => ({ ...c, is_owner: false }));
    const bramPack = buildContainer({
      id: 'c-bram',
      name: 'Pack',
      owner: { type: 'character', id: 'ch-bram', name: 'Bram' },
      character_id: 'ch-bram',
      party_id: 'party-1',
    });
    mockLootPage({ ...playerLoot, can_manage: true }, (pathname, method) => {
      if (pathname === '/api/v1/characters' && method === 'GET')
        return jsonResponse(200, { status: 'success', data: theirs, meta: pageMeta(theirs.length, 100) });
      if (pathname === '/api/v1/characters/ch-bram/containers') return success([bramPack]);
      return null;
    });
    renderPage();
    await buttonReady('Take Gold Piece');
    await user.click(screen.getByRole('button', { name: 'Take Gold Piece' }));
    const dialog = await screen.findByRole('dialog', { name: 'Take Gold Piece' });
    await user.click(within(dialog).getByRole('combobox', { name: 'Put it in' }));
    expect((await screen.findAllByRole('option')).map((o) => o.textContent)).toEqual([
      'Backpack (Aria)',
      'Sack (Aria)',
      'Pack (Bram)',
    ]);
  });

  it.each([
    [
      'player',
      false,
      'This party is archived: nothing in it can change until its Game Master unarchives it.',
    ],
    ['gm', true, 'This party is archived. Unarchive it to make changes.'],
  ] as const)(
    'tells a member (%s) of an archived party so, with no Take, Claim or GM actions',
    async (role, isGm, said) => {
      // As the shop page (live review): the server refuses everything here with partyMessages.archived.
      mockLootPage({ ...playerLoot, can_manage: isGm, can_take: true }, (pathname) => {
        if (pathname === '/api/v1/parties/party-1')
          return success(buildParty({ user_role: role, is_gm: isGm, is_archived: true }));
        if (pathname === '/api/v1/characters/ch-aria/containers')
          return success(ariaContainers.map((c) => ({ ...c, can_act: false })));
        return null;
      });
      renderPage();
      expect(await screen.findByTestId('loot-party-archived')).toHaveTextContent(said);
      expect(screen.queryByTestId('cannot-take')).not.toBeInTheDocument();
      expect(screen.queryByTestId('loot-gm-panel')).not.toBeInTheDocument();
      expect(screen.getAllByTestId('loot-stack')).toHaveLength(2);
      expect(screen.queryByRole('button', { name: /^Take / })).not.toBeInTheDocument();
      expect(screen.queryByRole('button', { name: /^Claim / })).not.toBeInTheDocument();
    },
  );

  it('tells a member without a character they cannot take, with no Take or Claim', async () => {
    mockLootPage({ ...playerLoot, can_take: false }, (pathname) =>
      pathname === '/api/v1/parties/party-1' ? success(buildParty({ user_role: 'player' })) : null,
    );
    renderPage();
    expect(await screen.findByTestId('cannot-take')).toHaveTextContent(
      'You need a character in this party to take loot.',
    );
    expect(screen.queryByRole('button', { name: /^Take / })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Claim / })).not.toBeInTheDocument();
  });

  it('tells an observer it is their role that keeps them from taking, as the server does', async () => {
    // DESIGN §4: observers only read, whether or not they have a character in the party.
    mockLootPage({ ...playerLoot, can_take: false }, (pathname) =>
      pathname === '/api/v1/parties/party-1'
        ? success(buildParty({ user_role: 'observer', is_gm: false }))
        : null,
    );
    renderPage();
    await waitFor(() =>
      expect(screen.getByTestId('cannot-take')).toHaveTextContent('Observers cannot take loot.'),
    );
    expect(screen.queryByRole('button', { name: /^Take / })).not.toBeInTheDocument();
  });

  it('gives the GM Reveal, Edit, Delete, and Distribute once the loot is revealed', async () => {
    const user = userEvent.setup();
    let revealed = false;
    const fetchMock = mockLootPage(buildLootInstance(), (pathname, method) => {
      if (method === 'POST' && pathname === '/api/v1/loot_instances/loot-1/reveal') {
        revealed = true;
        return success(buildLootInstance({ is_revealed: true }));
      }
      if (method === 'GET' && pathname === '/api/v1/loot_instances/loot-1' && revealed) {
        return success(buildLootInstance({ is_revealed: true }));
      }
      return null;
    });
    renderPage();
    const panel = await screen.findByTestId('loot-gm-panel');
    expect(screen.getByTestId('loot-hidden-badge')).toHaveTextContent('Hidden');
    // Beside a long loot name it keeps its width (it was squeezed to "H." on a phone).
    expect(getComputedStyle(screen.getByTestId('loot-hidden-badge')).flexShrink).toBe('0');
    expect(within(panel).getByRole('button', { name: 'Distribute' })).toBeDisabled();
    expect(
      within(panel).getByText('Reveal this loot to the party before distributing it.'),
    ).toBeInTheDocument();
    await user.click(within(panel).getByRole('button', { name: 'Reveal Goblin Boss Hoard' }));
    await waitFor(() =>
      expect(lastToast()).toMatchObject({ kind: 'success', message: 'Loot revealed to party' }),
    );
    expect(await within(panel).findByRole('button', { name: 'Hide Goblin Boss Hoard' })).toBeInTheDocument();
    expect(within(panel).getByRole('button', { name: 'Distribute' })).toBeEnabled();
    expect(
      fetchMock.mock.calls.some(([url, init]) => init?.method === 'POST' && String(url).endsWith('/reveal')),
    ).toBe(true);

    await user.click(within(panel).getByRole('button', { name: 'Distribute' }));
    expect(await screen.findByRole('dialog', { name: 'Distribute Goblin Boss Hoard' })).toBeInTheDocument();
  });

  it.each([
    ['Edit', 'Edit Goblin Boss Hoard', 'Escape'],
    ['Edit', 'Edit Goblin Boss Hoard', 'Cancel'],
    ['Distribute', 'Distribute Goblin Boss Hoard', 'Escape'],
    ['Distribute', 'Distribute Goblin Boss Hoard', 'Close'],
  ])('gives focus back to %s once its dialog is closed (%s, %s)', async (opener, title, closeWith) => {
    const user = userEvent.setup();
    mockLootPage(buildLootInstance({ is_revealed: true }));
    renderPage();
    const panel = await screen.findByTestId('loot-gm-panel');
    await user.click(within(panel).getByRole('button', { name: opener }));
    const dialog = await screen.findByRole('dialog', { name: title });
    await waitFor(() => expect(dialog).toContainElement(document.activeElement as HTMLElement));
    if (closeWith === 'Escape') await user.keyboard('{Escape}');
    else await user.click(within(dialog).getByRole('button', { name: closeWith }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(within(panel).getByRole('button', { name: opener })).toHaveFocus());
  });

  it('gives focus to Contents once the loot is shared out, its Distribute button gone then', async () => {
    const user = userEvent.setup();
    const revealed = buildLootInstance({ is_revealed: true });
    let distributed = false;
    const distribution = (preview: boolean) => ({
      loot_instance_id: 'loot-1',
      preview,
      distribution_mode: 'even',
      seed: 7,
      recipients: [{ character_id: 'ch-aria', name: 'Aria', value_cp: 3000, items: [] }],
      conversion: null,
      overflow: false,
      total_value_cp: 3000,
      contents_fingerprint: lootContentsFingerprint(revealed.container.item_instances),
      transaction_ids: preview ? [] : ['tx-1'],
    });
    mockLootPage(revealed, (pathname, method, body) => {
      if (method === 'POST' && pathname === '/api/v1/loot_instances/loot-1/distribute') {
        const preview = (body as { distribute: { preview: boolean } }).distribute.preview;
        if (!preview) distributed = true;
        return success(distribution(preview));
      }
      if (method === 'GET' && pathname === '/api/v1/loot_instances/loot-1' && distributed) {
        return success({
          ...revealed,
          distributed_at: '2026-01-03T00:00:00.000Z',
          distribution_mode: 'even',
          container: { ...revealed.container, item_instances: [] },
          items_count: 0,
          total_value_cp: 0,
        });
      }
      return null;
    });
    renderPage();
    const panel = await screen.findByTestId('loot-gm-panel');
    const opener = within(panel).getByRole('button', { name: 'Distribute' });
    opener.focus();
    await user.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog', { name: 'Distribute Goblin Boss Hoard' });
    await within(dialog).findByRole('checkbox', { name: 'Aria' });
    within(dialog).getByRole('button', { name: 'Preview' }).focus();
    await user.keyboard('{Enter}');
    const confirm = await within(dialog).findByRole('button', { name: 'Confirm distribution' });
    confirm.focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    // Shared out once and for all (live review): no Distribute beside "already distributed", only the badge.
    expect(within(panel).queryByRole('button', { name: 'Distribute' })).not.toBeInTheDocument();
    expect(within(panel).queryByText('This loot has already been distributed.')).not.toBeInTheDocument();
    expect(within(panel).getByRole('button', { name: 'Edit' })).toBeEnabled();
    expect(screen.getByTestId('loot-distributed')).toHaveTextContent(/^Distributed · Even split/);
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Contents' })).toHaveFocus());
  });

  it('lets the GM rename the loot and say where it lies', async () => {
    const user = userEvent.setup();
    const fetchMock = mockLootPage(buildLootInstance(), (pathname, method, body) =>
      method === 'PATCH' && pathname === '/api/v1/loot_instances/loot-1'
        ? success(
            buildLootInstance({ name: (body as { loot_instance: { name: string } }).loot_instance.name }),
          )
        : null,
    );
    renderPage();
    const panel = await screen.findByTestId('loot-gm-panel');
    await user.click(within(panel).getByRole('button', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Goblin Boss Hoard' });
    const name = within(dialog).getByRole('textbox', { name: /Name/ });
    await user.clear(name);
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Loot name is required')).toBeInTheDocument();
    expect(bodiesTo(fetchMock, '/loot_instances/loot-1', 'PATCH')).toEqual([]);

    await user.type(name, 'Throne Room Hoard');
    await user.type(within(dialog).getByRole('textbox', { name: 'Location' }), 'Behind the throne');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(lastToast()).toMatchObject({ kind: 'success', message: 'Loot updated' }));
    expect(bodiesTo(fetchMock, '/loot_instances/loot-1', 'PATCH')).toEqual([
      {
        loot_instance: {
          name: 'Throne Room Hoard',
          description: 'What the goblin boss kept under his throne.',
          source: 'Goblin boss',
          location_name: 'Behind the throne',
        },
      },
    ]);
  });

  it('deletes the loot after asking, and goes back to the party’s Loot tab', async () => {
    const user = userEvent.setup();
    mockLootPage(buildLootInstance(), (pathname, method) =>
      method === 'DELETE' && pathname === '/api/v1/loot_instances/loot-1'
        ? new Response(null, { status: 204 })
        : null,
    );
    const { router } = renderPage();
    const panel = await screen.findByTestId('loot-gm-panel');
    await user.click(within(panel).getByRole('button', { name: 'Delete Goblin Boss Hoard' }));
    const dialog = await screen.findByRole('dialog');
    expect(
      within(dialog).getByText('Are you sure you want to delete this loot instance? This cannot be undone.'),
    ).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Party page')).toBeInTheDocument();
    expect(router.state.location.search).toBe('?tab=loot');
    expect(lastToast()).toMatchObject({ kind: 'success', message: 'Loot instance deleted' });
  });

  it('says "Loot Not Found" for a loot that is gone or still hidden from me', async () => {
    mockLootPage(failure(404, 'RESOURCE_NOT_FOUND', 'Loot not found.'));
    renderPage();
    expect(await screen.findByRole('heading', { name: 'Loot Not Found' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Parties' })).toHaveAttribute('href', '/parties');
  });
});

describe('LootInstancePage on a slow or dropped connection', { timeout: 20_000 }, () => {
  /** The loot page, or a dropped connection (or `gone`: a 404) for the loot once `state` says so. */
  function serve() {
    const state = { connected: true, gone: false };
    mockLootPage(playerLoot, (pathname) => {
      if (pathname !== '/api/v1/loot_instances/loot-1') return null;
      if (state.gone) return failure(404, 'RESOURCE_NOT_FOUND', 'Loot not found.');
      if (!state.connected) throw new TypeError('Failed to fetch');
      return null;
    });
    return state;
  }

  it('keeps the loot on screen when a refresh fails, and says so', async () => {
    const state = serve();
    const { queryClient } = renderPage();
    expect(await screen.findByRole('heading', { name: 'Goblin Boss Hoard' })).toBeInTheDocument();
    state.connected = false;
    await queryClient.refetchQueries({ queryKey: lootKeys.instance('loot-1') });
    await waitFor(() => expect(screen.getByTestId('refresh-failed-note')).toBeVisible(), { timeout: 5_000 });
    expect(screen.getByTestId('refresh-failed-note')).toHaveTextContent(
      'Could not refresh. Showing what was loaded before.',
    );
    expect(screen.getByRole('heading', { name: 'Goblin Boss Hoard' })).toBeInTheDocument();
    expect(screen.queryByText('Failed to load loot')).not.toBeInTheDocument();
  });

  it('still ends the page when a refresh finds the loot gone', async () => {
    const state = serve();
    const { queryClient } = renderPage();
    expect(await screen.findByRole('heading', { name: 'Goblin Boss Hoard' })).toBeInTheDocument();
    state.gone = true;
    await queryClient.refetchQueries({ queryKey: lootKeys.instance('loot-1') });
    expect(
      await screen.findByRole('heading', { name: 'Loot Not Found' }, { timeout: 5_000 }),
    ).toBeInTheDocument();
  });
});
