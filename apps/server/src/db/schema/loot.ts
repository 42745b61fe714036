import { sql } from 'drizzle-orm';
import { boolean, index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts.js';
import { parties } from './parties.js';

const sourceTypes = ['monster', 'hoard', 'container', 'quest', 'encounter', 'custom'] as const;

/** spec/02 §3 Loot template. System templates (the seeded finds) have no creator and a system key. */
export const lootTemplates = pgTable(
  'loot_templates',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    sourceType: text('source_type', { enum: sourceTypes }).notNull().default('custom'),
    /** Who or what carried it; deployed loot starts with it as its `source`. */
    source: text('source').notNull().default(''),
    tags: text('tags').array().notNull().default(sql`'{}'::text[]`),
    visibility: text('visibility', { enum: ['private', 'unlisted', 'public'] })
      .notNull()
      .default('private'),
    creatorId: uuid('creator_id').references(() => users.id, { onDelete: 'cascade' }),
    systemKey: text('system_key'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('loot_templates_system_key_idx').on(t.systemKey),
    index('loot_templates_creator_idx').on(t.creatorId),
    index('loot_templates_visibility_idx').on(t.visibility),
  ],
);

/** spec/02 §3 Loot instance: a template deployed into a party, hidden until the GM reveals it. */
export const lootInstances = pgTable(
  'loot_instances',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    partyId: uuid('party_id')
      .notNull()
      .references(() => parties.id, { onDelete: 'cascade' }),
    lootTemplateId: uuid('loot_template_id').references(() => lootTemplates.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    source: text('source').notNull().default(''),
    sourceType: text('source_type', { enum: sourceTypes }).notNull().default('custom'),
    /** spec/02 §2: location_name lives here. */
    instanceData: jsonb('instance_data').$type<{ location_name?: string | null }>().notNull().default({}),
    isRevealed: boolean('is_revealed').notNull().default(false),
    revealedAt: timestamp('revealed_at', { withTimezone: true }),
    distributedAt: timestamp('distributed_at', { withTimezone: true }),
    distributionMode: text('distribution_mode', { enum: ['even', 'by_value', 'random'] }),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    /**
     * Deleted loot keeps its row (its container and contents are gone, through the ledger), so that the
     * ledger still knows it was hidden when it went: rows about it then stay the GM's for good.
     */
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('loot_instances_party_idx').on(t.partyId),
    index('loot_instances_template_idx').on(t.lootTemplateId),
    index('loot_instances_creator_idx').on(t.createdBy),
  ],
);
