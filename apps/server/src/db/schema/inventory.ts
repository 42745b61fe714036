import type { ChangeSource } from '@haversack/contracts';
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './accounts.js';
import { characters } from './characters.js';
import { lootInstances } from './loot.js';
import { parties } from './parties.js';
import { shopInstances } from './shops.js';

/** DESIGN §4: a container belongs to exactly one owner. */
export const containers = pgTable(
  'containers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    characterId: uuid('character_id').references(() => characters.id, { onDelete: 'cascade' }),
    partyId: uuid('party_id').references(() => parties.id, { onDelete: 'cascade' }),
    /** A shop's stock (DESIGN §4); reached only through the shop's own routes. */
    shopInstanceId: uuid('shop_instance_id').references(() => shopInstances.id, { onDelete: 'cascade' }),
    /** A loot instance's contents (DESIGN §4); reached only through the loot's own routes. */
    lootInstanceId: uuid('loot_instance_id').references(() => lootInstances.id, { onDelete: 'cascade' }),
    isPrimary: boolean('is_primary').notNull().default(false),
    maxWeight: numeric('max_weight', { precision: 10, scale: 2, mode: 'number' }),
    maxSlots: integer('max_slots'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('containers_character_idx').on(t.characterId),
    index('containers_party_idx').on(t.partyId),
    index('containers_shop_instance_idx').on(t.shopInstanceId),
    index('containers_loot_instance_idx').on(t.lootInstanceId),
    check(
      'containers_one_owner',
      sql`num_nonnulls(${t.characterId}, ${t.partyId}, ${t.shopInstanceId}, ${t.lootInstanceId}) = 1`,
    ),
  ],
);

/**
 * The ledger (spec/02 §3 Transaction, DESIGN §4): every change of quantity, owner or existence of an item,
 * and character/container creation and deletion, with name snapshots that outlive what they name.
 */
export const transactions = pgTable(
  'transactions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    transactionType: text('transaction_type').notNull(),
    partyId: uuid('party_id'),
    characterId: uuid('character_id'),
    actorId: uuid('actor_id').references(() => users.id, { onDelete: 'set null' }),
    actorName: text('actor_name'),
    targetName: text('target_name'),
    /**
     * What `target_name` names (a character, party, shop or loot; no foreign key: the row outlives it).
     * Null on rows written before migration 0021, whose target the API reads as the row's character or
     * party; migration 0024 filled it in where such a row's destination belonged to another character.
     */
    targetId: uuid('target_id'),
    itemTemplateId: uuid('item_template_id'),
    itemInstanceId: uuid('item_instance_id'),
    itemName: text('item_name'),
    // 64-bit: a hoard of 3,000,000 pp is 3e9 cp, past a 32-bit column (JS numbers stay exact to 2^53).
    quantity: bigint('quantity', { mode: 'number' }),
    amountCp: bigint('amount_cp', { mode: 'number' }),
    currency: text('currency'),
    sourceContainerId: uuid('source_container_id'),
    sourceName: text('source_name'),
    destinationContainerId: uuid('destination_container_id'),
    destinationName: text('destination_name'),
    /** Which monthly allowance an inventory action counts against (DESIGN §5); null for other rows. */
    scope: text('scope', { enum: ['personal', 'party'] }),
    summary: text('summary').notNull(),
    notes: text('notes'),
    details: jsonb('details').$type<Record<string, unknown>>(),
    /**
     * The loot instance a row is about (no foreign key: the row outlives it). Rows about loot that is
     * hidden now, or that were written while it was hidden (`gm_only`), are shown to the party's GMs only.
     */
    lootInstanceId: uuid('loot_instance_id'),
    gmOnly: boolean('gm_only').notNull().default(false),
    /** DESIGN §4: where the change came from (lib/change-source.ts): web, discord, api, admin or system. */
    source: text('source').$type<ChangeSource>().notNull().default('web'),
    transactionDate: timestamp('transaction_date', { withTimezone: true }).notNull().defaultNow(),
    /**
     * The order rows were written in. The rows of one database transaction share its `transaction_date`
     * (now() is the transaction's start), so without it a purchase's payment, change and goods, or a new
     * character and its backpack, would list in the random order of their ids.
     */
    writeOrder: bigint('write_order', { mode: 'number' }).notNull().generatedByDefaultAsIdentity(),
  },
  (t) => [
    index('transactions_party_date_idx').on(t.partyId, t.transactionDate),
    index('transactions_character_date_idx').on(t.characterId, t.transactionDate),
    // A character's history lists what others' moves brought it too (a gift names the giver's character).
    index('transactions_target_date_idx').on(t.targetId, t.transactionDate),
    index('transactions_actor_date_idx').on(t.actorId, t.transactionDate),
    // The monthly allowance counts one actor's rows of one scope in one month (inventory.service.ts).
    index('transactions_actor_scope_date_idx').on(t.actorId, t.scope, t.transactionDate),
    index('transactions_source_idx').on(t.sourceContainerId),
    index('transactions_destination_idx').on(t.destinationContainerId),
    index('transactions_loot_instance_idx').on(t.lootInstanceId),
  ],
);
