import { pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * What the last seed wrote: a fingerprint of the seed's inputs (tiers, the SRD catalogue, the system
 * shops and loot). A start whose inputs match it skips the seed, so a restart costs no catalogue upsert.
 */
export const seedState = pgTable('seed_state', {
  name: text('name').primaryKey(),
  fingerprint: text('fingerprint').notNull(),
  seededAt: timestamp('seeded_at', { withTimezone: true }).notNull().defaultNow(),
});
