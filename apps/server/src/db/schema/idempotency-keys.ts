import { boolean, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts.js';

/**
 * A change asked for with an `Idempotency-Key` header (DESIGN §3 departure, docs/decisions.md): the first
 * request's answer, kept a day, so that the same change sent again (a phone retrying after its answer was
 * lost) is answered the same without being made twice. `status` null: the first request is still running,
 * or its process died before it kept the answer (`committed` tells whether its change was made).
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    /** The method, path and a hash of the body: one key is for one request. */
    fingerprint: text('fingerprint').notNull(),
    status: integer('status'),
    contentType: text('content_type'),
    body: text('body'),
    /**
     * Set in the change's own transaction, just before its commit (db/claim-commits.ts): true once a change
     * of the request may have committed. A claim left without an answer and not marked made no change.
     */
    committed: boolean('committed').notNull().default(false),
    /** The server process that claimed the key (lib/boot-id.ts), to tell a running claim from an orphan. */
    claimedBy: uuid('claimed_by'),
    /** When the key was claimed (by its latest claimant). */
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('idempotency_keys_user_key_idx').on(t.userId, t.key),
    index('idempotency_keys_created_idx').on(t.createdAt),
  ],
);
