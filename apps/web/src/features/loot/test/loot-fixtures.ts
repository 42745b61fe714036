import type { ItemInstance, ItemTemplate, LootInstance, LootItem, LootTemplate } from '@haversack/contracts';
import { buildItem } from '../../inventory/test/inventory-fixtures';

const now = '2026-01-01T00:00:00.000Z';

/** An item template as the server sends it inside a loot item; override what the test is about. */
export function buildLootItemTemplate(overrides: Partial<ItemTemplate> = {}): ItemTemplate {
  return {
    id: 'item-template-1',
    name: 'Longsword',
    description: 'A versatile martial blade.',
    weight: 3,
    base_value: 15,
    currency: 'gp',
    value_cp: 1500,
    visibility: 'public',
    stack_size: 1,
    stackable: false,
    metadata: {},
    tags: ['weapon'],
    category: 'weapon',
    is_currency: false,
    rating: null,
    creator_id: null,
    creator_name: null,
    is_system: true,
    is_owner: false,
    created_at: now,
    updated_at: now,
    ...overrides,
  };
}

/** A loot item (a line of a loot template): by default 2 longswords worth 15 gp each. */
export function buildLootItem(overrides: Partial<LootItem> = {}): LootItem {
  const itemTemplate = overrides.item_template ?? buildLootItemTemplate();
  const quantity = overrides.quantity ?? 2;
  const valueCp = overrides.value_cp ?? itemTemplate.value_cp;
  return {
    id: 'loot-item-1',
    loot_template_id: 'loot-template-1',
    item_template_id: itemTemplate.id,
    item_template: itemTemplate,
    quantity,
    coin: null,
    value_cp: valueCp,
    total_value_cp: valueCp * quantity,
    available: true,
    ...overrides,
  };
}

/** A loot line of coins, e.g. buildCoinLootItem('gp', 250) is "250 gp". */
export function buildCoinLootItem(
  currency: NonNullable<LootItem['coin']>,
  quantity: number,
  overrides: Partial<LootItem> = {},
): LootItem {
  const valueCp = { cp: 1, sp: 10, ep: 50, gp: 100, pp: 1000 }[currency];
  const names = {
    cp: 'Copper Piece',
    sp: 'Silver Piece',
    ep: 'Electrum Piece',
    gp: 'Gold Piece',
    pp: 'Platinum Piece',
  };
  return buildLootItem({
    id: `loot-item-${currency}`,
    item_template: buildLootItemTemplate({
      id: `coin-${currency}`,
      name: names[currency],
      description: '',
      weight: 0.02,
      base_value: 1,
      currency,
      value_cp: valueCp,
      stack_size: 0,
      stackable: true,
      tags: ['currency'],
      category: 'currency',
      is_currency: true,
    }),
    coin: currency,
    quantity,
    value_cp: valueCp,
    total_value_cp: valueCp * quantity,
    available: true,
    ...overrides,
  });
}

/** A loot line as the server sends it when its item is private to someone else: nothing of the item. */
export function buildHiddenLootItem(overrides: Partial<LootItem> = {}): LootItem {
  return {
    id: 'loot-item-hidden',
    loot_template_id: 'loot-template-1',
    item_template_id: 'item-template-hidden',
    item_template: null,
    quantity: 3,
    coin: null,
    value_cp: null,
    total_value_cp: null,
    available: false,
    ...overrides,
  };
}

/** A loot template as the server sends it; by default one of mine, private, with no items loaded. */
export function buildLootTemplate(overrides: Partial<LootTemplate> = {}): LootTemplate {
  return {
    id: 'loot-template-1',
    name: 'Goblin Boss Hoard',
    description: 'What the goblin boss kept under his throne.',
    source_type: 'monster',
    source_type_name: 'Monster',
    source: 'Goblin boss',
    tag_list: ['goblin'],
    visibility: 'private',
    items_count: 2,
    item_units: 2,
    coin_units: 0,
    total_value_cp: 3000,
    creator_id: 'user-1',
    creator_name: 'ranger',
    is_system: false,
    is_owner: true,
    created_at: now,
    updated_at: now,
    ...overrides,
  };
}

/**
 * Loot deployed to a party; by default hidden, managed by me (the GM), holding 2 longswords. Its item and
 * coin units are counted from its stacks, as the server counts them, unless given.
 */
export function buildLootInstance(overrides: Partial<LootInstance> = {}): LootInstance {
  const loot: Omit<LootInstance, 'item_units' | 'coin_units'> = {
    id: 'loot-1',
    loot_template_id: 'loot-template-1',
    loot_template: { id: 'loot-template-1', name: 'Goblin Boss Hoard' },
    party_id: 'party-1',
    party: { id: 'party-1', name: 'The Copper Lanterns' },
    name: 'Goblin Boss Hoard',
    description: 'What the goblin boss kept under his throne.',
    source: 'Goblin boss',
    source_type: 'monster',
    is_revealed: false,
    revealed_at: null,
    instance_data: { location_name: null },
    claimed_by: [],
    distributed_at: null,
    distribution_mode: null,
    container: {
      id: 'loot-container-1',
      name: 'Goblin Boss Hoard',
      item_instances: [
        buildItem({
          id: 'loot-stack-1',
          name: 'Longsword',
          displayName: 'Longsword (2)',
          quantity: 2,
          weight: 3,
          totalWeight: 6,
          value: 15,
          value_cp: 1500,
          totalValue: 30,
          currency: 'gp',
          tags: ['weapon'],
          item_template_id: 'item-template-1',
          item_template: { name: 'Longsword', stack_size: 1, tags: ['weapon'], metadata: {}, coin: null },
          container_id: 'loot-container-1',
        }),
      ],
    },
    items_count: 1,
    total_value_cp: 3000,
    can_manage: true,
    can_take: false,
    created_at: now,
    updated_at: now,
    ...overrides,
  };
  const stacks = loot.container.item_instances;
  const units = (coins: boolean) =>
    stacks.reduce(
      (sum, stack) => ((stack.item_template.coin !== null) === coins ? sum + stack.quantity : sum),
      0,
    );
  return {
    ...loot,
    item_units: overrides.item_units ?? units(false),
    coin_units: overrides.coin_units ?? units(true),
  };
}

/** A stack inside a loot's container, worth `valueCp` each; `coin` makes it one of the seeded coins. */
export function buildLootStack(
  name: string,
  quantity: number,
  valueCp: number,
  overrides: Partial<ItemInstance> & { coin?: ItemInstance['item_template']['coin'] } = {},
): ItemInstance {
  const { coin = null, ...rest } = overrides;
  const slug = name.toLowerCase().replaceAll(' ', '-');
  const tags = coin ? ['currency'] : [];
  return buildItem({
    id: `loot-stack-${slug}`,
    name,
    displayName: quantity > 1 ? `${name} (${quantity})` : name,
    quantity,
    weight: coin ? 0.02 : 1,
    totalWeight: (coin ? 0.02 : 1) * quantity,
    // `value` is in the template's own currency: a coin is worth 1 of itself.
    value: coin ? 1 : Math.floor(valueCp / 100),
    value_cp: valueCp,
    totalValue: coin ? quantity : Math.floor((valueCp * quantity) / 100),
    currency: coin ?? 'gp',
    tags,
    item_template_id: `template-${slug}`,
    item_template: { name, stack_size: coin ? 0 : 1, tags, metadata: {}, coin },
    container_id: 'loot-container-1',
    ...rest,
  });
}

/** The system loot "Sunken Chest" as deployed: 150 gp, 400 sp, 30 ep, a spyglass, 2 potions, a lock. */
export function sunkenChestStacks(): ItemInstance[] {
  return [
    buildLootStack('Electrum piece', 30, 50, { coin: 'ep' }),
    buildLootStack('Gold piece', 150, 100, { coin: 'gp' }),
    buildLootStack('Lock', 1, 1000),
    buildLootStack('Potion of Healing', 2, 5000),
    buildLootStack('Silver piece', 400, 10, { coin: 'sp' }),
    buildLootStack('Spyglass', 1, 100_000),
  ];
}
