import { DndContext, KeyboardSensor, useSensor, useSensors } from '@dnd-kit/core';
import { inventoryMessages } from '@haversack/contracts';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { toast } from '../../../lib/toast';
import { failure, mockFetch, success } from '../../../test/fixtures';
import { transferMutationKey } from '../hooks/use-moving-item';
import { rarityColours } from '../lib/item-look';
import { buildContainer, buildItem, buildPartyStash, renderWithProviders } from '../test/inventory-fixtures';
import { ItemTile } from './item-tile';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function renderTile(item = buildItem(), layout: 'grid' | 'list' = 'grid') {
  renderWithProviders(
    <DndContext>
      <ItemTile item={item} layout={layout} draggable={false} onOpen={vi.fn()} />
    </DndContext>,
  );
}

describe('ItemTile', () => {
  it('shows the stack weight and its value to the copper (three rations are 1 gp 5 sp, not 1 gp)', () => {
    renderTile(buildItem({ name: 'Longsword', quantity: 2, weight: 3, totalWeight: 6, value_cp: 1500 }));
    expect(screen.getByText('6.0 lbs · 30 gp')).toBeInTheDocument();
    cleanup();
    renderTile(
      buildItem({ name: 'Copper piece', quantity: 125, weight: 0.02, totalWeight: 2.5, value_cp: 1 }),
    );
    expect(screen.getByText('2.5 lbs · 1 gp 2 sp 5 cp')).toBeInTheDocument();
  });

  it("gives a card's name its whole width: the quantity sits with the facts, the full name in its tooltip", () => {
    renderTile(
      buildItem({ name: 'Rations (1 day)', quantity: 5, weight: 2, totalWeight: 10, value_cp: 250 }),
    );
    const name = screen.getByTestId('item-tile-name');
    expect(name).toHaveTextContent(/^Rations \(1 day\)$/);
    expect(name).toHaveAttribute('title', 'Rations (1 day)');
    // Breaking at any letter let the name shrink to a letter's width beside the badge ("Ration / s").
    expect(name.style.overflowWrap).toBe('break-word');
    const facts = screen.getByTestId('item-tile-facts');
    expect(within(facts).getByText('×5')).toBeInTheDocument();
    expect(within(facts).getByText('10.0 lbs · 12 gp 5 sp')).toBeInTheDocument();
  });

  it('groups the thousands of a large stack, on a card and in a list row', () => {
    // Review (coins, 8): "×10000000" beside "100,000,000 gp".
    const coins = buildItem({ name: 'Platinum piece', quantity: 10_000_000, weight: 0.02, value_cp: 1000 });
    for (const layout of ['grid', 'list'] as const) {
      renderTile(coins, layout);
      expect(screen.getByText('×10,000,000')).toBeInTheDocument();
      expect(
        screen.getByRole('button', { name: /^Platinum piece, quantity 10,000,000/ }),
      ).toBeInTheDocument();
      cleanup();
    }
  });

  it('ends a long name in a list row after two lines, the full name in its tooltip', () => {
    const name = `Sword of ${'the very long and winding name '.repeat(6)}`.trim();
    renderTile(buildItem({ name }), 'list');
    const shown = screen.getByTestId('item-row-name');
    expect(shown).toHaveTextContent(name);
    expect(shown).toHaveAttribute('title', name);
    expect(shown.style.getPropertyValue('--text-line-clamp')).toBe('2');
  });

  it('shows a stack weight in hundredths where they count: never 0.0 lbs for 0.04, nor 0.3 for 0.25', () => {
    // totalWeight is the server's, in tenths (spec/02 §3).
    renderTile(buildItem({ name: 'Pinch of salt', quantity: 1, weight: 0.04, totalWeight: 0, value_cp: 1 }));
    expect(screen.getByText('0.04 lbs · 1 cp')).toBeInTheDocument();
    cleanup();
    renderTile(
      buildItem({ name: 'Charm', quantity: 1, weight: 0.25, totalWeight: 0.3, value_cp: 1 }),
      'list',
    );
    expect(screen.getByText('0.25 lbs · 1 cp')).toBeInTheDocument();
  });

  it('shows small change in silver or copper, never 0 gp', () => {
    renderTile(
      buildItem({ name: 'Arrow', quantity: 10, weight: 0.05, totalWeight: 0.5, value_cp: 1 }),
      'list',
    );
    expect(screen.getByText('0.5 lbs · 1 sp')).toBeInTheDocument();
  });

  it.each(['grid', 'list'] as const)(
    'in a %s says "Unpriced" for a magic item the SRD gives no price',
    (layout) => {
      renderTile(
        buildItem({
          name: 'Bag of Holding',
          quantity: 1,
          weight: 15,
          totalWeight: 15,
          value_cp: 0,
          item_template: {
            name: 'Bag of Holding',
            stack_size: 1,
            tags: [],
            metadata: { priced: false },
            coin: null,
          },
        }),
        layout,
      );
      expect(screen.getByText(`15.0 lbs · ${inventoryMessages.unpriced}`)).toBeInTheDocument();
      expect(screen.queryByText(/0 gp/)).not.toBeInTheDocument();
    },
  );
});

function TwoPanels({ onDragStart }: { onDragStart: () => void }) {
  const sensors = useSensors(
    useSensor(KeyboardSensor, { keyboardCodes: { start: ['Space'], cancel: ['Escape'], end: ['Enter'] } }),
  );
  const [both, setBoth] = useState(true);
  const item = buildItem({ name: 'Longsword', quantity: 1 });
  return (
    <DndContext sensors={sensors} onDragStart={onDragStart}>
      <section aria-label="First panel">
        <ItemTile item={item} layout="grid" draggable onOpen={vi.fn()} />
      </section>
      <section aria-label="Second panel">
        <button type="button" onClick={() => setBoth(false)}>
          Show another container
        </button>
        {both ? <ItemTile item={item} layout="grid" draggable onOpen={vi.fn()} /> : null}
      </section>
    </DndContext>
  );
}

describe('ItemTile dragging', () => {
  it('still starts a drag after the same item left the other panel (issue 12)', async () => {
    // Both panels showed one container, then the second panel's Source select picked another: its tiles
    // unmount. The first panel's tiles must still drag.
    const user = userEvent.setup();
    const onDragStart = vi.fn();
    renderWithProviders(<TwoPanels onDragStart={onDragStart} />);
    expect(screen.getAllByRole('button', { name: 'Longsword, quantity 1' })).toHaveLength(2);
    await user.click(screen.getByRole('button', { name: 'Show another container' }));
    const first = within(screen.getByRole('region', { name: 'First panel' }));
    first.getByRole('button', { name: 'Longsword, quantity 1' }).focus();
    await user.keyboard(' ');
    expect(onDragStart).toHaveBeenCalledTimes(1);
  });
});

const ring = buildItem({
  name: 'Ring of Protection',
  quantity: 1,
  tags: ['ring', 'magic', 'attunement', 'category:ring'],
  item_template: {
    name: 'Ring of Protection',
    stack_size: 1,
    tags: ['ring', 'magic', 'attunement', 'category:ring'],
    metadata: { rarity: 'rare', requires_attunement: true, category: 'ring' },
    coin: null,
  },
});

describe('ItemTile while its move is on the way', () => {
  it('shows it at once and offers no second move until the server answers', async () => {
    const item = buildItem({ id: 'stack-1', name: 'Lantern', quantity: 1 });
    const { queryClient } = renderWithProviders(
      <DndContext>
        <ItemTile
          item={item}
          layout="grid"
          draggable={false}
          onOpen={vi.fn()}
          destinations={[buildContainer({ id: 'stash', name: 'Party Stash' })]}
          onMoveTo={vi.fn()}
        />
      </DndContext>,
    );
    const tile = screen.getByRole('button', { name: 'Lantern, quantity 1' });
    expect(tile).not.toHaveAttribute('aria-busy');
    expect(screen.getByRole('button', { name: 'Move Lantern to...' })).toBeEnabled();
    // A move of this stack, waiting for its answer (it never comes in this test).
    let settle: () => void = () => undefined;
    const waiting = queryClient.getMutationCache().build(queryClient, {
      mutationKey: transferMutationKey,
      mutationFn: () =>
        new Promise<void>((resolve) => {
          settle = resolve;
        }),
    });
    void waiting.execute({
      itemInstanceId: 'stack-1',
      sourceContainerId: 'c1',
      targetContainerId: 'stash',
      quantity: 1,
    });
    const moving = await screen.findByRole('button', { name: 'Lantern, quantity 1, moving' });
    expect(moving).toHaveAttribute('aria-busy', 'true');
    expect(screen.getByTestId('item-tile-moving')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Move Lantern to...' })).toBeDisabled();
    settle();
    expect(await screen.findByRole('button', { name: 'Lantern, quantity 1' })).not.toHaveAttribute(
      'aria-busy',
    );
  });
});

describe('ItemTile looks (issue 12 §6)', () => {
  it('shows the category icon and the rarity in its colour', () => {
    renderTile(ring);
    const tile = screen.getByRole('button', { name: 'Ring of Protection, quantity 1' });
    expect(tile.querySelector('svg[data-icon]')?.getAttribute('data-icon')).toBe('diamond-ring');
    const rarity = screen.getByText('Rare').closest('[data-rarity]');
    expect(rarity?.getAttribute('data-rarity')).toBe('rare');
    expect(rarity?.getAttribute('style')).toContain(rarityColours.rare.light);
  });

  it('shows the rarity in a list row too, as a phone always lists', () => {
    renderTile(ring, 'list');
    expect(screen.getByText('Rare').closest('[data-rarity]')?.getAttribute('data-rarity')).toBe('rare');
  });

  it('gives an item of no known category a bag', () => {
    renderTile(
      buildItem({ item_template: { name: 'Thing', stack_size: 1, tags: [], metadata: {}, coin: null } }),
    );
    expect(document.querySelector('svg[data-icon]')?.getAttribute('data-icon')).toBe('swap-bag');
  });
});

describe('ItemTile equipment (issue 12 §5)', () => {
  it('shows Equipped and Attuned badges and says so to a screen reader', () => {
    renderTile({ ...ring, instance_data: { is_equipped: true, is_attuned: true } });
    expect(screen.getByText('Equipped')).toBeInTheDocument();
    expect(screen.getByText('Attuned')).toBeInTheDocument();
    expect(
      screen.getByRole('button', { name: 'Ring of Protection, quantity 1, equipped, attuned' }),
    ).toBeInTheDocument();
  });

  function renderWithActions(item = ring) {
    const backpack = buildContainer({ id: item.container_id });
    renderWithProviders(
      <DndContext>
        <ItemTile
          item={item}
          layout="grid"
          draggable={false}
          onOpen={vi.fn()}
          destinations={[backpack, buildContainer({ id: 'pouch', name: 'Pouch', is_primary: false })]}
          onMoveTo={vi.fn()}
        />
      </DndContext>,
    );
  }

  it('attunes from the tile menu and shows the limit when a fourth is refused', async () => {
    const fetchMock = mockFetch(() =>
      failure(422, 'VALIDATION_ERROR', inventoryMessages.attunementLimit, [
        { field: 'item_instance.instance_data.is_attuned', message: inventoryMessages.attunementLimit },
      ]),
    );
    const toastError = vi.spyOn(toast, 'error');
    const user = userEvent.setup();
    renderWithActions();
    await user.click(screen.getByRole('button', { name: 'More actions for Ring of Protection' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Attune' }));
    await vi.waitFor(() => expect(toastError).toHaveBeenCalledWith(inventoryMessages.attunementLimit));
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(String(url)).toBe('/api/v1/item_instances/item-1');
    expect(JSON.parse(String(init?.body))).toEqual({
      item_instance: { instance_data: { is_attuned: true } },
    });
  });

  it('offers no Attune for an item that does not require it, but Equip and Give to...', async () => {
    const user = userEvent.setup();
    renderWithActions(
      buildItem({
        name: 'Rope',
        item_template: {
          name: 'Rope',
          stack_size: 1,
          tags: [],
          metadata: { requires_attunement: false },
          coin: null,
        },
      }),
    );
    await user.click(screen.getByRole('button', { name: 'More actions for Rope' }));
    const items = (await screen.findAllByRole('menuitem')).map((item) => item.textContent);
    expect(items).toEqual(['Equip', 'Give to...']);
    // A menu holds menu items only (axe aria-required-children): no unnamed focus placeholder in it.
    expect(screen.getByRole('menu').querySelector('[role="presentation"]')).toBeNull();
  });

  it('puts the item in the transfer queue from its "More actions" menu, as a phone\'s swipe left does', async () => {
    const user = userEvent.setup();
    const onAddToQueue = vi.fn();
    const onQueue = vi.fn();
    const rope = buildItem({
      name: 'Rope',
      item_template: { name: 'Rope', stack_size: 1, tags: [], metadata: {}, coin: null },
    });
    renderWithProviders(
      <DndContext>
        <ItemTile
          item={rope}
          layout="list"
          draggable={false}
          swipe={{ onQuickTransfer: vi.fn(), onAddToQueue }}
          onQueue={onQueue}
          onOpen={vi.fn()}
          destinations={[
            buildContainer({ id: rope.container_id }),
            buildContainer({ id: 'pouch', name: 'Pouch' }),
          ]}
          onMoveTo={vi.fn()}
        />
      </DndContext>,
    );
    await user.click(screen.getByRole('button', { name: 'More actions for Rope' }));
    const items = (await screen.findAllByRole('menuitem')).map((item) => item.textContent);
    expect(items).toEqual(['Add to Queue', 'Equip', 'Give to...']);
    await user.click(screen.getByRole('menuitem', { name: 'Add to Queue' }));
    expect(onQueue.mock.calls.length + onAddToQueue.mock.calls.length).toBe(1);
  });

  it('offers Add to Queue for a stack in a party stash, which has no character to equip or give', async () => {
    const user = userEvent.setup();
    const onQueue = vi.fn();
    const stash = buildPartyStash({ id: 'party-1', name: 'Night Watch' });
    const rope = buildItem({ name: 'Rope', container_id: stash.id });
    renderWithProviders(
      <DndContext>
        <ItemTile
          item={rope}
          layout="list"
          draggable={false}
          swipe={{ onQuickTransfer: vi.fn(), onAddToQueue: onQueue }}
          onQueue={onQueue}
          onOpen={vi.fn()}
          destinations={[stash, buildContainer({ id: 'pouch', name: 'Pouch' })]}
          onMoveTo={vi.fn()}
        />
      </DndContext>,
    );
    await user.click(screen.getByRole('button', { name: 'More actions for Rope' }));
    const items = (await screen.findAllByRole('menuitem')).map((item) => item.textContent);
    expect(items).toEqual(['Add to Queue']);
    await user.click(screen.getByRole('menuitem', { name: 'Add to Queue' }));
    expect(onQueue).toHaveBeenCalledTimes(1);
  });

  it('offers coins neither Equip nor Attune, only Give to...', async () => {
    const user = userEvent.setup();
    renderWithActions(
      buildItem({
        name: 'Gold piece',
        quantity: 40,
        item_template: { name: 'Gold piece', stack_size: 0, tags: ['currency'], metadata: {}, coin: 'gp' },
      }),
    );
    await user.click(screen.getByRole('button', { name: 'More actions for Gold piece' }));
    const items = (await screen.findAllByRole('menuitem')).map((item) => item.textContent);
    expect(items).toEqual(['Give to...']);
  });

  it('draws its menus on their first use only, and opens them on that first press', async () => {
    const user = userEvent.setup();
    renderWithActions();
    const more = screen.getByRole('button', { name: 'More actions for Ring of Protection' });
    const move = screen.getByRole('button', { name: 'Move Ring of Protection to...' });
    for (const button of [more, move]) {
      expect(button).toHaveAttribute('aria-haspopup', 'menu');
      expect(button).toHaveAttribute('aria-expanded', 'false');
    }
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
    await user.click(move);
    expect(await screen.findByRole('menuitem', { name: /Pouch/ })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Move Ring of Protection to...' })).toHaveAttribute(
      'aria-expanded',
      'true',
    );
  });

  it('gives focus back to the "More actions" button when Escape closes its menu, as a menu button does', async () => {
    const user = userEvent.setup();
    renderWithActions();
    await user.click(screen.getByRole('button', { name: 'More actions for Ring of Protection' }));
    await screen.findByRole('menuitem', { name: 'Attune' });
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('menu')).not.toBeInTheDocument());
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'More actions for Ring of Protection' })).toHaveFocus(),
    );
  });

  it.each(['m', '{Shift>}{F10}{/Shift}'])(
    'names the "Move to..." menu after the item when %s opens it from the tile',
    async (keys) => {
      const user = userEvent.setup();
      renderWithActions();
      screen.getByRole('button', { name: /^Ring of Protection, quantity 1/ }).focus();
      await user.keyboard(keys);
      expect(await screen.findByRole('menu', { name: 'Move Ring of Protection to...' })).toBeInTheDocument();
    },
  );

  it('has no such menu for a container the user may not change', () => {
    renderWithProviders(
      <DndContext>
        <ItemTile
          item={ring}
          layout="grid"
          draggable={false}
          onOpen={vi.fn()}
          destinations={[buildContainer({ can_act: false })]}
        />
      </DndContext>,
    );
    expect(
      screen.queryByRole('button', { name: 'More actions for Ring of Protection' }),
    ).not.toBeInTheDocument();
  });

  it('keeps "Move to..." inside a phone\'s width: long container names wrap instead of widening the page', async () => {
    const user = userEvent.setup();
    const longName = 'Bag of Holding of the Archmage Mordenkainen the Magnificent';
    renderWithProviders(
      <DndContext>
        <ItemTile
          item={ring}
          layout="grid"
          draggable={false}
          onOpen={vi.fn()}
          destinations={[
            buildContainer({ id: ring.container_id }),
            buildContainer({ id: 'bag', name: longName, is_primary: false }),
          ]}
          onMoveTo={vi.fn()}
        />
      </DndContext>,
    );
    await user.click(screen.getByRole('button', { name: 'Move Ring of Protection to...' }));
    const menu = await screen.findByRole('menu', { name: 'Move Ring of Protection to...' });
    // The review measured the menu 696 px wide on a 375 px phone: the page scrolled sideways.
    expect(menu.style.maxWidth).toContain('100vw - 2rem');
    const item = screen.getByRole('menuitem', { name: `${longName} (Aria)` });
    expect(item).toHaveStyle({ whiteSpace: 'normal' });
    const label = item.querySelector<HTMLElement>('.mantine-Menu-itemLabel');
    expect(label?.style.overflowWrap).toBe('anywhere');
  });

  describe('Move to... into a party stash', () => {
    const stash = buildPartyStash({ id: 'party-1', name: 'The Silver Lantern' });
    const pouch = buildContainer({ id: 'pouch', name: 'Pouch', is_primary: false });

    /** My ring with the move menu open; check_feature answers `allowed` for the party. */
    async function openMoveMenu(allowed: boolean, item = ring) {
      const fetchMock = mockFetch(({ url, init }) =>
        url === '/api/v1/subscription/check_feature' && init.method === 'POST'
          ? success({ allowed, feature: 'party_collaboration' })
          : failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${url}`),
      );
      const onMoveTo = vi.fn();
      const user = userEvent.setup();
      renderWithProviders(
        <DndContext>
          <ItemTile
            item={item}
            layout="grid"
            draggable={false}
            onOpen={vi.fn()}
            destinations={[buildContainer({ id: ring.container_id }), pouch, stash]}
            onMoveTo={onMoveTo}
          />
        </DndContext>,
      );
      await user.click(screen.getByRole('button', { name: `Move ${item.name} to...` }));
      await screen.findByRole('menu');
      return { fetchMock, onMoveTo, user };
    }

    it('shows the stash disabled, with why and the way to upgrade, when my plan lacks party collaboration', async () => {
      const { fetchMock, onMoveTo, user } = await openMoveMenu(false);
      const stashItem = await screen.findByRole('menuitem', { name: /Party Stash/ });
      await waitFor(() => expect(stashItem).toBeDisabled());
      expect(stashItem).toHaveTextContent('Party collaboration is not included in your plan');
      expect(screen.getByRole('menuitem', { name: /Pouch/ })).toBeEnabled();
      expect(screen.getByRole('menuitem', { name: 'See upgrade options' })).toHaveAttribute(
        'href',
        '/subscription/upgrade?feature=party_collaboration',
      );
      await user.click(stashItem);
      expect(onMoveTo).not.toHaveBeenCalled();
      expect(JSON.parse(String(fetchMock.mock.calls[0]?.[1]?.body))).toEqual({
        feature: 'party_collaboration',
        party_id: 'party-1',
      });
    });

    it('offers the stash when my plan (or a patron’s) includes party collaboration', async () => {
      const { fetchMock, onMoveTo, user } = await openMoveMenu(true);
      await waitFor(() => expect(fetchMock).toHaveBeenCalled());
      const stashItem = screen.getByRole('menuitem', { name: /Party Stash/ });
      expect(stashItem).toBeEnabled();
      expect(screen.queryByRole('menuitem', { name: 'See upgrade options' })).not.toBeInTheDocument();
      await user.click(stashItem);
      expect(onMoveTo).toHaveBeenCalledWith('stash-1');
    });

    it('locks every move out of the stash too, as the server refuses those as well', async () => {
      await openMoveMenu(false, { ...ring, container_id: 'stash-1' });
      await waitFor(() => expect(screen.getByRole('menuitem', { name: /Pouch/ })).toBeDisabled());
      expect(screen.getByRole('menuitem', { name: /Backpack/ })).toBeDisabled();
    });
  });
});
