import type { ShopInstance, ShopItem, ShopRequest, ShopStockItem, ShopTemplate } from '@haversack/contracts';
import { buildContainer, buildItem } from '../../inventory/test/inventory-fixtures';
import { buildLootItemTemplate } from '../../loot/test/loot-fixtures';
import type { Trader } from '../hooks/use-trader';

const now = '2026-01-01T00:00:00.000Z';

/** A shop template as the server sends it; override what the test is about. */
export function buildShopTemplate(overrides: Partial<ShopTemplate> = {}): ShopTemplate {
  const name = overrides.name ?? 'The Wayfarer’s General Store';
  return {
    id: 'shop-template-1',
    name,
    owner: 'Marta',
    location: 'marketplace',
    description: 'Rope, rations and everything a traveller forgets.',
    shop_type: 'general',
    shop_type_name: 'General Store',
    average_rating: null,
    ratings_count: 0,
    my_rating: null,
    buy_modifier: 1,
    sell_modifier: 0.5,
    default_restock_days: 7,
    tag_list: ['Equipment'],
    visibility: 'public',
    name_override: null,
    owner_override: null,
    location_override: null,
    description_override: null,
    display_name: name,
    display_owner: overrides.owner ?? 'Marta',
    display_location: overrides.location ?? 'marketplace',
    display_description: 'Rope, rations and everything a traveller forgets.',
    items_count: 12,
    creator_id: null,
    creator_name: null,
    is_system: true,
    is_owner: false,
    created_at: now,
    updated_at: now,
    ...overrides,
  };
}

/** A ware of a shop template: `name` from the catalogue, at `buyCp` a piece. */
export function buildShopItem(name: string, overrides: Partial<ShopItem> = {}): ShopItem {
  const template = buildLootItemTemplate({ id: `template-${name}`, name });
  return {
    id: `ware-${name}`,
    shop_template_id: 'shop-template-1',
    item_template_id: template.id,
    item_template: template,
    quantity: 10,
    price_cp: null,
    restock_quantity: null,
    buy_price_cp: 200,
    sell_price_cp: 100,
    available: true,
    ...overrides,
  };
}

/** A shop line as the server sends it when its item is private to someone else: nothing of the item. */
export function buildHiddenShopItem(overrides: Partial<ShopItem> = {}): ShopItem {
  return {
    ...buildShopItem('hidden'),
    item_template: null,
    buy_price_cp: null,
    sell_price_cp: null,
    available: false,
    ...overrides,
  };
}

export function buildStockItem(overrides: Partial<ShopStockItem> = {}): ShopStockItem {
  return {
    ...buildItem({
      id: 'stock-1',
      name: 'Backpack',
      displayName: 'Backpack',
      quantity: 5,
      value: 2,
      value_cp: 200,
      currency: 'gp',
      container_id: 'shop-container-1',
    }),
    buy_price_cp: 200,
    sell_price_cp: 100,
    has_own_price: false,
    ...overrides,
  };
}

export function buildShopInstance(overrides: Partial<ShopInstance> = {}): ShopInstance {
  return {
    id: 'shop-1',
    shop_template_id: 'shop-template-1',
    party_id: 'party-1',
    name: 'The Wayfarer’s General Store',
    description: '',
    owner: 'Marta',
    location: 'marketplace',
    shop_type: 'general',
    shop_type_name: 'General Store',
    is_active: true,
    discount_rate: 0,
    buy_modifier: 1,
    sell_modifier: 0.5,
    currency: 'gp',
    restock_days: 7,
    next_restock_at: null,
    tag_list: ['Equipment'],
    shop_template: { id: 'shop-template-1', name: 'The Wayfarer’s General Store' },
    party: { id: 'party-1', name: 'The Lantern Bearers' },
    container: { id: 'shop-container-1', name: 'Shop stock', item_instances: [buildStockItem()] },
    items_count: 1,
    can_manage: false,
    can_trade: true,
    own_prices_cp: {},
    created_at: now,
    updated_at: now,
    ...overrides,
  };
}

/** A purchase waiting for the GM's approval (issue 10 §8). */
export function buildShopRequest(overrides: Partial<ShopRequest> = {}): ShopRequest {
  return {
    id: 'request-1',
    shop_instance_id: 'shop-1',
    party_id: 'party-1',
    status: 'pending',
    requester: { id: 'user-2', name: 'pip' },
    character: { id: 'character-1', name: 'Pip Thistledown' },
    buyer_container_id: 'container-1',
    payment_source: 'character',
    payer_container_id: 'container-1',
    hold_container_id: 'hold-1',
    item_template_id: 'template-1',
    item_name: 'Longsword',
    quantity: 1,
    unit_price_cp: 1500,
    total_price_cp: 1500,
    formatted: '15 gp',
    decided_by: null,
    decided_at: null,
    reason: '',
    can_decide: true,
    can_cancel: false,
    created_at: now,
    updated_at: now,
    ...overrides,
  };
}

/** Aria's pack, where a trader's goods and coins go in these tests. */
export const ariasPack = buildContainer({
  id: 'c-pack',
  owner: { type: 'character', id: 'ch-aria', name: 'Aria' },
});

/** A trader who has chosen Aria's pack and whose coins are not loaded. */
export function buildTrader(overrides: Partial<Trader> = {}): Trader {
  return {
    isPending: false,
    hasCharacter: true,
    isError: false,
    retry: () => undefined,
    containers: [ariasPack],
    container: ariasPack,
    characterId: 'ch-aria',
    choose: () => undefined,
    coins: null,
    coinsPending: false,
    ...overrides,
  };
}
