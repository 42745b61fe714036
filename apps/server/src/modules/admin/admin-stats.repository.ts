import { type SQL, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Executor } from '../../db/client.js';
import { countValue, queryRows } from './sql-rows.js';

/** A UTC date range, both ends inclusive, bucketed by day or week (weeks start on Monday, ISO). */
export interface SeriesRange {
  from: string;
  to: string;
  unit: 'day' | 'week';
}

/** Ledger types that are shop or loot activity; every other item or currency row is an inventory action. */
export const SHOP_TYPES = ['purchase', 'sale'];
export const LOOT_TYPES = ['loot', 'loot_distribution'];
const NOT_INVENTORY_TYPES = [
  'character_creation',
  'character_deletion',
  'container_creation',
  'container_deletion',
];

function textList(values: string[]): SQL {
  return sql.join(
    values.map((value) => sql`${value}`),
    sql`, `,
  );
}

/**
 * docs/decisions.md: a user is active in a period when they signed in (a sign-in was created or used)
 * or wrote a ledger row in it. The sign-in's last use is all the history a session keeps, so a period
 * counts the users whose last activity of one of these kinds falls in it; ledger rows fill in the rest.
 */
const activityEvents = sql`
  select user_id::text as who, created_at as at from auth_sessions
  union all select user_id::text, last_used_at from auth_sessions
  union all select actor_id::text, transaction_date from transactions where actor_id is not null`;

/** Every cancellation: each subscription's latest, and those a new plan cleared from it (kept apart). */
const allCancellations = sql`
  select s.user_id, s.cancelled_tier_id as tier_id, s.cancel_reason as reason, s.cancelled_at,
         s.cancel_at_period_end
  from subscriptions s where s.cancelled_at is not null
  union all
  select k.user_id, k.tier_id, k.reason, k.cancelled_at, k.cancel_at_period_end
  from subscription_cancellations k`;

/** Events of each series: `who` (for distinct counts) and `at` (timestamptz). One query per series. */
export const seriesEvents = {
  signups: { events: sql`select id::text as who, created_at as at from users`, distinct: false },
  active_users: { events: activityEvents, distinct: true },
  // Actions, as the users' own monthly meters count them: one per entry, on the row that carries its scope
  // (a conversion's second coin row, a shop's stock moved out with it, carry none).
  inventory_actions: {
    events: sql`select id::text as who, transaction_date as at from transactions
      where scope is not null
        and transaction_type not in (${textList(NOT_INVENTORY_TYPES)})
        and transaction_type not in (${textList([...SHOP_TYPES, ...LOOT_TYPES])})`,
    distinct: false,
  },
  // One per trade: its goods row, not the coin rows that paid it or came back as change.
  shop_activity: {
    events: sql`select id::text as who, transaction_date as at from transactions
      where transaction_type in (${textList(SHOP_TYPES)})
        and coalesce(details->>'role', '') not in ('payment', 'change')`,
    distinct: false,
  },
  loot_activity: {
    events: sql`select id::text as who, transaction_date as at from transactions
      where transaction_type in (${textList(LOOT_TYPES)})`,
    distinct: false,
  },
  // A user keeps only the time of their latest upgrade; every cancellation is kept (`allCancellations`).
  upgrades: {
    events: sql`select id::text as who, tier_upgraded_at as at from users where tier_upgraded_at is not null`,
    distinct: false,
  },
  cancellations: {
    events: sql`select user_id::text as who, cancelled_at as at from (${allCancellations}) c`,
    distinct: false,
  },
} satisfies Record<string, { events: SQL; distinct: boolean }>;

const pointRow = z.object({ period: z.string(), value: countValue });

export const adminStatsRepository = {
  /** One bucket per day or week of the range, zero where nothing happened (generate_series). */
  async series(
    db: Executor,
    range: SeriesRange,
    source: { events: SQL; distinct: boolean },
  ): Promise<{ period: string; value: number }[]> {
    const step = `1 ${range.unit}`;
    const counted = source.distinct ? sql`count(distinct ev.who)` : sql`count(ev.who)`;
    return queryRows(
      db,
      sql`
        with ev as (
          select who, (at at time zone 'UTC') as at from (${source.events}) as raw
          where at >= (${range.from}::date - interval '7 days')
            and at < (${range.to}::date + interval '1 day')
        )
        select to_char(g.period, 'YYYY-MM-DD') as period, ${counted}::int as value
        from generate_series(
          date_trunc(${range.unit}, ${range.from}::date::timestamp),
          ${range.to}::date::timestamp,
          ${step}::interval
        ) as g(period)
        left join ev on ev.at >= g.period and ev.at < g.period + ${step}::interval
        group by g.period
        order by g.period`,
      pointRow,
    );
  },

  async userCounts(db: Executor, now: Date) {
    const [row] = await queryRows(
      db,
      sql`
        select
          count(*)::int as total,
          count(*) filter (where created_at >= ${now.toISOString()}::timestamptz - interval '7 days')::int as new_7d,
          count(*) filter (where created_at >= ${now.toISOString()}::timestamptz - interval '30 days')::int as new_30d,
          (select count(distinct who)::int from (${activityEvents}) a
            where at >= ${now.toISOString()}::timestamptz - interval '7 days') as active_7d,
          (select count(distinct who)::int from (${activityEvents}) a
            where at >= ${now.toISOString()}::timestamptz - interval '30 days') as active_30d
        from users`,
      z.object({
        total: countValue,
        new_7d: countValue,
        new_30d: countValue,
        active_7d: countValue,
        active_30d: countValue,
      }),
    );
    if (!row) throw new Error('user counts answered no row');
    return row;
  },

  async contentCounts(db: Executor) {
    const [row] = await queryRows(
      db,
      sql`
        select
          (select count(*)::int from parties) as parties,
          (select count(*)::int from characters) as characters,
          (select count(*)::int from item_templates where system_key is null and deleted_at is null)
            as item_templates,
          (select count(*)::int from item_instances) as item_stacks`,
      z.object({
        parties: countValue,
        characters: countValue,
        item_templates: countValue,
        item_stacks: countValue,
      }),
    );
    if (!row) throw new Error('content counts answered no row');
    return row;
  },

  /**
   * Every tier, with how many users are on it now (any status), how many of them staff granted it (no
   * billing provider) and how many took it through demo billing (the local provider): nobody pays for those.
   */
  async subscriptionsByTier(db: Executor) {
    return queryRows(
      db,
      sql`
        select t.identifier as tier, t.name, count(s.id)::int as count,
               (count(s.id) filter (where s.provider is null))::int as granted,
               (count(s.id) filter (where s.provider = 'local'))::int as demo
        from subscription_tiers t left join subscriptions s on s.tier_id = t.id
        group by t.identifier, t.name, t.rank order by t.rank`,
      z.object({
        tier: z.string(),
        name: z.string(),
        count: countValue,
        granted: countValue,
        demo: countValue,
      }),
    );
  },

  async subscriptionsByTierAndStatus(db: Executor) {
    return queryRows(
      db,
      sql`
        select t.identifier as tier, t.name, s.status, count(*)::int as count
        from subscriptions s join subscription_tiers t on t.id = s.tier_id
        group by t.identifier, t.name, t.rank, s.status order by t.rank, s.status`,
      z.object({ tier: z.string(), name: z.string(), status: z.string(), count: countValue }),
    );
  },

  /**
   * docs/decisions.md: monthly revenue is estimated from tier prices × the paid subscriptions that were
   * running in each month (the billing events log keeps no amounts). A paid subscription runs from the
   * user's latest upgrade (or its creation) until its cancellation took effect; its current tier is used.
   * Only Stripe takes payment: a plan staff granted (no provider) or taken through demo billing (the local
   * provider, which completes upgrades with no payment) is not counted.
   */
  async monthlyRevenue(db: Executor, now: Date, months: number) {
    return queryRows(
      db,
      sql`
        with paid as (
          select coalesce(u.tier_upgraded_at, s.created_at) as started,
                 case when s.status = 'cancelled' then coalesce(s.cancelled_at, s.updated_at) end as ended,
                 t.price_cents, t.currency
          from subscriptions s
          join subscription_tiers t on t.id = s.tier_id
          join users u on u.id = s.user_id
          where t.price_cents > 0 and s.provider = 'stripe'
        ), months as (
          select g.month from generate_series(
            date_trunc('month', (${now.toISOString()}::timestamptz at time zone 'UTC')) - ${`${months - 1} months`}::interval,
            date_trunc('month', (${now.toISOString()}::timestamptz at time zone 'UTC')),
            '1 month'::interval
          ) as g(month)
        )
        select to_char(m.month, 'YYYY-MM') as month,
               count(p.price_cents)::int as paid_subscriptions,
               coalesce(sum(p.price_cents), 0)::int as revenue_cents,
               coalesce(min(p.currency), 'usd') as currency
        from months m
        left join paid p on (p.started at time zone 'UTC') < m.month + interval '1 month'
          and (p.ended is null or (p.ended at time zone 'UTC') >= m.month)
        group by m.month order by m.month`,
      z.object({
        month: z.string(),
        paid_subscriptions: countValue,
        revenue_cents: countValue,
        currency: z.string(),
      }),
    );
  },

  /**
   * Each user's latest cancellation (on the subscription row) and those a new plan left behind (kept in
   * `subscription_cancellations`), naming the plan each ended: an immediate one has left the row on Free.
   */
  async cancellations(db: Executor, limit: number) {
    return queryRows(
      db,
      sql`
        select u.id::text as user_id, u.email, t.identifier as tier, c.reason,
               to_char(c.cancelled_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as cancelled_at,
               c.cancel_at_period_end
        from (${allCancellations}) c
        join users u on u.id = c.user_id
        left join subscription_tiers t on t.id = c.tier_id
        order by c.cancelled_at desc limit ${limit}`,
      z.object({
        user_id: z.string(),
        email: z.string(),
        tier: z.string().nullable(),
        reason: z.string().nullable(),
        cancelled_at: z.string(),
        cancel_at_period_end: z.boolean(),
      }),
    );
  },

  async billingEvents(db: Executor, page: { limit: number; offset: number }) {
    const rows = await queryRows(
      db,
      sql`
        select id, provider, type,
               to_char(received_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as received_at
        from billing_events order by received_at desc, id limit ${page.limit} offset ${page.offset}`,
      z.object({ id: z.string(), provider: z.string(), type: z.string(), received_at: z.string() }),
    );
    const [total] = await queryRows(
      db,
      sql`select count(*)::int as total from billing_events`,
      z.object({ total: countValue }),
    );
    return { rows, total: total?.total ?? 0 };
  },
};
