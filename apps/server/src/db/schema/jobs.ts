import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

/**
 * DESIGN §10: the one durable job queue, in the application's own database. A job is claimed with
 * `FOR UPDATE SKIP LOCKED` inside the transaction that runs it, so it runs once however many processes
 * poll, and a job whose process died is simply claimed again.
 */
export const jobs = pgTable(
  'jobs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: text('kind').notNull(),
    /** At most one pending job per key (e.g. one restock per shop). */
    key: text('key').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull().default({}),
    runAt: timestamp('run_at', { withTimezone: true }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('jobs_key_idx').on(t.key), index('jobs_run_at_idx').on(t.runAt)],
);
