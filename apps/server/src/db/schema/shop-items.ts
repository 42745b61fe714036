import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, pgTable, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { itemTemplates } from './items.js';
import { shopTemplates } from './shops.js';

/**
 * A shop item: an item template with a quantity, an optional price of its own (copper) and the stock a
 * restock tops it up to. Kept apart from shops.ts because item templates import the containers table,
 * which imports shop instances.
 */
export const shopTemplateItems = pgTable(
  'shop_template_items',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    shopTemplateId: uuid('shop_template_id')
      .notNull()
      .references(() => shopTemplates.id, { onDelete: 'cascade' }),
    itemTemplateId: uuid('item_template_id')
      .notNull()
      .references(() => itemTemplates.id, { onDelete: 'restrict' }),
    quantity: integer('quantity').notNull().default(1),
    priceCp: bigint('price_cp', { mode: 'number' }),
    restockQuantity: integer('restock_quantity'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('shop_template_items_template_item_idx').on(t.shopTemplateId, t.itemTemplateId),
    index('shop_template_items_item_idx').on(t.itemTemplateId),
    check('shop_template_items_quantity_check', sql`${t.quantity} >= 0`),
    check('shop_template_items_price_check', sql`${t.priceCp} is null or ${t.priceCp} >= 0`),
    check(
      'shop_template_items_restock_check',
      sql`${t.restockQuantity} is null or ${t.restockQuantity} >= 0`,
    ),
  ],
);
