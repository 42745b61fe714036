import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { failure, jsonResponse, mockFetch, success } from '../../../test/fixtures';
import { buildCharacter, pageMeta } from '../../../test/party-fixtures';
import { restoreViewportAfterEach, setViewport } from '../../../test/viewport';
import { buildContainer, buildPartyStash, renderWithProviders } from '../test/inventory-fixtures';
import { PartyInventory, partyCollaborationMissing, partyInventoryUnavailable } from './party-inventory';

restoreViewportAfterEach();
afterEach(() => vi.unstubAllGlobals());

const party = { id: '00000000-0000-4000-8000-0000000000aa', name: 'The Silver Lantern', is_gm: false };
const hero = buildCharacter({
  id: '00000000-0000-4000-8000-0000000000c1',
  is_owner: true,
  party_id: party.id,
});

const stash = buildContainer({ id: '00000000-0000-4000-8000-0000000000d1', name: 'Party Stash' });
const backpack = buildContainer({ name: 'Backpack' });

/** The party's API at the network boundary; check_feature answers `allowed`; every container is empty. */
function partyServer(allowed: boolean) {
  return mockFetch(({ url, init }) => {
    const path = new URL(url, 'http://test').pathname.replace('/api/v1', '');
    if (path === '/characters') {
      return jsonResponse(200, { status: 'success', data: [hero], meta: pageMeta(1, 100) });
    }
    if (path === `/parties/${party.id}/containers`) return success([stash]);
    if (path === `/characters/${hero.id}/containers`) return success([backpack]);
    const container = [stash, backpack].find((c) => path.startsWith(`/containers/${c.id}`));
    if (container && path.endsWith('/items')) {
      return jsonResponse(200, { status: 'success', data: [], meta: pageMeta(0, 20) });
    }
    if (container) return success(container);
    if (init.method === 'POST' && path === '/subscription/check_feature') {
      return success({ allowed, feature: 'party_collaboration' });
    }
    return failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${path}`);
  });
}

describe('PartyInventory', () => {
  it('says up front that changing the stash needs party collaboration, with the way to upgrade', async () => {
    const fetchMock = partyServer(false);
    renderWithProviders(<PartyInventory party={party} />);

    const prompt = await screen.findByTestId('upgrade-prompt');
    expect(prompt).toHaveTextContent('Party collaboration is not included in your plan');
    expect(prompt).toHaveTextContent(partyCollaborationMissing);
    expect(screen.getByRole('link', { name: 'See upgrade options' })).toHaveAttribute(
      'href',
      '/subscription/upgrade?feature=party_collaboration',
    );
    const check = fetchMock.mock.calls.find(([url]) => String(url).endsWith('/subscription/check_feature'));
    expect(JSON.parse(String(check?.[1]?.body))).toEqual({
      feature: 'party_collaboration',
      party_id: party.id,
    });
    // The server would refuse a party container: the button that makes one is not offered.
    expect(await screen.findByRole('button', { name: 'New Container' })).toBeDisabled();
  });

  it('shows no prompt when the plan in this party includes it', async () => {
    partyServer(true);
    renderWithProviders(<PartyInventory party={party} />);
    // spec/02 §2: the workspace is "Inventory Management", the party's name below it.
    const heading = await screen.findByRole('heading', { name: 'Inventory Management' });
    expect(heading).toHaveAccessibleDescription(party.name);
    expect(screen.queryByTestId('upgrade-prompt')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'New Container' })).toBeEnabled();
  });

  it.each([
    // spec/02 §2: "Market" in one column, "Marketplace" in the two-column workspace.
    [1280, 'Marketplace'],
    [375, 'Market'],
  ])('at %i px points an empty container to the tab as it is labelled there: %s', async (width, tab) => {
    setViewport(width, 800);
    partyServer(true);
    renderWithProviders(<PartyInventory party={party} />);
    expect((await screen.findAllByRole('tab', { name: tab, selected: false })).length).toBeGreaterThan(0);
    const hints = await screen.findAllByText(
      `Add items from the ${tab} tab, or move them here from another container.`,
    );
    expect(hints.length).toBeGreaterThan(0);
    expect(screen.queryByText(/from the Market tab/)).toBe(tab === 'Market' ? hints[0] : null);
  });

  it('offers the GM every character’s containers, a player only their own', async () => {
    const other = buildCharacter({
      id: '00000000-0000-4000-8000-0000000000c2',
      name: 'Brom',
      is_owner: false,
      party_id: party.id,
    });
    const bromsPack = buildContainer({
      id: '00000000-0000-4000-8000-0000000000d3',
      name: 'Saddlebag',
      owner: { type: 'character', id: other.id, name: 'Brom' },
    });
    const asked: string[] = [];
    const serve = () =>
      mockFetch(({ url }) => {
        const path = new URL(url, 'http://test').pathname.replace('/api/v1', '');
        asked.push(path);
        if (path === '/characters')
          return jsonResponse(200, { status: 'success', data: [hero, other], meta: pageMeta(2, 100) });
        if (path === `/parties/${party.id}/containers`) return success([stash]);
        if (path === `/characters/${hero.id}/containers`) return success([backpack]);
        if (path === `/characters/${other.id}/containers`) return success([bromsPack]);
        if (path.endsWith('/items'))
          return jsonResponse(200, { status: 'success', data: [], meta: pageMeta(0, 20) });
        if (path === '/subscription/check_feature') return success({ allowed: true, feature: 'x' });
        return failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${path}`);
      });
    serve();
    const { unmount } = renderWithProviders(<PartyInventory party={{ ...party, is_gm: true }} />);
    await screen.findByRole('heading', { name: 'Inventory Management' });
    expect(asked).toContain(`/characters/${other.id}/containers`);
    unmount();

    asked.length = 0;
    serve();
    renderWithProviders(<PartyInventory party={party} />);
    await screen.findByRole('heading', { name: 'Inventory Management' });
    expect(asked).not.toContain(`/characters/${other.id}/containers`);
  });

  it('opens the workspace for a GM without a character, on the stash and every player’s containers', async () => {
    // DESIGN §4 Who may act: the GM acts on every container of the party, and hands out starting items.
    setViewport(1280, 800);
    const aria = buildCharacter({
      id: '00000000-0000-4000-8000-0000000000c3',
      name: 'Aria',
      is_owner: false,
      party_id: party.id,
    });
    const ariasPack = buildContainer({
      id: '00000000-0000-4000-8000-0000000000d4',
      name: 'Backpack',
      owner: { type: 'character', id: aria.id, name: 'Aria' },
    });
    const partyStash = buildPartyStash(party, { id: stash.id });
    mockFetch(({ url }) => {
      const path = new URL(url, 'http://test').pathname.replace('/api/v1', '');
      if (path === '/characters')
        return jsonResponse(200, { status: 'success', data: [aria], meta: pageMeta(1, 100) });
      if (path === `/parties/${party.id}/containers`) return success([partyStash]);
      if (path === `/characters/${aria.id}/containers`) return success([ariasPack]);
      if (path.endsWith('/items'))
        return jsonResponse(200, { status: 'success', data: [], meta: pageMeta(0, 20) });
      if (path === '/subscription/check_feature') return success({ allowed: true, feature: 'x' });
      return failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${path}`);
    });
    renderWithProviders(<PartyInventory party={{ ...party, is_gm: true }} />);
    expect(await screen.findByRole('heading', { name: 'Inventory Management' })).toBeInTheDocument();
    expect(screen.queryByTestId('party-inventory-unavailable')).not.toBeInTheDocument();
    // The stash on the left, Aria's backpack beside it to move things into.
    expect(
      await screen.findByRole('region', { name: 'First panel: Party Stash (The Silver Lantern)' }),
    ).toBeInTheDocument();
    expect(await screen.findByRole('region', { name: 'Second panel: Backpack (Aria)' })).toBeInTheDocument();
  });

  it('adds from the Marketplace to the party stash by default, named in full on a line of its own (review newgm M2)', async () => {
    // The GM stocking the stash from the left panel's Marketplace must not fill the player's backpack
    // shown on the right (it was the default, and "Backpack (Cora Brightke…" was all it said).
    setViewport(1280, 800);
    const cora = buildCharacter({
      id: '00000000-0000-4000-8000-0000000000c5',
      name: 'Cora Brightkey',
      is_owner: false,
      party_id: party.id,
    });
    const corasPack = buildContainer({
      id: '00000000-0000-4000-8000-0000000000d5',
      name: 'Backpack',
      owner: { type: 'character', id: cora.id, name: 'Cora Brightkey' },
    });
    const partyStash = buildPartyStash(party, { id: stash.id });
    mockFetch(({ url }) => {
      const path = new URL(url, 'http://test').pathname.replace('/api/v1', '');
      if (path === '/characters')
        return jsonResponse(200, { status: 'success', data: [cora], meta: pageMeta(1, 100) });
      if (path === `/parties/${party.id}/containers`) return success([partyStash]);
      if (path === `/characters/${cora.id}/containers`) return success([corasPack]);
      if (path.endsWith('/items'))
        return jsonResponse(200, { status: 'success', data: [], meta: pageMeta(0, 20) });
      if (path === '/subscription/check_feature') return success({ allowed: true, feature: 'x' });
      return failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${path}`);
    });
    const user = userEvent.setup();
    renderWithProviders(<PartyInventory party={{ ...party, is_gm: true }} />);
    const second = await screen.findByRole('region', { name: 'Second panel: Backpack (Cora Brightkey)' });
    const first = screen.getByRole('region', { name: 'First panel: Party Stash (The Silver Lantern)' });

    for (const panel of [first, second]) {
      await user.click(within(panel).getByRole('tab', { name: 'Marketplace' }));
      const addTo = await within(panel).findByRole('combobox', { name: 'Add to' });
      expect((addTo as HTMLInputElement).value).toMatch(/^Party Stash \(The Silver Lantern\) · /);
      // Not squeezed beside the search box: the destination has the panel's width to itself.
      const search = within(panel).getByRole('textbox', { name: 'Search the marketplace' });
      // (No row around the field at all is as good: it then has a line of its own.)
      expect(addTo.closest('.mantine-Group-root')?.contains(search) ?? false).toBe(false);
    }
  });

  it('offers to create a character in this party to a player without one, with the spec’s message', async () => {
    // Another player's character is in the party; none is mine, and I am not its GM.
    const theirs = buildCharacter({ id: 'character-theirs', is_owner: false, party_id: party.id });
    mockFetch(({ url }) =>
      new URL(url, 'http://test').pathname === '/api/v1/characters'
        ? jsonResponse(200, { status: 'success', data: [theirs], meta: pageMeta(1, 100) })
        : failure(404, 'RESOURCE_NOT_FOUND', 'none'),
    );
    renderWithProviders(<PartyInventory party={party} />);
    expect(await screen.findByTestId('party-inventory-unavailable')).toHaveTextContent(
      partyInventoryUnavailable,
    );
    expect(screen.queryByRole('heading', { name: 'Inventory Management' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Create a character in this party' })).toHaveAttribute(
      'href',
      `/characters/new?party_id=${party.id}`,
    );
  });

  it('says the characters failed to load, with Try Again, rather than that I have none', async () => {
    let down = true;
    const working = partyServer(true);
    mockFetch(({ url, init }) =>
      down && new URL(url, 'http://test').pathname === '/api/v1/characters'
        ? failure(500, 'INTERNAL_SERVER_ERROR', 'boom')
        : working(url, init),
    );
    renderWithProviders(<PartyInventory party={party} />);
    const panel = await screen.findByTestId('error-panel', {}, { timeout: 10_000 });
    expect(panel).toHaveTextContent('Failed to load party inventory');
    expect(screen.queryByTestId('party-inventory-unavailable')).not.toBeInTheDocument();
    down = false;
    await userEvent.click(within(panel).getByRole('button', { name: 'Try Again' }));
    expect(await screen.findByRole('heading', { name: 'Inventory Management' })).toBeInTheDocument();
  }, 20_000);
});
