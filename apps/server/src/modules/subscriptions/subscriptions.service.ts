import {
  appPathMessage,
  type CheckoutSession,
  type CurrentSubscription,
  type FeatureKey,
  isAppPath,
  isFeatureKey,
  isGrantedPlan,
  isUsageResource,
  limitExceededMessage,
  liveFeatureKeys,
  liveLimitKeys,
  type Patronage,
  presentedUsage,
  type Subscription,
  subscriptionMessages,
  type Tier,
  type Usage,
} from '@haversack/contracts';
import { z } from 'zod';
import type { Database, Executor } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import type { BillingProvider } from './billing-provider.js';
import { addBillingMonth, hasLapsed, rankOf } from './entitlement-rules.js';
import type { EntitlementContext, EntitlementService } from './entitlements.service.js';
import { appPathWithQuery } from './local-billing.js';
import { toSubscriptionJson, toTierJson } from './subscriptions.json.js';
import {
  subscriptionsRepository as repo,
  type SubscriptionRow,
  type TierRow,
} from './subscriptions.repository.js';

/**
 * The party of a character the user may see, or undefined when they may not (the characters module
 * provides it).
 */
export type CharacterPartyResolver = (
  db: Executor,
  userId: string,
  characterId: string,
) => Promise<{ partyId: string | null } | undefined>;

/** Lists a user's patronages, granted and received (the parties module provides it). */
export type PatronageLister = (
  db: Executor,
  userId: string,
) => Promise<{ granted: Patronage[]; received: Patronage[] }>;

interface Deps {
  db: Database;
  entitlements: EntitlementService;
  billing: BillingProvider;
  appUrl: string;
  now?: () => Date;
}

export class SubscriptionsService {
  readonly #deps: Deps;
  readonly #now: () => Date;
  #patronages: PatronageLister = async () => ({ granted: [], received: [] });
  #characterParty: CharacterPartyResolver = async () => undefined;
  #planChangeListener: (userId: string) => Promise<void> = async () => {};

  constructor(deps: Deps) {
    this.#deps = deps;
    this.#now = deps.now ?? (() => new Date());
  }

  get billingProvider(): Subscription['billing_provider'] {
    return this.#deps.billing.name;
  }

  setPatronageLister(lister: PatronageLister): void {
    this.#patronages = lister;
  }

  setCharacterPartyResolver(resolver: CharacterPartyResolver): void {
    this.#characterParty = resolver;
  }

  /** Told after a user's own plan changed (the parties module ends the sponsorships it no longer covers). */
  onPlanChanged(listener: (userId: string) => Promise<void>): void {
    this.#planChangeListener = listener;
  }

  /** Call once the change committed. The listener logs its own failures: the change stands regardless. */
  async planChanged(userId: string): Promise<void> {
    await this.#planChangeListener(userId);
  }

  /**
   * spec/01 §7: a character_id names the party whose patronage applies, the character's own. A character
   * the user may not see is 404; a party_id that disagrees with it is 422.
   */
  async #context(userId: string, input: { party_id?: string; character_id?: string }) {
    if (!input.character_id) return input.party_id ? { partyId: input.party_id } : {};
    const character = await this.#characterParty(this.#deps.db, userId, input.character_id);
    if (!character) throw AppError.notFound('Character not found.');
    if (input.party_id && input.party_id !== character.partyId) {
      throw AppError.validation([{ field: 'character_id', message: 'The character is not in this party.' }]);
    }
    return character.partyId ? { partyId: character.partyId } : {};
  }

  /** Every new user starts on tier_free; called inside the registration transaction. */
  async startFree(tx: Executor, userId: string): Promise<void> {
    await repo.insertFree(tx, userId);
  }

  async tiers(): Promise<Tier[]> {
    return (await repo.listTiers(this.#deps.db)).map(toTierJson);
  }

  /** The user's tier identifier and status for the user JSON of spec/01 §3. */
  async summary(db: Executor, userId: string): Promise<{ tier: string; status: string }> {
    const { subscription, tier } = await this.#current(db, userId);
    return { tier: tier.identifier, status: subscription.status };
  }

  async current(userId: string): Promise<CurrentSubscription> {
    const db = this.#deps.db;
    const { subscription, tier } = await this.#current(db, userId);
    const [usage, patronages] = await Promise.all([this.usage(userId), this.#patronages(db, userId)]);
    return {
      subscription: toSubscriptionJson(subscription, tier, this.billingProvider),
      tier: toTierJson(tier),
      usage,
      patronages,
    };
  }

  /** Usage of the live resources (the entitlements count them all). */
  async usage(userId: string): Promise<Partial<Usage>> {
    return presentedUsage(await this.#deps.entitlements.usage(this.#deps.db, userId));
  }

  async inventoryUsage(userId: string) {
    const usage = await this.#deps.entitlements.usage(this.#deps.db, userId);
    return {
      personal: usage.inventory_actions_personal_monthly,
      party: usage.inventory_actions_party_monthly,
    };
  }

  async checkLimit(userId: string, input: { resource: string; count: number; party_id?: string }) {
    if (!isUsageResource(input.resource)) {
      throw AppError.validation([{ field: 'resource', message: `Unknown resource: ${input.resource}` }]);
    }
    const check = await this.#deps.entitlements.checkLimit(
      this.#deps.db,
      userId,
      input.resource,
      input.count,
      input.party_id ? { partyId: input.party_id } : {},
    );
    return {
      allowed: check.allowed,
      resource: check.resource,
      limit: check.limit,
      used: check.used,
      remaining: check.remaining,
      ...(check.allowed
        ? {}
        : {
            message: limitExceededMessage(check.tier.name, check.resource, check.limit ?? 0, check.sponsored),
          }),
    };
  }

  /** spec/01 §7: allowed is false on any failure, never an error. */
  async checkFeature(
    userId: string,
    input: { feature?: unknown; party_id?: unknown; character_id?: unknown },
  ) {
    const feature = isFeatureKey(input.feature) ? input.feature : null;
    if (!feature)
      return { allowed: false, feature: typeof input.feature === 'string' ? input.feature : null };
    // An id that is not even well-formed is a failure, and failures answer false.
    const wellFormed = (id: unknown) => id === undefined || z.uuid().safeParse(id).success;
    if (!wellFormed(input.party_id) || !wellFormed(input.character_id)) return { allowed: false, feature };
    try {
      const context: EntitlementContext = await this.#context(userId, {
        ...(typeof input.party_id === 'string' ? { party_id: input.party_id } : {}),
        ...(typeof input.character_id === 'string' ? { character_id: input.character_id } : {}),
      });
      const { allowed } = await this.#deps.entitlements.checkFeature(this.#deps.db, userId, feature, context);
      return { allowed, feature };
    } catch {
      return { allowed: false, feature };
    }
  }

  async effectiveTier(
    userId: string,
    query: { party_id?: string | undefined; character_id?: string | undefined },
  ) {
    const context = await this.#context(userId, {
      ...(query.party_id ? { party_id: query.party_id } : {}),
      ...(query.character_id ? { character_id: query.character_id } : {}),
    });
    // As every party-scoped call answers a non-member: the party's existence stays hidden.
    if (query.party_id && !(await repo.isPartyMember(this.#deps.db, userId, query.party_id))) {
      throw AppError.notFound('Party not found.');
    }
    const { tier, source } = await this.#deps.entitlements.effectiveTier(this.#deps.db, userId, context);
    return { tier: toTierJson(tier), source };
  }

  /** The live limits and features of two tiers side by side; by default the user's tier and the next up. */
  async compare(userId: string, query: { current?: string; target?: string }) {
    const db = this.#deps.db;
    const tiers = await repo.listTiers(db);
    const own = await this.#deps.entitlements.ownTier(db, userId);
    const find = (key: string | undefined, fallback: TierRow | undefined, field: string) => {
      if (key === undefined) return fallback;
      const found = tiers.find((t) => t.id === key || t.identifier === key);
      if (!found) throw AppError.validation([{ field, message: `Unknown plan: ${key}` }]);
      return found;
    };
    const current = find(query.current, own, 'current') ?? own;
    const next = tiers.find((t) => t.rank === current.rank + 1) ?? current;
    const target = find(query.target, next, 'target') ?? next;
    return {
      current: toTierJson(current),
      target: toTierJson(target),
      limits: liveLimitKeys.map((key) => ({
        key,
        current: current.limits[key] ?? null,
        target: target.limits[key] ?? null,
      })),
      features: liveFeatureKeys.map((key: FeatureKey) => ({
        key,
        current: current.features[key] === true,
        target: target.features[key] === true,
      })),
    };
  }

  /**
   * Starts an upgrade, or changes the plan of a customer who already pays: someone with a live provider
   * subscription never gets a second one (which would bill them twice); its price is changed instead and
   * the answer is this app's return page, the plan applied at once (`plan_changed_to` names it).
   */
  async checkout(
    user: { id: string; email: string },
    input: { tier_id: string; return_url?: string },
  ): Promise<{ checkout_url: string; session_id: string; plan_changed_to: string | null }> {
    const db = this.#deps.db;
    const tier = await repo.findTier(db, input.tier_id);
    if (!tier) throw AppError.validation([{ field: 'tier_id', message: `Unknown plan: ${input.tier_id}` }]);
    if (tier.identifier === 'tier_free') {
      throw AppError.validation([{ field: 'tier_id', message: subscriptionMessages.freeTierCheckout }]);
    }
    const { subscription, tier: currentTier } = await this.#current(db, user.id);
    if (currentTier.id === tier.id && !subscription.cancelAtPeriodEnd && subscription.status === 'active') {
      throw new AppError('CONFLICT', subscriptionMessages.sameTier);
    }
    const successUrl = this.#returnUrl(input.return_url, '/subscription/success', 'return_url');
    const providerSubscriptionId = subscription.providerSubscriptionId;
    if (
      providerSubscriptionId &&
      subscription.provider === this.#deps.billing.name &&
      currentTier.identifier !== 'tier_free'
    ) {
      const changed = await this.#deps.billing.changePlan({ userId: user.id, tier, providerSubscriptionId });
      // The provider bills that subscription no more (its deletion event has not arrived): mirror the end
      // now, so the subscription this checkout makes is taken as the user's current one.
      if (!changed) await this.#endProviderSubscription(user.id, providerSubscriptionId);
      else {
        await this.#applyPlanChange(user.id, tier, changed.providerSubscriptionId);
        await repo.recordCheckoutSession(db, user.id, changed.providerSubscriptionId);
        return {
          // A path, as demo billing answers: the browser stays on the address it uses (local-billing.ts).
          checkout_url: appPathWithQuery(successUrl, 'session_id', changed.providerSubscriptionId),
          session_id: changed.providerSubscriptionId,
          plan_changed_to: tier.name,
        };
      }
    }
    const started = await this.#deps.billing.startCheckout({
      userId: user.id,
      email: user.email,
      tier,
      successUrl,
      cancelUrl: `${this.#deps.appUrl}/subscription/compare`,
      customerId: subscription.providerCustomerId,
    });
    await repo.recordCheckoutSession(db, user.id, started.sessionId);
    if (started.completed) await this.#applyLocalCheckout(user.id, tier);
    return { checkout_url: started.url, session_id: started.sessionId, plan_changed_to: null };
  }

  /** A checkout reference issued to this user (the success page shows no other); 404 for any other. */
  async checkoutSession(userId: string, sessionId: string): Promise<CheckoutSession> {
    const found = await repo.findCheckoutSession(this.#deps.db, userId, sessionId);
    if (!found) throw AppError.notFound(subscriptionMessages.checkoutNotFound);
    return { session_id: found.id, created_at: found.createdAt.toISOString() };
  }

  async cancel(
    userId: string,
    input: { reason?: string; cancel_at_period_end: boolean },
  ): Promise<Subscription> {
    const db = this.#deps.db;
    const { subscription, tier } = await this.#current(db, userId);
    if (tier.identifier === 'tier_free')
      throw new AppError('BAD_REQUEST', subscriptionMessages.nothingToCancel);
    // A plan staff gave has no period to run out: "at the end of the period" would mean never.
    const granted = isGrantedPlan(toSubscriptionJson(subscription, tier, this.billingProvider));
    const atPeriodEnd = input.cancel_at_period_end && !granted;
    // A second cancel at period end is refused, as a second reactivate is: it would move cancelled_at
    // and replace the reason of the first. Ending a pending cancellation at once is still a change.
    if (atPeriodEnd && subscription.cancelAtPeriodEnd)
      throw new AppError('BAD_REQUEST', subscriptionMessages.alreadyCancelled);
    // Ending a pending cancellation at once with no new reason keeps the reason given with it.
    const reason =
      input.reason ?? (subscription.cancelAtPeriodEnd ? subscription.cancelReason : null) ?? null;
    if (!granted) {
      await this.#deps.billing.cancel({
        providerSubscriptionId: subscription.providerSubscriptionId,
        atPeriodEnd,
        reason,
      });
    }
    const now = this.#now();
    const changes = atPeriodEnd
      ? { cancelAtPeriodEnd: true, cancelReason: reason, cancelledAt: now, cancelledTierId: tier.id }
      : await this.#downgradeChanges(db, { subscription, tier }, reason, now);
    const updated = await repo.update(db, subscription.id, changes);
    if (!atPeriodEnd) await this.planChanged(userId);
    const updatedTier = (await repo.findTierById(db, updated.tierId)) ?? tier;
    return toSubscriptionJson(updated, updatedTier, this.billingProvider);
  }

  /**
   * An account about to be deleted: a plan a card provider bills is cancelled there at once, not at the
   * period's end, before the account goes (else the card keeps being charged for an account that no longer
   * exists, and nothing here could stop it). Answers what was cancelled, for the audit; null for a free, a
   * granted or a local plan. A provider that cannot be reached refuses (503) and the account stays.
   */
  async cancelAtProviderNow(
    userId: string,
  ): Promise<{ provider: string; provider_subscription_id: string; tier: string } | null> {
    const found = await repo.findByUser(this.#deps.db, userId);
    const providerSubscriptionId = found?.subscription.providerSubscriptionId;
    if (!found || !providerSubscriptionId || found.subscription.provider !== 'stripe') return null;
    await this.#deps.billing.cancel({
      providerSubscriptionId,
      atPeriodEnd: false,
      reason: 'account deleted',
    });
    return {
      provider: 'stripe',
      provider_subscription_id: providerSubscriptionId,
      tier: found.tier.identifier,
    };
  }

  async reactivate(userId: string): Promise<Subscription> {
    const db = this.#deps.db;
    const { subscription, tier } = await this.#current(db, userId);
    if (!subscription.cancelAtPeriodEnd || tier.identifier === 'tier_free') {
      throw new AppError('BAD_REQUEST', subscriptionMessages.nothingToReactivate);
    }
    await this.#deps.billing.reactivate({ providerSubscriptionId: subscription.providerSubscriptionId });
    const updated = await repo.update(db, subscription.id, {
      cancelAtPeriodEnd: false,
      cancelReason: null,
      cancelledAt: null,
      cancelledTierId: null,
      status: 'active',
    });
    return toSubscriptionJson(updated, tier, this.billingProvider);
  }

  async billingPortal(userId: string, input: { return_url?: string }) {
    const { subscription } = await this.#current(this.#deps.db, userId);
    const returnUrl = this.#returnUrl(input.return_url, '/subscription', 'return_url');
    return {
      portal_url: await this.#deps.billing.portalUrl({
        customerId: subscription.providerCustomerId,
        returnUrl,
      }),
    };
  }

  /**
   * The subscription as it stands now. A cancellation whose period has closed is written down here
   * (lazily, since the local provider sends no event), and a local subscription renews each month.
   */
  async #current(db: Executor, userId: string): Promise<{ subscription: SubscriptionRow; tier: TierRow }> {
    let found = await repo.findByUser(db, userId);
    if (!found) {
      await repo.insertFree(db, userId);
      found = await repo.findByUser(db, userId);
      if (!found) throw AppError.notFound('No subscription for this user.');
    }
    const { subscription, tier } = found;
    const now = this.#now();
    const state = {
      tierIdentifier: tier.identifier,
      status: subscription.status,
      cancelAtPeriodEnd: subscription.cancelAtPeriodEnd,
      currentPeriodEnd: subscription.currentPeriodEnd,
    };
    if (hasLapsed(state, now)) {
      const updated = await repo.update(
        db,
        subscription.id,
        await this.#downgradeChanges(db, { subscription, tier }, subscription.cancelReason, now),
      );
      // Not awaited: `db` may be the caller's transaction, which the listener must not wait inside.
      void this.planChanged(userId);
      return { subscription: updated, tier: (await repo.findTierById(db, updated.tierId)) ?? tier };
    }
    if (
      subscription.provider === 'local' &&
      tier.identifier !== 'tier_free' &&
      subscription.currentPeriodEnd &&
      subscription.currentPeriodEnd <= now
    ) {
      let start = subscription.currentPeriodEnd;
      let end = addBillingMonth(start);
      while (end <= now) {
        start = end;
        end = addBillingMonth(start);
      }
      const renewed = await repo.update(db, subscription.id, {
        currentPeriodStart: start,
        currentPeriodEnd: end,
      });
      return { subscription: renewed, tier };
    }
    return { subscription, tier };
  }

  /** Back to Free, naming the plan that ended (for the admin's cancellations) while the row still has it. */
  async #downgradeChanges(
    db: Executor,
    ended: { subscription: SubscriptionRow; tier: TierRow },
    reason: string | null,
    now: Date,
  ) {
    const free = await repo.findTier(db, 'tier_free');
    if (!free) throw new Error('tier_free is not seeded');
    return {
      tierId: free.id,
      status: 'cancelled' as const,
      cancelAtPeriodEnd: false,
      cancelReason: reason,
      cancelledAt: now,
      cancelledTierId: ended.tier.id === free.id ? ended.subscription.cancelledTierId : ended.tier.id,
      currentPeriodStart: null,
      currentPeriodEnd: null,
      providerSubscriptionId: null,
    };
  }

  /**
   * Issue 15: staff put a user on a plan without payment (a comp, a refund, a prize), inside the admin's
   * transaction so that the audit entry and the change stand or fall together. No billing provider and no
   * period end: the plan holds until staff or the user change it.
   */
  async grantTier(
    tx: Executor,
    userId: string,
    tierIdentifier: string,
  ): Promise<{ before: { tier: string; status: string }; after: { tier: string; status: string } }> {
    let found = await repo.findByUser(tx, userId, { lock: true });
    if (!found) {
      await repo.insertFree(tx, userId);
      found = await repo.findByUser(tx, userId, { lock: true });
    }
    const tier = await repo.findTier(tx, tierIdentifier);
    if (!found || !tier)
      throw AppError.validation([{ field: 'tier_id', message: `Unknown plan: ${tierIdentifier}` }]);
    const now = this.#now();
    await repo.update(tx, found.subscription.id, {
      tierId: tier.id,
      status: 'active',
      provider: null,
      currentPeriodStart: now,
      currentPeriodEnd: null,
      cancelAtPeriodEnd: false,
      cancelReason: null,
      cancelledAt: null,
      cancelledTierId: null,
    });
    if (rankOf(tier.identifier) > rankOf(found.tier.identifier)) await repo.markTierUpgraded(tx, userId, now);
    return {
      before: { tier: found.tier.identifier, status: found.subscription.status },
      after: { tier: tier.identifier, status: 'active' },
    };
  }

  async #applyLocalCheckout(userId: string, tier: TierRow) {
    const now = this.#now();
    await this.#deps.db.transaction(async (tx) => {
      const found = await repo.findByUser(tx, userId, { lock: true });
      if (!found) throw AppError.notFound('No subscription for this user.');
      await repo.update(tx, found.subscription.id, {
        tierId: tier.id,
        status: 'active',
        provider: 'local',
        currentPeriodStart: now,
        currentPeriodEnd: addBillingMonth(now),
        cancelAtPeriodEnd: false,
        cancelReason: null,
        cancelledAt: null,
        cancelledTierId: null,
      });
      if (rankOf(tier.identifier) > rankOf(found.tier.identifier))
        await repo.markTierUpgraded(tx, userId, now);
    });
    await this.planChanged(userId);
  }

  async #endProviderSubscription(userId: string, providerSubscriptionId: string) {
    const now = this.#now();
    await this.#deps.db.transaction(async (tx) => {
      const found = await repo.findByUser(tx, userId, { lock: true });
      if (!found || found.subscription.providerSubscriptionId !== providerSubscriptionId) return;
      await repo.update(tx, found.subscription.id, await this.#downgradeChanges(tx, found, null, now));
    });
    await this.planChanged(userId);
  }

  /**
   * Mirrors a plan change the provider has just made, so the new limits apply now. The provider's own event
   * for it follows and says the same; `providerEventAt` is left alone so that event is not taken as stale.
   * If the row no longer names that subscription (a deletion arrived meanwhile), the events decide.
   */
  async #applyPlanChange(userId: string, tier: TierRow, providerSubscriptionId: string) {
    const now = this.#now();
    await this.#deps.db.transaction(async (tx) => {
      const found = await repo.findByUser(tx, userId, { lock: true });
      if (!found || found.subscription.providerSubscriptionId !== providerSubscriptionId) return;
      await repo.update(tx, found.subscription.id, {
        tierId: tier.id,
        cancelAtPeriodEnd: false,
        cancelReason: null,
        cancelledAt: null,
        cancelledTierId: null,
      });
      if (rankOf(tier.identifier) > rankOf(found.tier.identifier))
        await repo.markTierUpgraded(tx, userId, now);
    });
    await this.planChanged(userId);
  }

  /**
   * Return URLs stay on this app (review finding 3): a path opening with one '/' and then neither '/' nor
   * '\\', even once percent-decoded (browsers read "//host" and "/\\host" as another host), or an absolute
   * URL on APP_URL's origin whose path obeys the same rule; the result must still be on APP_URL's origin.
   */
  #returnUrl(given: string | undefined, fallbackPath: string, field: string): string {
    const appUrl = this.#deps.appUrl;
    if (!given) return `${appUrl}${fallbackPath}`;
    const refusal = AppError.validation([{ field, message: appPathMessage }]);
    const appOrigin = new URL(appUrl).origin;
    let resolved: URL;
    try {
      if (given.startsWith('/')) {
        if (!isAppPath(given)) throw refusal;
        resolved = new URL(`${appUrl.replace(/\/+$/, '')}${given}`);
      } else {
        resolved = new URL(given);
        if (!isAppPath(`${resolved.pathname}${resolved.search}`)) throw refusal;
      }
    } catch {
      throw refusal;
    }
    if (resolved.origin !== appOrigin || !isAppPath(resolved.pathname)) throw refusal;
    return resolved.toString();
  }
}
