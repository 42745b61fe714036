import {
  type Character,
  copperToGp,
  type ItemInstance,
  isSaturated,
  isUnpricedItem,
  type LootInstance,
  roundLoadWeight,
  roundWeight,
  type SharedItem,
  type SharedSnapshot,
  type SharedTotals,
  type ShopInstance,
  saturatingSum,
  shopLocationLabel,
} from '@haversack/contracts';

/** Each shared container shows at most this many stacks; the rest are counted in `more_items`. */
export const SHARED_ITEMS_PER_SECTION = 500;

/** One stack as a stranger may see it: names and numbers, never an id, a note or another owner. */
export function sharedItem(instance: ItemInstance, priceCp: number | null = null): SharedItem {
  return {
    name: instance.name,
    quantity: instance.quantity,
    weight: instance.weight,
    total_weight: roundWeight(instance.weight * instance.quantity),
    value_cp: instance.value_cp,
    total_value_cp: instance.value_cp * instance.quantity,
    price_cp: priceCp,
    is_coin: instance.item_template.coin !== null,
    is_unpriced: isUnpricedItem(instance),
  };
}

/** Each stack is exact; sums over many stacks saturate at MAX_REPORTED_SUM rather than break the page. */
export function totalsOf(items: SharedItem[]): SharedTotals {
  return {
    items_count: saturatingSum(items.filter((item) => !item.is_coin).map((item) => item.quantity)),
    // A load, to the hundredth as the character's and containers' loads are: in tenths, 40.52 lbs read 40.5.
    total_weight: roundLoadWeight(items.reduce((sum, item) => sum + item.weight * item.quantity, 0)),
    total_value_cp: saturatingSum(items.map((item) => item.total_value_cp)),
  };
}

const count = (n: number, one: string, many: string) =>
  `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
const lbs = (weight: number) => `${weight.toLocaleString('en-US')} lbs`;
/** A saturated total reads "90,071,992,547,409+ gp": the true worth is at least that. */
const gp = (copper: number) =>
  `${copperToGp(copper).toLocaleString('en-US')}${isSaturated(copper) ? '+' : ''} gp`;

/** The preview line: "Thorin's inventory: 23 items, 41 lbs, 152 gp". */
export function summaryLine(title: string, totals: SharedTotals): string {
  return `${title}: ${count(totals.items_count, 'item', 'items')}, ${lbs(totals.total_weight)}, ${gp(totals.total_value_cp)}`;
}

interface Section<T extends ItemInstance> {
  name: string;
  items: T[];
  /** How many stacks the container holds, of which `items` may be the first page. */
  total: number;
}

function sections<T extends ItemInstance>(list: Section<T>[], price?: (item: T) => number | null) {
  return list.map((section) => ({
    name: section.name,
    items: section.items
      .slice(0, SHARED_ITEMS_PER_SECTION)
      .map((item) => sharedItem(item, price ? price(item) : null)),
    more_items: Math.max(0, section.total - Math.min(section.items.length, SHARED_ITEMS_PER_SECTION)),
  }));
}

export function characterSnapshot(character: Character, containers: Section<ItemInstance>[]): SharedSnapshot {
  const shown = sections(containers);
  const totals = totalsOf(shown.flatMap((section) => section.items));
  const title = `${character.name}'s inventory`;
  const subtitle = [`Level ${character.level}`, character.race, character.character_class]
    .filter((part) => part.trim() !== '')
    .join(' ');
  return {
    kind: 'character',
    title,
    summary: summaryLine(title, totals),
    name: character.name,
    subtitle,
    totals,
    sections: shown,
  };
}

export function lootSnapshot(loot: LootInstance): SharedSnapshot {
  const items = loot.container.item_instances;
  const shown = sections([{ name: loot.name, items, total: items.length }]);
  const totals = totalsOf(shown.flatMap((section) => section.items));
  return {
    kind: 'loot',
    title: loot.name,
    summary: summaryLine(loot.name, totals),
    name: loot.name,
    description: loot.description,
    location: loot.instance_data.location_name ?? '',
    totals,
    sections: shown,
  };
}

type ShopStock = ShopInstance['container']['item_instances'][number];

/**
 * A shop's stock as its shelf in the app shows it (the web's `shelfLines` and `shelfKey`): every stack of
 * one item at one price, one weight and one value is one row with the total in stock, so backpacks (which
 * do not stack) or arrows in stacks of 20 do not fill the page with identical rows, and a stack with its own
 * weight or value keeps its own row and its own totals.
 */
function shelfRows(stock: readonly ShopStock[]): ShopStock[] {
  const rows = new Map<string, ShopStock>();
  for (const stack of stock) {
    const key = `${stack.item_template_id}:${stack.name}:${stack.buy_price_cp}:${stack.weight}:${stack.value_cp}`;
    const row = rows.get(key);
    rows.set(key, row ? { ...row, quantity: row.quantity + stack.quantity } : stack);
  }
  return [...rows.values()];
}

/**
 * A shop row as a stranger sees it: what a buyer pays, never the item's base worth (which would show the
 * GM's markup and what a private item is worth). An unpriced row (no price here) counts for nothing.
 */
function atShopPrice(item: SharedItem): SharedItem {
  const price = item.price_cp ?? 0;
  return { ...item, value_cp: price, total_value_cp: price * item.quantity };
}

export function shopSnapshot(shop: ShopInstance): SharedSnapshot {
  const items = shelfRows(shop.container.item_instances);
  const shown = sections([{ name: shop.name, items, total: items.length }], (item) => item.buy_price_cp).map(
    (section) => ({ ...section, items: section.items.map(atShopPrice) }),
  );
  const totals = totalsOf(shown.flatMap((section) => section.items));
  const where = [shop.shop_type_name, shopLocationLabel(shop.location)]
    .filter((part) => part.trim() !== '')
    .join(', ');
  const title = shop.name;
  return {
    kind: 'shop',
    title,
    summary: `${title}${where ? ` (${where})` : ''}: ${count(totals.items_count, 'item', 'items')} for sale${shop.is_active ? '' : ', closed'}`,
    name: shop.name,
    description: shop.description,
    shop_type_name: shop.shop_type_name,
    location: shop.location,
    is_open: shop.is_active,
    totals,
    sections: shown,
  };
}
