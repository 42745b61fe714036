import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  customType,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './accounts.js';
import { containers } from './inventory.js';

const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

/** spec/02 §3 Item template. System templates (coins, SRD items) have no creator and a system key. */
export const itemTemplates = pgTable(
  'item_templates',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    weight: numeric('weight', { precision: 12, scale: 4, mode: 'number' }).notNull().default(0),
    /** An integer in the template's currency (DESIGN §4). */
    baseValue: integer('base_value').notNull().default(0),
    currency: text('currency', { enum: ['cp', 'sp', 'ep', 'gp', 'pp'] })
      .notNull()
      .default('gp'),
    visibility: text('visibility', { enum: ['private', 'unlisted', 'public'] })
      .notNull()
      .default('private'),
    /** 0 = unlimited; otherwise the most one stack may hold. */
    stackSize: integer('stack_size').notNull().default(1),
    metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull().default({}),
    tags: text('tags').array().notNull().default(sql`'{}'::text[]`),
    rating: numeric('rating', { precision: 3, scale: 2, mode: 'number' }),
    creatorId: uuid('creator_id').references(() => users.id, { onDelete: 'set null' }),
    systemKey: text('system_key'),
    /** A deleted template leaves the catalogue but keeps the instances made from it. */
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    searchVector: tsvector('search_vector').generatedAlwaysAs(
      sql`setweight(to_tsvector('english', coalesce(name, '')), 'A') || setweight(to_tsvector('english', coalesce(description, '')), 'B')`,
    ),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('item_templates_system_key_idx').on(t.systemKey),
    index('item_templates_creator_idx').on(t.creatorId),
    index('item_templates_visibility_idx').on(t.visibility),
    index('item_templates_search_idx').using('gin', t.searchVector),
    index('item_templates_tags_idx').using('gin', t.tags),
    check('item_templates_stack_size_check', sql`${t.stackSize} >= 0`),
    check('item_templates_base_value_check', sql`${t.baseValue} >= 0`),
    check('item_templates_weight_check', sql`${t.weight} >= 0`),
  ],
);

/** spec/02 §3 Item instance: a stack of one template in one container. */
export const itemInstances = pgTable(
  'item_instances',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    containerId: uuid('container_id')
      .notNull()
      .references(() => containers.id, { onDelete: 'restrict' }),
    itemTemplateId: uuid('item_template_id')
      .notNull()
      .references(() => itemTemplates.id, { onDelete: 'restrict' }),
    // 64-bit: stacks of coins top up past 2^31 (bounded in validation and in the service).
    quantity: bigint('quantity', { mode: 'number' }).notNull(),
    instanceData: jsonb('instance_data').$type<Record<string, unknown>>().notNull().default({}),
    notes: text('notes').notNull().default(''),
    isIdentified: boolean('is_identified').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('item_instances_container_idx').on(t.containerId),
    index('item_instances_template_idx').on(t.itemTemplateId),
    check('item_instances_quantity_check', sql`${t.quantity} > 0`),
  ],
);
