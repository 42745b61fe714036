import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts.js';
import { characters } from './characters.js';
import { containers } from './inventory.js';
import { parties } from './parties.js';
import { shopInstances } from './shops.js';

/**
 * Issue 10 §8 "shopping while the GM is away": a purchase above the shop's approval threshold. Its goods
 * wait in a hold container of the shop (moved there through the ledger); coins move only on approval.
 */
export const shopRequests = pgTable(
  'shop_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    shopInstanceId: uuid('shop_instance_id')
      .notNull()
      .references(() => shopInstances.id, { onDelete: 'cascade' }),
    partyId: uuid('party_id')
      .notNull()
      .references(() => parties.id, { onDelete: 'cascade' }),
    status: text('status', { enum: ['pending', 'approved', 'declined', 'cancelled'] })
      .notNull()
      .default('pending'),
    requesterId: uuid('requester_id').references(() => users.id, { onDelete: 'set null' }),
    requesterName: text('requester_name').notNull(),
    characterId: uuid('character_id').references(() => characters.id, { onDelete: 'set null' }),
    characterName: text('character_name').notNull(),
    buyerContainerId: uuid('buyer_container_id').references(() => containers.id, { onDelete: 'set null' }),
    paymentSource: text('payment_source', { enum: ['character', 'party'] })
      .notNull()
      .default('character'),
    payerContainerId: uuid('payer_container_id').references(() => containers.id, { onDelete: 'set null' }),
    holdContainerId: uuid('hold_container_id').references(() => containers.id, { onDelete: 'set null' }),
    itemTemplateId: uuid('item_template_id'),
    itemName: text('item_name').notNull(),
    quantity: integer('quantity').notNull(),
    unitPriceCp: bigint('unit_price_cp', { mode: 'number' }).notNull(),
    totalPriceCp: bigint('total_price_cp', { mode: 'number' }).notNull(),
    decidedById: uuid('decided_by_id').references(() => users.id, { onDelete: 'set null' }),
    decidedByName: text('decided_by_name'),
    reason: text('reason').notNull().default(''),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('shop_requests_shop_status_idx').on(t.shopInstanceId, t.status),
    index('shop_requests_party_idx').on(t.partyId),
    index('shop_requests_requester_idx').on(t.requesterId),
    check('shop_requests_quantity_check', sql`${t.quantity} > 0`),
    check('shop_requests_price_check', sql`${t.unitPriceCp} >= 0 and ${t.totalPriceCp} >= 0`),
  ],
);
