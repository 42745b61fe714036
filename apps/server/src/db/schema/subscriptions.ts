import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './accounts.js';

/** Seeded at start (DESIGN §5): limits null mean unlimited. */
export const subscriptionTiers = pgTable('subscription_tiers', {
  id: uuid('id').primaryKey().defaultRandom(),
  identifier: text('identifier').notNull().unique(),
  name: text('name').notNull(),
  description: text('description').notNull().default(''),
  rank: integer('rank').notNull(),
  priceCents: integer('price_cents').notNull(),
  currency: text('currency').notNull().default('usd'),
  interval: text('interval').notNull().default('month'),
  limits: jsonb('limits').$type<Record<string, number | null>>().notNull(),
  features: jsonb('features').$type<Record<string, boolean>>().notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

const subscriptionStatuses = ['active', 'cancelled', 'past_due'] as const;

/** One per user; every user starts on tier_free. */
export const subscriptions = pgTable(
  'subscriptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tierId: uuid('tier_id')
      .notNull()
      .references(() => subscriptionTiers.id),
    status: text('status', { enum: subscriptionStatuses }).notNull().default('active'),
    currentPeriodStart: timestamp('current_period_start', { withTimezone: true }),
    currentPeriodEnd: timestamp('current_period_end', { withTimezone: true }),
    cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
    cancelReason: text('cancel_reason'),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    /**
     * The plan that cancellation ended (or will end at the period's end): an immediate one leaves the row on
     * Free, so `tier_id` no longer says what was given up. Null with `cancelled_at`, and for cancellations
     * older than migration 0025 that had already taken effect.
     */
    cancelledTierId: uuid('cancelled_tier_id').references(() => subscriptionTiers.id),
    provider: text('provider', { enum: ['local', 'stripe'] }),
    providerCustomerId: text('provider_customer_id'),
    providerSubscriptionId: text('provider_subscription_id'),
    /** The creation time of the last provider event applied, so a late, older event changes nothing. */
    providerEventAt: timestamp('provider_event_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('subscriptions_user_idx').on(t.userId),
    index('subscriptions_provider_sub_idx').on(t.providerSubscriptionId),
    index('subscriptions_provider_customer_idx').on(t.providerCustomerId),
  ],
);

/**
 * Cancellations that took effect (the plan ended) and were then left behind by a new plan: the subscription
 * row holds only its latest cancellation, and a new plan clears it, so it is kept here first for the
 * admin's financial page and analytics (the repository's `update` does it). Rows are never changed.
 */
export const subscriptionCancellations = pgTable(
  'subscription_cancellations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The plan that ended; null when the cancellation predates `subscriptions.cancelled_tier_id`. */
    tierId: uuid('tier_id').references(() => subscriptionTiers.id),
    reason: text('reason'),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }).notNull(),
    cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('subscription_cancellations_user_at_idx').on(t.userId, t.cancelledAt)],
);

/**
 * The checkout references issued to each user (local billing's `local_…`, a Stripe Checkout session, or the
 * Stripe subscription a plan change went to), so the success page thanks for, and shows, only a reference
 * this server gave that user, not whatever its address says.
 */
export const checkoutSessions = pgTable(
  'checkout_sessions',
  {
    id: text('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('checkout_sessions_user_idx').on(t.userId)],
);

/** Provider webhook events already applied: a replayed event changes nothing. */
export const billingEvents = pgTable('billing_events', {
  id: text('id').primaryKey(),
  provider: text('provider').notNull(),
  type: text('type').notNull(),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().default(sql`now()`),
});
