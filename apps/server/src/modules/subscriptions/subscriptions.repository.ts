import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { directRows } from '../../db/direct.js';
import { users } from '../../db/schema/accounts.js';
import { partyMemberships } from '../../db/schema/parties.js';
import {
  billingEvents,
  checkoutSessions,
  subscriptions,
  subscriptionTiers,
} from '../../db/schema/subscriptions.js';
import { userWritten } from '../../db/user-writes.js';
import {
  probeFrom,
  subscriptionByUserStatement,
  subscriptionByUserWithStatement,
  subscriptionWithTierFrom,
} from './subscriptions.statements.js';
import { tierCatalogue } from './tier-catalogue.js';

export type TierRow = typeof subscriptionTiers.$inferSelect;
export type SubscriptionRow = typeof subscriptions.$inferSelect;
export type SubscriptionChanges = Partial<Omit<typeof subscriptions.$inferInsert, 'id' | 'userId'>>;

export const subscriptionsRepository = {
  /** Idempotent: inserts missing tiers and brings existing ones up to the catalogue. */
  async seedTiers(db: Executor) {
    for (const tier of tierCatalogue) {
      const values = {
        identifier: tier.identifier,
        name: tier.name,
        description: tier.description,
        rank: tier.rank,
        priceCents: tier.priceCents,
        limits: tier.limits,
        features: tier.features,
      };
      await db
        .insert(subscriptionTiers)
        .values(values)
        .onConflictDoUpdate({
          target: subscriptionTiers.identifier,
          set: { ...values, updatedAt: new Date() },
        });
    }
  },

  async listTiers(db: Executor): Promise<TierRow[]> {
    return db.select().from(subscriptionTiers).orderBy(asc(subscriptionTiers.rank));
  },

  async findTier(db: Executor, idOrIdentifier: string): Promise<TierRow | undefined> {
    const isUuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(idOrIdentifier);
    const [row] = await db
      .select()
      .from(subscriptionTiers)
      .where(
        isUuid ? eq(subscriptionTiers.id, idOrIdentifier) : eq(subscriptionTiers.identifier, idOrIdentifier),
      )
      .limit(1);
    return row;
  },

  /** The tiers of these identifiers, in one query (the plans sponsors grant across a member list). */
  async findTiers(db: Executor, identifiers: readonly string[]): Promise<TierRow[]> {
    if (identifiers.length === 0) return [];
    return db
      .select()
      .from(subscriptionTiers)
      .where(inArray(subscriptionTiers.identifier, [...identifiers]));
  },

  async findTierById(db: Executor, id: string): Promise<TierRow | undefined> {
    const [row] = await db.select().from(subscriptionTiers).where(eq(subscriptionTiers.id, id)).limit(1);
    return row;
  },

  async insertFree(db: Executor, userId: string): Promise<void> {
    await db
      .insert(subscriptions)
      .values({
        userId,
        tierId: sql`(select ${subscriptionTiers.id} from ${subscriptionTiers} where ${subscriptionTiers.identifier} = 'tier_free')`,
      })
      .onConflictDoNothing({ target: subscriptions.userId });
  },

  async findByUser(db: Executor, userId: string, options: { lock?: boolean } = {}) {
    if (options.lock) {
      // The user's row first, as a deletion (whose cascade reaches the subscription last), a suspension and
      // Grant plan lock it: a plan change writes it after the subscription (tier_upgraded_at), and taken
      // the other way round the two waited for each other and PostgreSQL ended one (admin attack review).
      // No key update: the rows naming the user (a party handed over to them) are not held up.
      const [user] = await db
        .select({ id: users.id })
        .from(users)
        .where(eq(users.id, userId))
        .limit(1)
        .for('no key update');
      if (!user) return undefined;
      // The row alone, then its tier: under READ COMMITTED a locking statement with a join re-checks the
      // join against the row a concurrent transaction just committed, with the tier it read before, and
      // drops the row when that transaction changed tier_id (a checkout answered 404, a webhook dropped).
      const [subscription] = await db
        .select()
        .from(subscriptions)
        .where(eq(subscriptions.userId, userId))
        .limit(1)
        .for('update');
      if (!subscription) return undefined;
      const [tier] = await db
        .select()
        .from(subscriptionTiers)
        .where(eq(subscriptionTiers.id, subscription.tierId))
        .limit(1);
      if (!tier) throw new Error(`subscription ${subscription.id} names a missing tier`);
      return { subscription, tier };
    }
    // Every counted action reads it: written once as SQL (subscriptions.statements.ts).
    const [row] = await directRows(db, subscriptionByUserStatement, [userId]);
    return row ? subscriptionWithTierFrom(row) : undefined;
  },

  /** `findByUser` for several users in one query: a list of members asks every member's plan at once. */
  async findByUsers(
    db: Executor,
    userIds: readonly string[],
  ): Promise<Map<string, { subscription: SubscriptionRow; tier: TierRow }>> {
    if (userIds.length === 0) return new Map();
    const rows = await db
      .select({ subscription: subscriptions, tier: subscriptionTiers })
      .from(subscriptions)
      .innerJoin(subscriptionTiers, eq(subscriptionTiers.id, subscriptions.tierId))
      .where(inArray(subscriptions.userId, [...userIds]));
    return new Map(rows.map((row) => [row.subscription.userId, row]));
  },

  /**
   * `findByUser` with one more answer of the caller's, a yes/no about the user in a party, read in the same
   * statement: `probe` gives SQL text about the user and the party from their SQL expressions.
   */
  async findByUserWith(
    db: Executor,
    userId: string,
    partyId: string,
    probe: (user: string, party: string) => string,
  ) {
    const [row] = await directRows(db, subscriptionByUserWithStatement(probe), [userId, partyId]);
    return row ? { ...subscriptionWithTierFrom(row), probe: probeFrom(row) } : undefined;
  },

  /** Whether the user belongs to the party, in any role (a plan question about a party needs membership). */
  async isPartyMember(db: Executor, userId: string, partyId: string): Promise<boolean> {
    const [row] = await db
      .select({ id: partyMemberships.id })
      .from(partyMemberships)
      .where(and(eq(partyMemberships.userId, userId), eq(partyMemberships.partyId, partyId)))
      .limit(1);
    return row !== undefined;
  },

  async findByProviderSubscription(db: Executor, providerSubscriptionId: string) {
    const [row] = await db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.providerSubscriptionId, providerSubscriptionId))
      .limit(1)
      .for('update');
    return row;
  },

  async findByProviderCustomer(db: Executor, customerId: string) {
    const [row] = await db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.providerCustomerId, customerId))
      .limit(1)
      .for('update');
    return row;
  },

  /**
   * A change that clears the cancellation (a new plan, bought or granted) first keeps one that had taken
   * effect in `subscription_cancellations`, so the admin's history of cancellations and their reasons
   * survives it. A pending one (the plan still running) cleared so was withdrawn, and is not kept.
   */
  async update(db: Executor, subscriptionId: string, changes: SubscriptionChanges): Promise<SubscriptionRow> {
    if (changes.cancelledAt === null) {
      // Raw SQL: a subquery's columns would render unqualified. Idempotent on (user, time).
      await db.execute(sql`
        insert into subscription_cancellations (user_id, tier_id, reason, cancelled_at, cancel_at_period_end)
        select s.user_id, s.cancelled_tier_id, s.cancel_reason, s.cancelled_at, s.cancel_at_period_end
        from subscriptions s
        where s.id = ${subscriptionId} and s.status = 'cancelled' and s.cancelled_at is not null
        on conflict (user_id, cancelled_at) do nothing`);
    }
    const [row] = await db
      .update(subscriptions)
      .set({ ...changes, updatedAt: new Date() })
      .where(eq(subscriptions.id, subscriptionId))
      .returning();
    if (!row) throw new Error(`subscription ${subscriptionId} vanished during update`);
    return row;
  },

  /** A checkout reference issued to the user; one issued again (a later change of the same subscription) stays. */
  async recordCheckoutSession(db: Executor, userId: string, id: string) {
    await db.insert(checkoutSessions).values({ id, userId }).onConflictDoNothing();
  },

  async findCheckoutSession(db: Executor, userId: string, id: string) {
    const [row] = await db
      .select()
      .from(checkoutSessions)
      .where(and(eq(checkoutSessions.id, id), eq(checkoutSessions.userId, userId)));
    return row;
  },

  async markTierUpgraded(db: Executor, userId: string, at: Date) {
    await db.update(users).set({ tierUpgradedAt: at }).where(eq(users.id, userId));
    userWritten(userId);
  },

  /** True when the event is new; false when it was already applied (a replay). */
  async recordBillingEvent(
    db: Executor,
    event: { id: string; provider: string; type: string },
  ): Promise<boolean> {
    const inserted = await db
      .insert(billingEvents)
      .values(event)
      .onConflictDoNothing({ target: billingEvents.id })
      .returning({ id: billingEvents.id });
    return inserted.length > 0;
  },

  /**
   * Serialises entitlement checks of one user and resource inside the caller's transaction, so two racing
   * requests cannot both take the last unit of a limit.
   */
  async lockEntitlement(db: Executor, userId: string, resource: string) {
    await db.execute(sql`select pg_advisory_xact_lock(hashtext(${`entitlement:${userId}:${resource}`}))`);
  },
};
