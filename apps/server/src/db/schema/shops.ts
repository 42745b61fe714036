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
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './accounts.js';
import { parties } from './parties.js';

const shopTypes = [
  'general',
  'blacksmith',
  'armorer',
  'magic_shop',
  'apothecary',
  'tavern',
  'weapon_shop',
  'clothing',
  'jewelry',
  'books',
  'components',
  'custom',
] as const;

/** spec/02 §3 Shop template. System templates (the seeded shops) have no creator and a system key. */
export const shopTemplates = pgTable(
  'shop_templates',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    ownerName: text('owner_name').notNull().default(''),
    location: text('location').notNull().default(''),
    shopType: text('shop_type', { enum: shopTypes }).notNull().default('general'),
    // Four decimals at most, so prices are computed in integer ten-thousandths (DESIGN §4, no floats).
    buyModifier: numeric('buy_modifier', { precision: 6, scale: 4, mode: 'number' }).notNull().default(1),
    sellModifier: numeric('sell_modifier', { precision: 6, scale: 4, mode: 'number' }).notNull().default(0.5),
    defaultRestockDays: integer('default_restock_days'),
    tags: text('tags').array().notNull().default(sql`'{}'::text[]`),
    visibility: text('visibility', { enum: ['private', 'unlisted', 'public'] })
      .notNull()
      .default('private'),
    nameOverride: text('name_override'),
    ownerOverride: text('owner_override'),
    locationOverride: text('location_override'),
    descriptionOverride: text('description_override'),
    creatorId: uuid('creator_id').references(() => users.id, { onDelete: 'cascade' }),
    systemKey: text('system_key'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('shop_templates_system_key_idx').on(t.systemKey),
    index('shop_templates_creator_idx').on(t.creatorId),
    index('shop_templates_visibility_idx').on(t.visibility),
    check(
      'shop_templates_modifiers_check',
      sql`${t.buyModifier} between 0 and 10 and ${t.sellModifier} between 0 and 10`,
    ),
    check(
      'shop_templates_restock_check',
      sql`${t.defaultRestockDays} is null or ${t.defaultRestockDays} >= 0`,
    ),
  ],
);

/** One rating per user and template, 1 to 5 (issue 10 item 1). */
export const shopTemplateRatings = pgTable(
  'shop_template_ratings',
  {
    shopTemplateId: uuid('shop_template_id')
      .notNull()
      .references(() => shopTemplates.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    rating: smallint('rating').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.shopTemplateId, t.userId] }),
    check('shop_template_ratings_range_check', sql`${t.rating} between 1 and 5`),
  ],
);

/** What a deployed shop restocks to, copied from its template when deployed (see docs/decisions.md). */
export interface RestockLine {
  item_template_id: string;
  restock_quantity: number;
}

/** spec/02 §3 Shop instance: a template deployed into a party, with its own container of stock. */
export const shopInstances = pgTable(
  'shop_instances',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    partyId: uuid('party_id')
      .notNull()
      .references(() => parties.id, { onDelete: 'cascade' }),
    shopTemplateId: uuid('shop_template_id').references(() => shopTemplates.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    ownerName: text('owner_name').notNull().default(''),
    location: text('location').notNull().default(''),
    shopType: text('shop_type', { enum: shopTypes }).notNull().default('general'),
    tags: text('tags').array().notNull().default(sql`'{}'::text[]`),
    isActive: boolean('is_active').notNull().default(true),
    discountRate: numeric('discount_rate', { precision: 5, scale: 4, mode: 'number' }).notNull().default(0),
    buyModifier: numeric('buy_modifier', { precision: 6, scale: 4, mode: 'number' }).notNull().default(1),
    sellModifier: numeric('sell_modifier', { precision: 6, scale: 4, mode: 'number' }).notNull().default(0.5),
    currency: text('currency', { enum: ['cp', 'sp', 'ep', 'gp', 'pp'] })
      .notNull()
      .default('gp'),
    restockDays: integer('restock_days'),
    nextRestockAt: timestamp('next_restock_at', { withTimezone: true }),
    lastRestockAt: timestamp('last_restock_at', { withTimezone: true }),
    restockPlan: jsonb('restock_plan').$type<RestockLine[]>().notNull().default([]),
    /** The shop's own prices in copper, by item template id (DESIGN §4 "a stocked item may carry its own price"). */
    prices: jsonb('prices').$type<Record<string, number>>().notNull().default({}),
    /** Issue 10 §8: the GM lets purchases here be paid from the party stash's coins. */
    partyFundAllowed: boolean('party_fund_allowed').notNull().default(false),
    /** Issue 10 §8: a purchase above this (copper) waits for the GM's approval; null: never. */
    approvalThresholdCp: bigint('approval_threshold_cp', { mode: 'number' }),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('shop_instances_party_idx').on(t.partyId),
    index('shop_instances_template_idx').on(t.shopTemplateId),
    index('shop_instances_creator_idx').on(t.createdBy),
    check('shop_instances_discount_check', sql`${t.discountRate} between 0 and 1`),
    check(
      'shop_instances_modifiers_check',
      sql`${t.buyModifier} between 0 and 10 and ${t.sellModifier} between 0 and 10`,
    ),
    check('shop_instances_restock_check', sql`${t.restockDays} is null or ${t.restockDays} >= 0`),
    check(
      'shop_instances_threshold_check',
      sql`${t.approvalThresholdCp} is null or ${t.approvalThresholdCp} >= 0`,
    ),
  ],
);
