import type { ApiTokenScope } from '@haversack/contracts';
import { index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts.js';

/**
 * Issue 16 §5: a personal API token. Only the sha256 of the secret is kept, so a leaked table yields no
 * usable token; `hint` (the secret's first characters) lets the owner tell tokens apart in the list.
 * A revoked token keeps its row, so that using it answers "revoked" rather than "unknown".
 */
export const apiTokens = pgTable(
  'api_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    scope: text('scope').$type<ApiTokenScope>().notNull(),
    tokenHash: text('token_hash').notNull(),
    hint: text('hint').notNull(),
    /** null: the token never expires. */
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('api_tokens_hash_idx').on(t.tokenHash), index('api_tokens_user_idx').on(t.userId)],
);
