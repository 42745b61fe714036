import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts.js';
import { subscriptionTiers } from './subscriptions.js';

const partyRoles = ['gm', 'manager', 'player', 'observer'] as const;

export const parties = pgTable(
  'parties',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    gameSystem: text('game_system').notNull().default(''),
    setting: text('setting').notNull().default(''),
    joinPermission: text('join_permission', { enum: ['full', 'limited', 'restricted'] })
      .notNull()
      .default('limited'),
    encumbranceStyle: text('encumbrance_style', { enum: ['weight', 'slots', 'both', 'none'] })
      .notNull()
      .default('both'),
    // Issue 12: 'gm_only' keeps players from creating items (and coins) from the marketplace.
    itemConjuring: text('item_conjuring', { enum: ['free', 'gm_only'] })
      .notNull()
      .default('free'),
    joinCode: text('join_code'),
    isPublic: boolean('is_public').notNull().default(false),
    isArchived: boolean('is_archived').notNull().default(false),
    gameMasterId: uuid('game_master_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    // Issue 14: the party's shared notes (spec/02 §7 notes_updated). The version goes up by one on every
    // save, so that a save based on an older version is refused instead of silently overwriting it.
    notes: text('notes').notNull().default(''),
    notesVersion: integer('notes_version').notNull().default(0),
    notesUpdatedAt: timestamp('notes_updated_at', { withTimezone: true }),
    notesUpdatedById: uuid('notes_updated_by_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('parties_join_code_idx').on(t.joinCode),
    index('parties_gm_idx').on(t.gameMasterId),
    index('parties_public_idx').on(t.isPublic, t.isArchived),
  ],
);

export const partyMemberships = pgTable(
  'party_memberships',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    partyId: uuid('party_id')
      .notNull()
      .references(() => parties.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role', { enum: partyRoles }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('party_memberships_party_user_idx').on(t.partyId, t.userId),
    index('party_memberships_user_idx').on(t.userId),
  ],
);

export const partyInvitations = pgTable(
  'party_invitations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    partyId: uuid('party_id')
      .notNull()
      .references(() => parties.id, { onDelete: 'cascade' }),
    invitedUserId: uuid('invited_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    invitedById: uuid('invited_by_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role', { enum: ['manager', 'player', 'observer'] })
      .notNull()
      .default('player'),
    message: text('message').notNull().default(''),
    status: text('status', { enum: ['pending', 'accepted', 'declined', 'revoked'] })
      .notNull()
      .default('pending'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    respondedAt: timestamp('responded_at', { withTimezone: true }),
  },
  (t) => [
    index('party_invitations_user_idx').on(t.invitedUserId, t.status),
    // One open invitation per person and party.
    uniqueIndex('party_invitations_pending_idx')
      .on(t.partyId, t.invitedUserId)
      .where(sql`${t.status} = 'pending'`),
  ],
);

/** A patron grants one of their tiers to a member inside one party (spec/01 §3 Patronage). */
export const patronages = pgTable(
  'patronages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    partyId: uuid('party_id')
      .notNull()
      .references(() => parties.id, { onDelete: 'cascade' }),
    patronId: uuid('patron_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    beneficiaryId: uuid('beneficiary_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    grantedTierId: uuid('granted_tier_id')
      .notNull()
      .references(() => subscriptionTiers.id),
    active: boolean('active').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    endReason: text('end_reason'),
  },
  (t) => [
    index('patronages_patron_idx').on(t.patronId),
    index('patronages_beneficiary_idx').on(t.beneficiaryId),
    uniqueIndex('patronages_active_idx').on(t.partyId, t.beneficiaryId).where(sql`${t.active}`),
  ],
);
