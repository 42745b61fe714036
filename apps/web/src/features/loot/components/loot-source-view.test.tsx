import { DndContext } from '@dnd-kit/core';
import { lootMessages } from '@haversack/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { failure, jsonResponse, mockFetch, success } from '../../../test/fixtures';
import { buildParty } from '../../../test/party-fixtures';
import { type ItemFilters, noItemFilters } from '../../inventory/api/inventory-api';
import { buildContainer, buildItem, renderWithProviders } from '../../inventory/test/inventory-fixtures';
import { buildLootInstance } from '../test/loot-fixtures';
import {
  LootSourceView,
  type LootSourceViewProps,
  noRevealedLootMessage,
  partyLootLoadFailed,
} from './loot-source-view';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const partyId = 'party-1';
const backpack = buildContainer();
const potion = buildItem({
  id: 'loot-stack-2',
  name: 'Potion of Healing',
  quantity: 3,
  container_id: 'loot-container-1',
  item_template: { name: 'Potion of Healing', stack_size: 10, tags: [], metadata: {}, coin: null },
});
const sword = buildItem({
  id: 'loot-stack-1',
  name: 'Longsword',
  quantity: 2,
  container_id: 'loot-container-1',
  item_template: { name: 'Longsword', stack_size: 1, tags: [], metadata: {}, coin: null },
});
/** What a player sees: revealed loot they may take from. */
const hoard = buildLootInstance({
  is_revealed: true,
  can_manage: false,
  can_take: true,
  source: 'Goblin boss',
  instance_data: { location_name: 'Throne room' },
  items_count: 2,
  container: { id: 'loot-container-1', name: 'Goblin Boss Hoard', item_instances: [sword, potion] },
});
const chest = buildLootInstance({
  id: 'loot-2',
  name: 'Sunken Chest',
  is_revealed: true,
  can_manage: false,
  can_take: true,
  items_count: 0,
  container: { id: 'loot-container-2', name: 'Sunken Chest', item_instances: [] },
});

/** The loot API at the network boundary. */
function lootServer(
  instances: ReturnType<typeof buildLootInstance>[],
  detail?: () => Response,
  role: 'player' | 'observer' = 'player',
) {
  return mockFetch(({ url }) => {
    const { pathname } = new URL(url, 'http://test');
    if (pathname === `/api/v1/parties/${partyId}`) {
      return success(buildParty({ id: partyId, user_role: role, is_gm: false }));
    }
    if (pathname === `/api/v1/parties/${partyId}/loot_instances`) {
      return jsonResponse(200, {
        status: 'success',
        data: instances,
        meta: { current_page: 1, total_pages: 1, total_count: instances.length, per_page: 100 },
      });
    }
    const found = instances.find((l) => pathname === `/api/v1/loot_instances/${l.id}`);
    if (found) return detail ? detail() : success(found);
    return failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${pathname}`);
  });
}

function renderView(overrides: Partial<LootSourceViewProps> = {}) {
  const props: LootSourceViewProps = {
    partyId,
    lootId: null,
    onSelect: vi.fn(),
    filters: noItemFilters,
    layout: 'grid',
    draggable: false,
    swipeable: false,
    destinations: [backpack],
    onOpen: vi.fn(),
    onQuickTransfer: vi.fn(),
    onAddToQueue: vi.fn(),
    onTake: vi.fn(),
    ...overrides,
  };
  renderWithProviders(
    <DndContext>
      <LootSourceView {...props} />
    </DndContext>,
  );
  return props;
}

const tileNames = () => screen.getAllByTestId('item-tile').map((tile) => tile.getAttribute('data-item-name'));

describe('LootSourceView', { timeout: 20_000 }, () => {
  it('lists the party’s loot as sources and shows the chosen loot’s items like a container’s', async () => {
    lootServer([hoard, chest]);
    const props = renderView({ lootId: hoard.id });

    expect(await screen.findByTestId('workspace-loot')).toBeInTheDocument();
    await waitFor(() => expect(tileNames()).toEqual(['Longsword', 'Potion of Healing']));
    expect(screen.getByRole('combobox', { name: 'Loot' })).toHaveValue('Goblin Boss Hoard · 2 items');
    expect(screen.getByText('Goblin boss · Throne room')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Open loot page' })).toHaveAttribute(
      'href',
      `/loot/instances/${hoard.id}`,
    );
    expect(screen.queryByTestId('loot-take-blocked')).not.toBeInTheDocument();

    const user = userEvent.setup();
    await user.click(screen.getByRole('combobox', { name: 'Loot' }));
    await user.click(await screen.findByRole('option', { name: 'Sunken Chest · 0 items' }));
    expect(props.onSelect).toHaveBeenCalledWith(chest.id);

    // Opening a stack hands it over with where it comes from.
    await user.click(screen.getByRole('button', { name: 'Potion of Healing, quantity 3' }));
    expect(props.onOpen).toHaveBeenCalledWith(potion, {
      lootId: hoard.id,
      lootName: hoard.name,
      partyId,
      blocked: null,
    });
  });

  it('chooses the first loot when none is chosen yet', async () => {
    lootServer([hoard, chest]);
    const props = renderView();
    await waitFor(() => expect(props.onSelect).toHaveBeenCalledWith(hoard.id));
  });

  it('honours the workspace search', async () => {
    lootServer([hoard]);
    const filters: ItemFilters = { ...noItemFilters, search: 'potion' };
    renderView({ lootId: hoard.id, filters });
    await waitFor(() => expect(tileNames()).toEqual(['Potion of Healing']));
  });

  it('offers "Take to..." on each stack, into my containers', async () => {
    lootServer([hoard]);
    const props = renderView({ lootId: hoard.id });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Take Longsword to...' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Backpack (Aria)' }));
    expect(props.onTake).toHaveBeenCalledWith(
      sword,
      expect.objectContaining({ lootId: hoard.id, blocked: null }),
      backpack.id,
    );
  });

  it('says when the party has no loot it may see yet', async () => {
    lootServer([]);
    renderView();
    expect(await screen.findByTestId('workspace-no-loot')).toHaveTextContent(noRevealedLootMessage);
    expect(screen.queryByRole('combobox', { name: 'Loot' })).not.toBeInTheDocument();
  });

  it('says "No items found." for a loot with nothing left in it', async () => {
    lootServer([chest]);
    renderView({ lootId: chest.id });
    expect(await screen.findByTestId('items-empty')).toHaveTextContent(/^No items found\.$/);
  });

  it('shows the GM’s hidden loot marked Hidden, and nothing may be taken from it', async () => {
    const hidden = buildLootInstance({ id: 'loot-3', name: 'Dragon Hoard', items_count: 1 });
    lootServer([hidden]);
    const props = renderView({ lootId: hidden.id });

    const view = await screen.findByTestId('workspace-loot');
    expect(screen.getByRole('combobox', { name: 'Loot' })).toHaveValue('Dragon Hoard · Hidden · 1 item');
    expect(await within(view).findByTestId('loot-take-blocked')).toHaveTextContent(lootMessages.notRevealed);
    expect(within(view).getByText(lootMessages.hiddenBadge)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /to\.\.\.$/ })).not.toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Longsword, quantity 2' }));
    expect(props.onOpen).toHaveBeenCalledWith(
      expect.objectContaining({ id: 'loot-stack-1' }),
      expect.objectContaining({ blocked: lootMessages.notRevealed }),
    );
  });

  it('tells someone without a character in the party that they cannot take', async () => {
    lootServer([{ ...hoard, can_take: false }]);
    renderView({ lootId: hoard.id });
    expect(await screen.findByTestId('loot-take-blocked')).toHaveTextContent(lootMessages.cannotTake);
    expect(screen.queryByRole('button', { name: 'Take Longsword to...' })).not.toBeInTheDocument();
  });

  it('tells an observer it is their role that keeps them from taking, as the server does', async () => {
    // DESIGN §4: observers only read, whether or not they have a character in the party.
    lootServer([{ ...hoard, can_take: false }], undefined, 'observer');
    renderView({ lootId: hoard.id });
    await waitFor(() =>
      expect(screen.getByTestId('loot-take-blocked')).toHaveTextContent(lootMessages.observerCannotTake),
    );
    expect(screen.queryByRole('button', { name: 'Take Longsword to...' })).not.toBeInTheDocument();
  });

  it('offers every loot of the party in its picker, the 101st too', async () => {
    // A GM with 120 loots saw the first 100 (one page of the list) and could not pick the others.
    const loots = Array.from({ length: 120 }, (_, index) =>
      buildLootInstance({
        id: `loot-${index + 1}`,
        name: `Hoard ${index + 1}`,
        is_revealed: true,
        can_take: true,
        items_count: 0,
        container: { id: `loot-container-${index + 1}`, name: `Hoard ${index + 1}`, item_instances: [] },
      }),
    );
    mockFetch(({ url }) => {
      const { pathname, searchParams } = new URL(url, 'http://test');
      if (pathname === `/api/v1/parties/${partyId}/loot_instances`) {
        const page = Number(searchParams.get('page') ?? 1);
        const perPage = Number(searchParams.get('per_page') ?? 20);
        return jsonResponse(200, {
          status: 'success',
          data: loots.slice((page - 1) * perPage, page * perPage),
          meta: {
            current_page: page,
            total_pages: Math.ceil(loots.length / perPage),
            total_count: loots.length,
            per_page: perPage,
          },
        });
      }
      const found = loots.find((l) => pathname === `/api/v1/loot_instances/${l.id}`);
      if (found) return success(found);
      return failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${pathname}`);
    });
    const props = renderView({ lootId: 'loot-1' });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('combobox', { name: 'Loot' }));
    // By its text, not its role: naming 120 options by role takes seconds in jsdom.
    const listbox = await screen.findByRole('listbox');
    expect(listbox.querySelectorAll('[role="option"]')).toHaveLength(120);
    await user.click(within(listbox).getByText('Hoard 101 · 0 items'));
    expect(props.onSelect).toHaveBeenCalledWith('loot-101');
  });

  it('shows an error with Try Again when the party’s loot cannot be loaded', async () => {
    const fetchMock = mockFetch(() => failure(500, 'INTERNAL_ERROR', 'Boom'));
    renderView();
    const error = await screen.findByTestId('error-panel', {}, { timeout: 5000 });
    expect(error).toHaveTextContent('Boom');
    const calls = fetchMock.mock.calls.length;
    await userEvent.setup().click(within(error).getByRole('button', { name: 'Try Again' }));
    await waitFor(() => expect(fetchMock.mock.calls.length).toBeGreaterThan(calls));
  });

  it('shows an error when the chosen loot cannot be loaded', async () => {
    lootServer([hoard], () => failure(404, 'RESOURCE_NOT_FOUND', lootMessages.instanceNotFound));
    renderView({ lootId: hoard.id });
    const error = await screen.findByTestId('error-panel');
    expect(error).toHaveTextContent('Unable to load loot');
    expect(error).toHaveTextContent(lootMessages.instanceNotFound);
    expect(error).not.toHaveTextContent(partyLootLoadFailed);
    expect(screen.getByRole('combobox', { name: 'Loot' })).toBeInTheDocument();
  });
});
