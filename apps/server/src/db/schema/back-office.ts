import { sql } from 'drizzle-orm';
import {
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './accounts.js';

export const reportTargetTypes = ['item_template', 'shop_template', 'loot_template', 'party'] as const;
export const reportStatuses = ['open', 'dismissed', 'unpublished'] as const;

/**
 * A signed-in user's report of public content. No foreign key to the target (four tables); a report
 * outlives what it names. One open report per reporter and target (the partial unique index).
 */
export const contentReports = pgTable(
  'content_reports',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    reporterId: uuid('reporter_id').references(() => users.id, { onDelete: 'set null' }),
    targetType: text('target_type', { enum: reportTargetTypes }).notNull(),
    targetId: uuid('target_id').notNull(),
    reason: text('reason').notNull(),
    status: text('status', { enum: reportStatuses }).notNull().default('open'),
    resolvedById: uuid('resolved_by_id').references(() => users.id, { onDelete: 'set null' }),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('content_reports_open_idx')
      .on(t.reporterId, t.targetType, t.targetId)
      .where(sql`${t.status} = 'open'`),
    index('content_reports_status_idx').on(t.status, t.createdAt),
    index('content_reports_target_idx').on(t.targetType, t.targetId),
  ],
);

export const announcementLevels = ['info', 'warning', 'critical'] as const;

/** A banner shown in the app between starts_at and ends_at (no end: until deleted). */
export const announcements = pgTable(
  'announcements',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    title: text('title').notNull(),
    body: text('body').notNull().default(''),
    level: text('level', { enum: announcementLevels }).notNull().default('info'),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    endsAt: timestamp('ends_at', { withTimezone: true }),
    createdById: uuid('created_by_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('announcements_window_idx').on(t.startsAt, t.endsAt)],
);

/** Who closed which banner: dismissal is per user, on the server, so it holds on every device. */
export const announcementDismissals = pgTable(
  'announcement_dismissals',
  {
    announcementId: uuid('announcement_id')
      .notNull()
      .references(() => announcements.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    dismissedAt: timestamp('dismissed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.announcementId, t.userId] })],
);

export const adminOperationKinds = ['mass_mail', 'bulk_users', 'bulk_templates'] as const;
/** `cancelled`: stopped by an admin, or by itself once its admin lost the flag (last_error says which). */
export const adminOperationStatuses = ['queued', 'running', 'done', 'failed', 'cancelled'] as const;

/**
 * A long admin act (mass mail, bulk operation) run in batches by the job queue. `cursor` is the last
 * id handled, so a restarted process carries on where the last committed batch ended; `processed` and
 * `total` are the progress the page polls. The admin who started it is kept for the audit entries.
 */
export const adminOperations = pgTable(
  'admin_operations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: text('kind', { enum: adminOperationKinds }).notNull(),
    params: jsonb('params').$type<Record<string, unknown>>().notNull(),
    status: text('status', { enum: adminOperationStatuses }).notNull().default('queued'),
    total: integer('total').notNull().default(0),
    processed: integer('processed').notNull().default(0),
    changed: integer('changed').notNull().default(0),
    cursor: text('cursor'),
    actorId: uuid('actor_id'),
    actorEmail: text('actor_email'),
    actorIp: text('actor_ip'),
    actorUserAgent: text('actor_user_agent'),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [index('admin_operations_created_idx').on(t.createdAt)],
);
