import { sql } from 'drizzle-orm';
import { bigint, check, index, pgTable, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { itemTemplates } from './items.js';
import { lootTemplates } from './loot.js';

/**
 * A loot item: an item template with a quantity (coins are the seeded coin templates). Kept apart from
 * loot.ts because item templates import the containers table, which imports loot instances.
 */
export const lootTemplateItems = pgTable(
  'loot_template_items',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    lootTemplateId: uuid('loot_template_id')
      .notNull()
      .references(() => lootTemplates.id, { onDelete: 'cascade' }),
    itemTemplateId: uuid('item_template_id')
      .notNull()
      .references(() => itemTemplates.id, { onDelete: 'restrict' }),
    quantity: bigint('quantity', { mode: 'number' }).notNull().default(1),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('loot_template_items_template_item_idx').on(t.lootTemplateId, t.itemTemplateId),
    index('loot_template_items_item_idx').on(t.itemTemplateId),
    check('loot_template_items_quantity_check', sql`${t.quantity} > 0`),
  ],
);
