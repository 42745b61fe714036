import { index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { authSessions, users } from './accounts.js';

/**
 * DESIGN §10: entering /admin starts a short-lived admin session on top of a sign-in. Ending the sign-in
 * (logout, revocation) ends it too: the foreign key ties it to one login session, and the guard checks
 * that the caller's access token belongs to that same session.
 */
export const adminSessions = pgTable(
  'admin_sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    authSessionId: uuid('auth_session_id')
      .notNull()
      .references(() => authSessions.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    endedReason: text('ended_reason'),
  },
  (t) => [
    uniqueIndex('admin_sessions_token_hash_idx').on(t.tokenHash),
    index('admin_sessions_user_idx').on(t.userId),
    index('admin_sessions_auth_session_idx').on(t.authSessionId),
  ],
);

/**
 * Every admin act and every refused attempt. Append-only: the code has no update or delete path, and a
 * trigger (migration 0012) refuses UPDATE, DELETE and TRUNCATE. No foreign keys: an entry outlives the
 * accounts it names, so the actor's email is kept as written at the time.
 */
export const auditLogs = pgTable(
  'audit_logs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    actorId: uuid('actor_id'),
    actorEmail: text('actor_email'),
    action: text('action').notNull(),
    targetType: text('target_type'),
    targetId: text('target_id'),
    before: jsonb('before').$type<Record<string, unknown>>(),
    after: jsonb('after').$type<Record<string, unknown>>(),
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
    ipAddress: text('ip_address'),
    userAgent: text('user_agent'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('audit_logs_created_at_idx').on(t.createdAt),
    index('audit_logs_actor_idx').on(t.actorId, t.createdAt),
    index('audit_logs_action_idx').on(t.action, t.createdAt),
    index('audit_logs_target_idx').on(t.targetType, t.targetId),
  ],
);

/** Site-wide switches set from /admin/settings (maintenance mode, open registration), one row per key. */
export const appSettings = pgTable('app_settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').$type<unknown>().notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  updatedBy: uuid('updated_by'),
});
