import { index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts.js';
import { parties } from './parties.js';

/**
 * A Discord account linked to a Haversack account (issue 16 §1): one each way. The Discord user id is
 * what Discord's OAuth and every interaction name the person by; the username is kept for display.
 */
export const discordAccounts = pgTable(
  'discord_accounts',
  {
    userId: uuid('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    discordUserId: text('discord_user_id').notNull(),
    discordUsername: text('discord_username').notNull(),
    linkedAt: timestamp('linked_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('discord_accounts_discord_user_idx').on(t.discordUserId)],
);

/**
 * A Discord channel bound by its GM to a party (issue 16 §2): slash commands run in that channel act on
 * that party. One party per channel; a party may be bound to several channels.
 */
export const discordChannelBindings = pgTable(
  'discord_channel_bindings',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    guildId: text('guild_id').notNull(),
    channelId: text('channel_id').notNull(),
    partyId: uuid('party_id')
      .notNull()
      .references(() => parties.id, { onDelete: 'cascade' }),
    boundBy: uuid('bound_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('discord_channel_bindings_channel_idx').on(t.channelId),
    index('discord_channel_bindings_party_idx').on(t.partyId),
  ],
);

/**
 * The interactions already answered (issue 16 §2): a signed interaction stays valid for a few minutes, so
 * one captured on its way could be sent again (another /give). Kept in the database, not in a process's
 * memory, so that a restart, a deploy or a second process does not forget them; pruned as they age out.
 */
export const discordAnsweredInteractions = pgTable(
  'discord_answered_interactions',
  {
    interactionId: text('interaction_id').primaryKey(),
    answeredAt: timestamp('answered_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('discord_answered_interactions_at_idx').on(t.answeredAt)],
);
