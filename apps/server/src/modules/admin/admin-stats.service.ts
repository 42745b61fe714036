import {
  type AdminAnalytics,
  type AdminDashboard,
  type AdminFinancial,
  type AnalyticsPoint,
  type AnalyticsQuery,
  analyticsSeriesKeys,
  type BillingEvent,
  type PageMeta,
} from '@haversack/contracts';
import type { Database } from '../../db/client.js';
import { adminStatsRepository, seriesEvents } from './admin-stats.repository.js';

const DAY_MS = 86_400_000;
const REVENUE_MONTHS = 12;
const CANCELLATIONS_SHOWN = 100;

function isoDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

function emptyPoint(period: string): AnalyticsPoint {
  return {
    period,
    signups: 0,
    active_users: 0,
    inventory_actions: 0,
    shop_activity: 0,
    loot_activity: 0,
    upgrades: 0,
    cancellations: 0,
  };
}

/** Issue 15: what the Dashboard, Analytics and Financial pages show. Reads only. */
export class AdminStatsService {
  readonly #db: Database;
  readonly #now: () => Date;

  constructor(deps: { db: Database; now: () => Date }) {
    this.#db = deps.db;
    this.#now = deps.now;
  }

  async dashboard(): Promise<AdminDashboard> {
    const now = this.#now();
    const range = {
      from: isoDay(new Date(now.getTime() - 29 * DAY_MS)),
      to: isoDay(now),
      unit: 'day' as const,
    };
    const [users, content, actions, tiers] = await Promise.all([
      adminStatsRepository.userCounts(this.#db, now),
      adminStatsRepository.contentCounts(this.#db),
      adminStatsRepository.series(this.#db, range, seriesEvents.inventory_actions),
      adminStatsRepository.subscriptionsByTier(this.#db),
    ]);
    return {
      users,
      ...content,
      inventory_actions_per_day: actions.map((p) => ({ date: p.period, count: p.value })),
      subscriptions_by_tier: tiers,
    };
  }

  /** One query per series over the same buckets, then one row per bucket for the table and charts. */
  async analytics(query: AnalyticsQuery): Promise<AdminAnalytics> {
    const range = { from: query.from, to: query.to, unit: query.granularity };
    const series = await Promise.all(
      analyticsSeriesKeys.map(
        async (key) => [key, await adminStatsRepository.series(this.#db, range, seriesEvents[key])] as const,
      ),
    );
    const byPeriod = new Map<string, AnalyticsPoint>();
    for (const [key, points] of series) {
      for (const { period, value } of points) {
        const point = byPeriod.get(period) ?? emptyPoint(period);
        point[key] = value;
        byPeriod.set(period, point);
      }
    }
    return {
      from: query.from,
      to: query.to,
      granularity: query.granularity,
      points: [...byPeriod.values()].sort((a, b) => a.period.localeCompare(b.period)),
    };
  }

  async financial(): Promise<AdminFinancial> {
    const [byTierStatus, revenue, cancellations] = await Promise.all([
      adminStatsRepository.subscriptionsByTierAndStatus(this.#db),
      adminStatsRepository.monthlyRevenue(this.#db, this.#now(), REVENUE_MONTHS),
      adminStatsRepository.cancellations(this.#db, CANCELLATIONS_SHOWN),
    ]);
    return { by_tier_status: byTierStatus, monthly_revenue: revenue, cancellations };
  }

  async billingEvents(page: number, perPage: number): Promise<{ events: BillingEvent[]; meta: PageMeta }> {
    const { rows, total } = await adminStatsRepository.billingEvents(this.#db, {
      limit: perPage,
      offset: (page - 1) * perPage,
    });
    return {
      events: rows,
      meta: {
        current_page: page,
        per_page: perPage,
        total_count: total,
        total_pages: Math.max(1, Math.ceil(total / perPage)),
      },
    };
  }
}
