import { asc, getTableColumns, isNotNull } from 'drizzle-orm';
import type { Executor } from './client.js';
import { itemTemplates } from './schema/items.js';
import { lootTemplates } from './schema/loot.js';
import { lootTemplateItems } from './schema/loot-items.js';
import { shopTemplateItems } from './schema/shop-items.js';
import { shopTemplates } from './schema/shops.js';

/**
 * What a seed changed in templates that existed before it. Item instances read their name, weight and
 * value from their template: a seed that corrects an SRD item changes, at once, every such item already
 * carried, and with it the loads of those who carry them. The start says so (main.ts).
 */
export interface SeedChanges {
  /** System item templates the seed changed, and of how many of them each field. */
  itemTemplates: { updated: number; fields: Partial<Record<ItemField, number>> };
  /** System shop and loot templates whose own fields or lines the seed changed. */
  shopTemplates: number;
  lootTemplates: number;
}

/** The item fields an operator is told about, in the order they are told: what a load is made of first. */
const itemFields = {
  weight: (t) => [t.weight],
  stackSize: (t) => [t.stackSize],
  value: (t) => [t.baseValue, t.currency],
  name: (t) => [t.name],
  description: (t) => [t.description],
  details: (t) => [t.tags, t.metadata, t.visibility],
} satisfies Record<string, (t: typeof itemTemplates.$inferSelect) => unknown[]>;
type ItemField = keyof typeof itemFields;

/** The system templates as the database holds them, each field (or template) as comparable text. */
export interface CatalogueSnapshot {
  items: Map<string, Record<ItemField, string>>;
  shops: Map<string, string>;
  loot: Map<string, string>;
}

/**
 * Reads the seeded templates by system key. Both snapshots a seed compares come from the database, so a
 * value reads the same whether the seed rewrote it or not (numerics, arrays, jsonb); ids, timestamps and
 * the order of lines, which a seed rewrites without changing anything, are left out.
 */
export async function readSystemCatalogue(db: Executor): Promise<CatalogueSnapshot> {
  const items = new Map<string, Record<ItemField, string>>();
  for (const row of await db.select().from(itemTemplates).where(isNotNull(itemTemplates.systemKey))) {
    if (!row.systemKey) continue;
    const fields = Object.fromEntries(
      Object.entries(itemFields).map(([field, read]) => [field, JSON.stringify(read(row))]),
    ) as Record<ItemField, string>;
    items.set(row.systemKey, fields);
  }

  const {
    id: _shopId,
    createdAt: _shopCreated,
    updatedAt: _shopUpdated,
    ...shopColumns
  } = getTableColumns(shopTemplates);
  const shopLines = await db
    .select({
      templateId: shopTemplateItems.shopTemplateId,
      line: {
        itemTemplateId: shopTemplateItems.itemTemplateId,
        quantity: shopTemplateItems.quantity,
        priceCp: shopTemplateItems.priceCp,
        restockQuantity: shopTemplateItems.restockQuantity,
      },
    })
    .from(shopTemplateItems)
    .orderBy(asc(shopTemplateItems.itemTemplateId));
  const shops = signatures(
    await db
      .select({ id: shopTemplates.id, ...shopColumns })
      .from(shopTemplates)
      .where(isNotNull(shopTemplates.systemKey)),
    shopLines,
  );

  const {
    id: _lootId,
    createdAt: _lootCreated,
    updatedAt: _lootUpdated,
    ...lootColumns
  } = getTableColumns(lootTemplates);
  const lootLines = await db
    .select({
      templateId: lootTemplateItems.lootTemplateId,
      line: { itemTemplateId: lootTemplateItems.itemTemplateId, quantity: lootTemplateItems.quantity },
    })
    .from(lootTemplateItems)
    .orderBy(asc(lootTemplateItems.itemTemplateId));
  const loot = signatures(
    await db
      .select({ id: lootTemplates.id, ...lootColumns })
      .from(lootTemplates)
      .where(isNotNull(lootTemplates.systemKey)),
    lootLines,
  );
  return { items, shops, loot };
}

/** A template's fields and lines as one text, by system key. */
function signatures(
  templates: ({ id: string; systemKey: string | null } & Record<string, unknown>)[],
  lines: { templateId: string; line: Record<string, unknown> }[],
): Map<string, string> {
  const linesOf = new Map<string, unknown[]>();
  for (const { templateId, line } of lines) {
    const list = linesOf.get(templateId) ?? [];
    list.push(line);
    linesOf.set(templateId, list);
  }
  const result = new Map<string, string>();
  for (const { id, systemKey, ...fields } of templates) {
    if (systemKey) result.set(systemKey, JSON.stringify([fields, linesOf.get(id) ?? []]));
  }
  return result;
}

/** The templates of `before` that read otherwise in `after`: added ones are no change to anything carried. */
export function catalogueChanges(before: CatalogueSnapshot, after: CatalogueSnapshot): SeedChanges {
  const fields: Partial<Record<ItemField, number>> = {};
  let updated = 0;
  for (const [key, was] of before.items) {
    const now = after.items.get(key);
    if (!now) continue;
    const changed = (Object.keys(itemFields) as ItemField[]).filter((field) => was[field] !== now[field]);
    if (changed.length === 0) continue;
    updated += 1;
    for (const field of changed) fields[field] = (fields[field] ?? 0) + 1;
  }
  const changedOf = (was: Map<string, string>, now: Map<string, string>) =>
    [...was].filter(([key, text]) => now.has(key) && now.get(key) !== text).length;
  return {
    itemTemplates: { updated, fields },
    shopTemplates: changedOf(before.shops, after.shops),
    lootTemplates: changedOf(before.loot, after.loot),
  };
}

const fieldWords: Record<ItemField, [string, string]> = {
  weight: ['weight', 'weights'],
  stackSize: ['stack size', 'stack sizes'],
  value: ['value', 'values'],
  name: ['name', 'names'],
  description: ['description', 'descriptions'],
  details: ['set of tags or details', 'sets of tags or details'],
};

const counted = (n: number, [one, many]: [string, string]) => `${n} ${n === 1 ? one : many}`;

/** The start's line about a seed that changed existing templates; null when it changed none. */
export function describeSeedChanges(changes: SeedChanges): string | null {
  const { itemTemplates: items, shopTemplates: shops, lootTemplates: loot } = changes;
  const parts: string[] = [];
  if (items.updated > 0) {
    const fields = (Object.keys(fieldWords) as ItemField[])
      .filter((field) => (items.fields[field] ?? 0) > 0)
      .map((field) => counted(items.fields[field] ?? 0, fieldWords[field]));
    parts.push(
      `${counted(items.updated, ['item template', 'item templates'])} of the SRD 5.1 catalogue (${fields.join(', ')})`,
    );
  }
  if (shops > 0) parts.push(counted(shops, ['shop template', 'shop templates']));
  if (loot > 0) parts.push(counted(loot, ['loot template', 'loot templates']));
  if (parts.length === 0) return null;
  const listed = parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
  // Shop and loot templates are only what deploying one starts from: nothing carried changed with them.
  if (items.updated === 0) return `seed data updated ${listed}`;
  return `seed data updated ${listed}; items already carried follow their template: their weight and value, and so characters' loads, can change`;
}
