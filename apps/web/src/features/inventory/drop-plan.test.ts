import { inventoryMessages, shopMessages } from '@haversack/contracts';
import { describe, expect, it } from 'vitest';
import type { DraggedShopItem } from '../shops/components/shop-source-view';
import { dropElsewhere, noRoomFor, planDrop, sellElsewhere } from './drop-plan';
import { buildContainer, buildPartyStash } from './test/inventory-fixtures';
import type { DraggedItem, DraggedLootItem, DraggedTemplate, DropZone } from './workspace-types';

const myItem: DraggedItem = {
  kind: 'item',
  itemId: 'item-1',
  containerId: 'backpack',
  quantity: 20,
  name: 'Arrow',
  weight: 0.05,
};
const template: DraggedTemplate = {
  kind: 'template',
  templateId: 'template-1',
  templateName: 'Rope',
  weight: 10,
};
const lootItem: DraggedLootItem = {
  kind: 'loot-item',
  lootId: 'loot-1',
  lootName: 'Goblin Boss Hoard',
  partyId: 'party-1',
  blocked: null,
  itemId: 'loot-stack-1',
  name: 'Longsword',
  quantity: 2,
  weight: 3,
};
const shopItem: DraggedShopItem = {
  kind: 'shop-item',
  shopId: 'shop-1',
  shopName: 'General Store',
  itemId: 'stock-1',
  name: 'Rope',
  quantity: 5,
  shelf: 'rope:Rope:100',
  unitCp: 100,
  weight: 10,
};

const containerZone: DropZone = { side: 'right', kind: 'container', containerId: 'quiver' };
const lootZone: DropZone = { side: 'right', kind: 'loot', containerId: 'quiver', lootId: 'loot-2' };
const shopZone: DropZone = { side: 'right', kind: 'shop', containerId: 'quiver', shopId: 'shop-1' };
const marketZone: DropZone = { side: 'right', kind: 'marketplace', containerId: 'quiver' };

describe('planDrop (spec/02 §4 allowed transfers)', () => {
  it('refuses to buy an unpriced shop item the shop has no price for, and buys a priced one', () => {
    const unpriced: DraggedShopItem = { ...shopItem, name: 'Bag of Holding', unitCp: null };
    expect(planDrop(unpriced, containerZone)).toEqual({
      kind: 'refuse',
      message: shopMessages.unpricedNotForSale,
    });
    expect(planDrop(shopItem, containerZone)).toEqual({ kind: 'buy', item: shopItem, containerId: 'quiver' });
  });

  it('takes a loot stack dropped on a container', () => {
    expect(planDrop(lootItem, containerZone)).toEqual({
      kind: 'take',
      item: lootItem,
      containerId: 'quiver',
    });
  });

  it.each([
    ['a container item on loot', myItem, lootZone, 'Unsupported transfer type: container to loot'],
    ['loot on another loot', lootItem, lootZone, 'Unsupported transfer type: loot to loot'],
    ['loot on a shop', lootItem, shopZone, 'Unsupported transfer type: loot to shop'],
    ['loot on the marketplace', lootItem, marketZone, 'Unsupported transfer type: loot to marketplace'],
    ['a shop item on loot', shopItem, lootZone, 'Unsupported transfer type: shop to loot'],
    ['a marketplace item on loot', template, lootZone, 'Unsupported transfer type: marketplace to loot'],
  ])('refuses %s', (_what, dragged, zone, message) => {
    expect(planDrop(dragged, zone)).toEqual({ kind: 'refuse', message });
  });

  it('does nothing when a loot stack is dropped back on its own loot, or nowhere', () => {
    expect(planDrop(lootItem, { ...lootZone, lootId: 'loot-1' })).toEqual({ kind: 'none' });
    expect(planDrop(lootItem, undefined)).toEqual({ kind: 'none' });
  });

  it('keeps the other transfers as they were', () => {
    expect(planDrop(myItem, containerZone)).toEqual({
      kind: 'transfer',
      item: myItem,
      containerId: 'quiver',
    });
    expect(planDrop(myItem, { ...containerZone, containerId: 'backpack' })).toEqual({ kind: 'none' });
    expect(planDrop(myItem, shopZone)).toEqual({ kind: 'sell', item: myItem, shopId: 'shop-1' });
    expect(planDrop(template, containerZone)).toEqual({ kind: 'add', template, containerId: 'quiver' });
    expect(planDrop(shopItem, containerZone)).toEqual({ kind: 'buy', item: shopItem, containerId: 'quiver' });
    expect(planDrop(myItem, { ...containerZone, containerId: null })).toEqual({
      kind: 'refuse',
      message: inventoryMessages.transferFailed,
    });
  });

  it('stops a drop into or out of a stash the plan cannot reach, before anything is asked', () => {
    const stashZone: DropZone = { side: 'right', kind: 'container', containerId: 'stash' };
    const locked = new Set(['stash']);
    const fromStash: DraggedItem = { ...myItem, containerId: 'stash' };
    expect(planDrop(myItem, stashZone, locked)).toEqual({ kind: 'locked', containerId: 'stash' });
    expect(planDrop(template, stashZone, locked)).toEqual({ kind: 'locked', containerId: 'stash' });
    expect(planDrop(lootItem, stashZone, locked)).toEqual({ kind: 'locked', containerId: 'stash' });
    expect(planDrop(shopItem, stashZone, locked)).toEqual({ kind: 'locked', containerId: 'stash' });
    expect(planDrop(fromStash, containerZone, locked)).toEqual({ kind: 'locked', containerId: 'stash' });
    expect(planDrop(fromStash, shopZone, locked)).toEqual({ kind: 'locked', containerId: 'stash' });
    // A stash that is only the panel's container behind a shop or loot tab is not touched by a sale.
    expect(planDrop(myItem, { ...shopZone, containerId: 'stash' }, locked).kind).toBe('sell');
    expect(planDrop(myItem, stashZone, new Set()).kind).toBe('transfer');
  });
});

describe('noRoomFor (a drag over a container with no room by weight)', () => {
  // 50 lbs at most, 49.96 used: one arrow (0.05 lb) does not fit, one gold piece (0.02 lb) does.
  const quiver = buildContainer({
    id: 'quiver',
    name: 'Quiver',
    capacity: { used: 49.96, max: 50, slots_used: 1, slots_max: 20, enforces: { weight: true, slots: true } },
  });
  const containerOf = (id: string) => (id === quiver.id ? quiver : undefined);

  it('gives the refusal the drop would get, with what one weighs and what is left', () => {
    const expected = `${inventoryMessages.weightExceeded} (0.05 lbs each, only 0.04 lbs left)`;
    expect(noRoomFor(planDrop(myItem, containerZone), containerOf)).toBe(expected);
    expect(noRoomFor(planDrop({ ...template, weight: 0.05 }, containerZone), containerOf)).toBe(expected);
    expect(noRoomFor(planDrop({ ...lootItem, weight: 0.05 }, containerZone), containerOf)).toBe(expected);
    expect(noRoomFor(planDrop({ ...shopItem, weight: 0.05 }, containerZone), containerOf)).toBe(expected);
  });

  it('says nothing while one still fits, or weight does not limit the container', () => {
    expect(noRoomFor(planDrop({ ...myItem, weight: 0.02 }, containerZone), containerOf)).toBeNull();
    const unlimited = {
      ...quiver,
      capacity: { ...quiver.capacity, enforces: { weight: false, slots: true } },
    };
    expect(noRoomFor(planDrop(myItem, containerZone), () => unlimited)).toBeNull();
    expect(noRoomFor(planDrop(myItem, containerZone), () => undefined)).toBeNull();
  });

  it('says nothing where the drop puts nothing in a container: a sale, a refusal, the same container', () => {
    expect(noRoomFor(planDrop(myItem, shopZone), containerOf)).toBeNull();
    expect(noRoomFor(planDrop(myItem, lootZone), containerOf)).toBeNull();
    expect(noRoomFor(planDrop({ ...myItem, containerId: 'quiver' }, containerZone), containerOf)).toBeNull();
  });
});

describe('dropElsewhere', () => {
  const stash = buildPartyStash({ id: 'party-1', name: 'Lantern Road' });
  const rook = (id: string, name: string) =>
    buildContainer({ id, name, owner: { type: 'character', id: 'ch-rook', name: 'Rook Ironside' } });

  it('says what to do, naming the one character whose containers take it', () => {
    const containers = [rook('c-pack', 'Backpack'), rook('c-pouch', 'Belt Pouch'), stash];
    expect(dropElsewhere('buy', containers)).toBe('Drop it on one of Rook Ironside’s containers to buy it.');
    expect(dropElsewhere('take', containers)).toBe(
      'Drop it on one of Rook Ironside’s containers to take it.',
    );
  });

  it('speaks of my characters when there are several, or none to name', () => {
    const quill = buildContainer({ id: 'c-q', owner: { type: 'character', id: 'ch-q', name: 'Quill' } });
    expect(dropElsewhere('buy', [rook('c-pack', 'Backpack'), quill])).toBe(
      'Drop it on one of your characters’ containers to buy it.',
    );
    expect(dropElsewhere('take', [stash])).toBe('Drop it on one of your characters’ containers to take it.');
  });
});

describe('sellElsewhere', () => {
  it('says a shop buys only from a character, and where to move the item first', () => {
    const stash = buildPartyStash({ id: 'party-1', name: 'Lantern Road' });
    const pack = buildContainer({
      id: 'c-pack',
      owner: { type: 'character', id: 'ch-rook', name: 'Rook Ironside' },
    });
    expect(sellElsewhere([pack, stash])).toBe(
      'A shop buys only from your characters: move it into one of Rook Ironside’s containers first.',
    );
    expect(sellElsewhere([stash])).toBe(
      'A shop buys only from your characters: move it into one of your characters’ containers first.',
    );
  });
});
