import {
  type FeatureKey,
  featureUnavailableMessage,
  followsOwnPlan,
  limitExceededMessage,
  type Usage,
  type UsageResource,
  usageResourceLimit,
  usageResources,
} from '@haversack/contracts';
import type { Executor } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import {
  currentMonth,
  featureAllowed,
  hasLapsed,
  higherTier,
  limitAllows,
  remaining,
} from './entitlement-rules.js';
import {
  subscriptionsRepository as repo,
  type SubscriptionRow,
  type TierRow,
} from './subscriptions.repository.js';
import {
  type SubscriptionRead,
  subscriptionReadColumn,
  subscriptionReadFrom,
} from './subscriptions.statements.js';

export type { SubscriptionRead } from './subscriptions.statements.js';

export interface EntitlementContext {
  partyId?: string;
  /**
   * The user's subscription as a caller's statement already read it in this transaction, for this user
   * and party (`subscriptionReadSql`): the check then sends no statement of its own to know the tier.
   */
  read?: SubscriptionRead;
}

/** Counts what a user has used of one resource, from the data itself (see registerUsageCounter). */
export type UsageCounter = (
  db: Executor,
  userId: string,
  window: { month: { start: Date; end: Date }; partyId?: string },
) => Promise<number>;

/** The tier an active patronage grants the user inside one party, if any (the parties module). */
export type PatronageSource = (db: Executor, userId: string, partyId: string) => Promise<string | undefined>;

/** The tiers active patronages grant several users inside one party, by user, asked at once. */
export type PatronagesSource = (
  db: Executor,
  userIds: readonly string[],
  partyId: string,
) => Promise<Map<string, string>>;

/**
 * Whether the user may hold a patronage in the party, as SQL text given the SQL expressions of their ids:
 * read with the user's own subscription so that the patronage source is asked only when there is one
 * (most actions of most users have none). Text, not drizzle SQL: the read is written once
 * (subscriptions.statements.ts), or rides with a caller's statement (`subscriptionReadSql`).
 */
export type PatronageProbe = (user: string, party: string) => string;

export interface LimitCheck {
  allowed: boolean;
  resource: UsageResource;
  limit: number | null;
  used: number;
  remaining: number | null;
  tier: TierRow;
  /** The tier is one a sponsor grants in the party asked about. */
  sponsored: boolean;
}

/**
 * The one entitlement engine every module calls (issue 3 item 2). Modules that own a counted resource
 * register how to count it; callers check inside the same transaction as the action they gate.
 */
export class EntitlementService {
  readonly #counters = new Map<UsageResource, UsageCounter>();
  #patronage: PatronageSource | undefined;
  #patronageProbe: PatronageProbe | undefined;
  #patronages: PatronagesSource | undefined;

  constructor(private readonly now: () => Date = () => new Date()) {}

  registerUsageCounter(resource: UsageResource, counter: UsageCounter): void {
    this.#counters.set(resource, counter);
  }

  setPatronageSource(source: PatronageSource, many: PatronagesSource, probe?: PatronageProbe): void {
    this.#patronage = source;
    this.#patronageProbe = probe;
    this.#patronages = many;
  }

  /** The user's own tier: a subscription cancelled at period end counts as Free once the period closes. */
  async ownTier(db: Executor, userId: string): Promise<TierRow> {
    return (await this.#ownTier(db, userId)).tier;
  }

  /**
   * SQL text of one column reading the user's subscription, its tier and the patronage probe, for a
   * caller's statement to carry (issue 13 §2: one round trip less per action); `user` and `party` are SQL
   * expressions of their ids. Its answer goes back in the context as `read: readSubscription(answer)`.
   */
  subscriptionReadSql(user: string, party: string): string {
    return subscriptionReadColumn(user, party, this.#patronageProbe);
  }

  readSubscription(answer: unknown): SubscriptionRead {
    return subscriptionReadFrom(answer);
  }

  /** `ownTier`, and whether a patronage in `partyId` may exist (always yes without a probe). */
  async #ownTier(db: Executor, userId: string, partyId?: string, read?: SubscriptionRead) {
    const probe = partyId && this.#patronageProbe ? this.#patronageProbe : undefined;
    const row = read
      ? read.row
      : partyId && probe
        ? await repo.findByUserWith(db, userId, partyId, probe)
        : await repo.findByUser(db, userId);
    const mayHavePatronage = !row || !probe || !('probe' in row) || row.probe !== false;
    const tier = this.#paidTier(row);
    return { tier: tier ?? (await this.#freeTier(db)), mayHavePatronage };
  }

  /** The tier a subscription row gives, or undefined where that is Free: no row, or a lapsed plan. */
  #paidTier(row: { subscription: SubscriptionRow; tier: TierRow } | undefined): TierRow | undefined {
    if (!row) return undefined;
    const lapsed = hasLapsed(
      {
        tierIdentifier: row.tier.identifier,
        status: row.subscription.status,
        cancelAtPeriodEnd: row.subscription.cancelAtPeriodEnd,
        currentPeriodEnd: row.subscription.currentPeriodEnd,
      },
      this.now(),
    );
    return lapsed ? undefined : row.tier;
  }

  /**
   * `ownTier` for several users in a fixed number of statements (their subscriptions in one, the Free tier
   * once if any needs it), for a list that shows something of each one's plan.
   */
  async ownTiers(db: Executor, userIds: readonly string[]): Promise<Map<string, TierRow>> {
    const rows = await repo.findByUsers(db, userIds);
    const tiers = new Map<string, TierRow>();
    let free: TierRow | undefined;
    for (const userId of new Set(userIds)) {
      const tier = this.#paidTier(rows.get(userId));
      if (tier) tiers.set(userId, tier);
      else {
        free ??= await this.#freeTier(db);
        tiers.set(userId, free);
      }
    }
    return tiers;
  }

  /**
   * `checkFeature` for several members of one party (the GM's member list) in a fixed number of statements
   * however many they are: their own plans at once, then the sponsors' grants in the party at once.
   */
  async featureAllowedForMembers(
    db: Executor,
    userIds: readonly string[],
    feature: FeatureKey,
    partyId: string,
  ): Promise<Map<string, boolean>> {
    const own = await this.ownTiers(db, userIds);
    const grants: Map<string, string> =
      followsOwnPlan(feature) || !this.#patronages ? new Map() : await this.#patronages(db, userIds, partyId);
    const grantedTiers = new Map(
      (await repo.findTiers(db, [...new Set(grants.values())])).map((tier) => [tier.identifier, tier]),
    );
    const allowed = new Map<string, boolean>();
    for (const [userId, tier] of own) {
      const granted = grants.get(userId);
      allowed.set(
        userId,
        featureAllowed(higherTier(tier, granted ? grantedTiers.get(granted) : undefined).features, feature),
      );
    }
    return allowed;
  }

  async effectiveTier(
    db: Executor,
    userId: string,
    context: EntitlementContext = {},
  ): Promise<{ tier: TierRow; source: 'subscription' | 'patronage' }> {
    if (!context.partyId || !this.#patronage)
      return {
        tier: (await this.#ownTier(db, userId, undefined, context.read)).tier,
        source: 'subscription',
      };
    const { tier: own, mayHavePatronage } = await this.#ownTier(db, userId, context.partyId, context.read);
    if (!mayHavePatronage) return { tier: own, source: 'subscription' };
    const grantedIdentifier = await this.#patronage(db, userId, context.partyId);
    const granted = grantedIdentifier ? await repo.findTier(db, grantedIdentifier) : undefined;
    const tier = higherTier(own, granted);
    return { tier, source: tier === own ? 'subscription' : 'patronage' };
  }

  async checkFeature(db: Executor, userId: string, feature: FeatureKey, context: EntitlementContext = {}) {
    // API access and patronage follow the own plan: a sponsor's plan in the party does not lend them.
    const scope = followsOwnPlan(feature) ? (context.read ? { read: context.read } : {}) : context;
    const { tier } = await this.effectiveTier(db, userId, scope);
    return { allowed: featureAllowed(tier.features, feature), tier };
  }

  async requireFeature(db: Executor, userId: string, feature: FeatureKey, context: EntitlementContext = {}) {
    const { allowed, tier } = await this.checkFeature(db, userId, feature, context);
    if (!allowed) throw featureRefusal(tier.name, feature);
  }

  async countUsage(db: Executor, userId: string, resource: UsageResource, context: EntitlementContext = {}) {
    const counter = this.#counters.get(resource);
    if (!counter) return 0;
    return counter(db, userId, {
      month: currentMonth(this.now()),
      ...(context.partyId ? { partyId: context.partyId } : {}),
    });
  }

  async checkLimit(
    db: Executor,
    userId: string,
    resource: UsageResource,
    count = 1,
    context: EntitlementContext = {},
  ): Promise<LimitCheck> {
    const { tier, source } = await this.effectiveTier(db, userId, context);
    const limit = tier.limits[usageResourceLimit[resource]] ?? null;
    const used = await this.countUsage(db, userId, resource, context);
    return {
      sponsored: source === 'patronage',
      allowed: limitAllows(limit, used, count),
      resource,
      limit,
      used,
      remaining: remaining(limit, used),
      tier,
    };
  }

  /**
   * Call inside the transaction of the gated action, before its insert: the advisory lock makes a second
   * concurrent action of the same user wait until the first commits, so the count it sees is final. An
   * unlimited tier has nothing to count: neither the lock nor the count runs.
   */
  async requireLimit(
    tx: Executor,
    userId: string,
    resource: UsageResource,
    count = 1,
    context: EntitlementContext = {},
  ): Promise<void> {
    const { tier, source } = await this.effectiveTier(tx, userId, context);
    await this.#requireWithinLimit(tx, userId, tier, resource, count, context, source);
  }

  /**
   * requireFeature and requireLimit for one action, with the tier looked up once (the inventory checks
   * both on every party action).
   */
  async requireFeatureAndLimit(
    tx: Executor,
    userId: string,
    feature: FeatureKey,
    resource: UsageResource,
    context: EntitlementContext = {},
  ): Promise<void> {
    const { tier, source } = await this.effectiveTier(tx, userId, context);
    if (!featureAllowed(tier.features, feature)) throw featureRefusal(tier.name, feature);
    await this.#requireWithinLimit(tx, userId, tier, resource, 1, context, source);
  }

  /**
   * Whether one more of `resource` fits the user's own plan, for a check made on someone else's behalf
   * (a party handed to a member): the caller words the refusal, since "Upgrade" would speak to the wrong
   * person. Locked like requireLimit, so two such checks for one user cannot both pass at the edge.
   */
  async roomFor(
    tx: Executor,
    userId: string,
    resource: UsageResource,
  ): Promise<{ fits: boolean; tierName: string; limit: number | null }> {
    const tier = await this.ownTier(tx, userId);
    const limit = tier.limits[usageResourceLimit[resource]] ?? null;
    if (limit === null) return { fits: true, tierName: tier.name, limit };
    await repo.lockEntitlement(tx, userId, resource);
    const used = await this.countUsage(tx, userId, resource);
    return { fits: limitAllows(limit, used), tierName: tier.name, limit };
  }

  async #requireWithinLimit(
    tx: Executor,
    userId: string,
    tier: TierRow,
    resource: UsageResource,
    count: number,
    context: EntitlementContext,
    source: 'subscription' | 'patronage' = 'subscription',
  ) {
    const limit = tier.limits[usageResourceLimit[resource]] ?? null;
    if (limit === null) return;
    await repo.lockEntitlement(tx, userId, resource);
    const used = await this.countUsage(tx, userId, resource, context);
    if (!limitAllows(limit, used, count)) {
      const message = limitExceededMessage(tier.name, resource, limit, source === 'patronage');
      throw new AppError('LIMIT_EXCEEDED', message, {
        details: [{ field: resource, message, resource, limit, used }],
      });
    }
  }

  async usage(db: Executor, userId: string): Promise<Usage> {
    const tier = await this.ownTier(db, userId);
    const entries = await Promise.all(
      usageResources.map(async (resource) => {
        const used = await this.countUsage(db, userId, resource);
        return [resource, { used, limit: tier.limits[usageResourceLimit[resource]] ?? null }] as const;
      }),
    );
    return Object.fromEntries(entries) as Usage;
  }

  async #freeTier(db: Executor): Promise<TierRow> {
    const free = await repo.findTier(db, 'tier_free');
    if (!free) throw new Error('tier_free is not seeded');
    return free;
  }
}

function featureRefusal(tierName: string, feature: FeatureKey): AppError {
  const message = featureUnavailableMessage(tierName, feature);
  return new AppError('FEATURE_NOT_AVAILABLE', message, { details: [{ field: feature, message, feature }] });
}
