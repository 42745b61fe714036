import type { ShareKind } from '@haversack/contracts';
import { sql } from 'drizzle-orm';
import { check, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts.js';
import { characters } from './characters.js';
import { lootInstances } from './loot.js';
import { shopInstances } from './shops.js';

/**
 * Issue 16 §3: a share link to exactly one thing (a character's inventory, a loot instance, a shop
 * instance). The code is 128 random bits; anyone holding it reads a snapshot until it is revoked or the
 * thing is deleted (the row goes with it).
 */
export const shareLinks = pgTable(
  'share_links',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    code: text('code').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<ShareKind>().notNull(),
    characterId: uuid('character_id').references(() => characters.id, { onDelete: 'cascade' }),
    lootInstanceId: uuid('loot_instance_id').references(() => lootInstances.id, { onDelete: 'cascade' }),
    shopInstanceId: uuid('shop_instance_id').references(() => shopInstances.id, { onDelete: 'cascade' }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('share_links_code_idx').on(t.code),
    index('share_links_user_idx').on(t.userId),
    check(
      'share_links_one_target',
      sql`num_nonnulls(${t.characterId}, ${t.lootInstanceId}, ${t.shopInstanceId}) = 1`,
    ),
  ],
);
