import type { NotificationKind, NotificationLink } from '@haversack/contracts';
import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts.js';
import { parties } from './parties.js';

/** What a notice needs to be shown as it was said: the sentence, its party's name, and where it leads. */
export interface NotificationPayload {
  message: string;
  party_name: string | null;
  link: NotificationLink | null;
}

/**
 * A user's inbox: what others did to them (a sponsorship, a decided purchase, a removal, items given).
 * Written in the transaction of the act itself, so a refused or rolled-back act leaves none. The party may
 * go: its notices stay, with its name in the payload.
 */
export const notifications = pgTable(
  'notifications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<NotificationKind>().notNull(),
    partyId: uuid('party_id').references(() => parties.id, { onDelete: 'set null' }),
    /** Who did it: a repeat of the same act by them, still unread, folds into this row (repeatCount). */
    actorId: uuid('actor_id').references(() => users.id, { onDelete: 'set null' }),
    repeatCount: integer('repeat_count').notNull().default(1),
    payload: jsonb('payload').$type<NotificationPayload>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    readAt: timestamp('read_at', { withTimezone: true }),
  },
  (t) => [
    // The inbox newest first, and the prune of all but the newest few, by user.
    index('notifications_user_created_idx').on(t.userId, t.createdAt.desc(), t.id.desc()),
    index('notifications_user_unread_idx').on(t.userId).where(sql`${t.readAt} is null`),
    index('notifications_party_idx').on(t.partyId),
  ],
);
