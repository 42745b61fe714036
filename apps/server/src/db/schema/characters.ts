import { index, integer, numeric, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts.js';
import { parties } from './parties.js';

export const characters = pgTable(
  'characters',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    partyId: uuid('party_id').references(() => parties.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    race: text('race').notNull().default(''),
    characterClass: text('character_class').notNull().default(''),
    level: integer('level').notNull().default(1),
    notes: text('notes').notNull().default(''),
    imageUrl: text('image_url').notNull().default(''),
    maxWeight: numeric('max_weight', { precision: 10, scale: 2, mode: 'number' }),
    maxSlots: integer('max_slots'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('characters_user_idx').on(t.userId), index('characters_party_idx').on(t.partyId)],
);
