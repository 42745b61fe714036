import { isEntityId, isSafeText, text, tierIdentifiers } from '@haversack/contracts';
import type Stripe from 'stripe';
import { z } from 'zod';
import type { Database, Executor } from '../../db/client.js';
import { addBillingMonth, rankOf } from './entitlement-rules.js';
import {
  subscriptionsRepository as repo,
  type SubscriptionChanges,
  type SubscriptionRow,
} from './subscriptions.repository.js';

export type WebhookOutcome = 'applied' | 'duplicate' | 'stale' | 'ignored' | 'unmatched' | 'malformed';

/** Latest instant a Stripe timestamp (seconds) may name: past it, a Date cannot be stored. */
const MAX_STRIPE_SECONDS = 253_402_300_799; // 9999-12-31T23:59:59Z

/**
 * What every handler reads of an event. A correctly signed event without it is acknowledged as
 * `malformed` rather than failed, since Stripe would redeliver it for days and it would never get better.
 */
const eventEnvelopeSchema = z.object({
  id: text().min(1).max(255),
  type: text().min(1).max(255),
  created: z.number().int().min(0).max(MAX_STRIPE_SECONDS),
  data: z.object({ object: z.looseObject({}) }),
});

/** A Stripe object id (`cus_…`, `sub_…`), expanded or not; anything else names nothing of ours. */
function idOf(value: string | { id: string } | null | undefined): string | null {
  const id: unknown = value && typeof value === 'object' ? value.id : value;
  return typeof id === 'string' && id.length > 0 && id.length <= 255 && isSafeText(id) ? id : null;
}

/** Our user ids are uuids: a reference that is not one matches no user (and never reaches a query). */
function userIdOf(...candidates: unknown[]): string | undefined {
  return candidates.find(isEntityId);
}

function dateOf(seconds: unknown): Date | undefined {
  return typeof seconds === 'number' &&
    Number.isInteger(seconds) &&
    seconds > 0 &&
    seconds <= MAX_STRIPE_SECONDS
    ? new Date(seconds * 1000)
    : undefined;
}

function tierFrom(metadata: Record<string, string> | null | undefined): string | null {
  const tier = metadata?.tier;
  return tier && (tierIdentifiers as readonly string[]).includes(tier) ? tier : null;
}

/**
 * Mirrors Stripe's view of a subscription (issue 3 item 4). Each event is applied once (billing_events)
 * and only if it is not older than the last one applied to that subscription, so a replay or a late
 * delivery changes nothing.
 */
export class StripeWebhookService {
  constructor(private readonly db: Database) {}

  async apply(event: Stripe.Event): Promise<WebhookOutcome> {
    if (!eventEnvelopeSchema.safeParse(event).success) return 'malformed';
    return this.db.transaction(async (tx) => {
      const fresh = await repo.recordBillingEvent(tx, { id: event.id, provider: 'stripe', type: event.type });
      if (!fresh) return 'duplicate';
      const at = new Date(event.created * 1000);
      switch (event.type) {
        case 'checkout.session.completed':
          return this.#checkoutCompleted(tx, event.data.object, at);
        case 'customer.subscription.created':
        case 'customer.subscription.updated':
          return this.#subscriptionChanged(tx, event.data.object, at);
        case 'customer.subscription.deleted':
          return this.#subscriptionDeleted(tx, event.data.object, at);
        case 'invoice.payment_failed':
          return this.#paymentFailed(tx, event.data.object, at);
        default:
          return 'ignored';
      }
    });
  }

  async #checkoutCompleted(
    tx: Executor,
    session: Stripe.Checkout.Session,
    at: Date,
  ): Promise<WebhookOutcome> {
    const userId = userIdOf(session.client_reference_id, session.metadata?.user_id);
    const tierIdentifier = tierFrom(session.metadata);
    if (!userId || !tierIdentifier) return 'unmatched';
    const found = await repo.findByUser(tx, userId, { lock: true });
    const tier = await repo.findTier(tx, tierIdentifier);
    if (!found || !tier) return 'unmatched';
    if (this.#isStale(found.subscription, at)) return 'stale';
    await repo.update(tx, found.subscription.id, {
      tierId: tier.id,
      status: 'active',
      provider: 'stripe',
      providerCustomerId: idOf(session.customer) ?? found.subscription.providerCustomerId,
      providerSubscriptionId: idOf(session.subscription),
      currentPeriodStart: at,
      currentPeriodEnd: addBillingMonth(at),
      cancelAtPeriodEnd: false,
      cancelReason: null,
      cancelledAt: null,
      providerEventAt: at,
    });
    if (rankOf(tier.identifier) > rankOf(found.tier.identifier)) await repo.markTierUpgraded(tx, userId, at);
    return 'applied';
  }

  async #subscriptionChanged(
    tx: Executor,
    subscription: Stripe.Subscription,
    at: Date,
  ): Promise<WebhookOutcome> {
    const row = await this.#find(
      tx,
      idOf(subscription.id),
      userIdOf(subscription.metadata?.user_id),
      idOf(subscription.customer),
    );
    if (!row) return 'unmatched';
    if (this.#isStale(row, at)) return 'stale';
    if (subscription.status === 'canceled' || subscription.status === 'incomplete_expired') {
      await repo.update(tx, row.id, { ...(await this.#freeChanges(tx, at)), providerEventAt: at });
      return 'applied';
    }
    const tierIdentifier = tierFrom(subscription.metadata);
    const tier = tierIdentifier ? await repo.findTier(tx, tierIdentifier) : undefined;
    const item = Array.isArray(subscription.items?.data) ? subscription.items.data[0] : undefined;
    const periodStart = dateOf(item?.current_period_start);
    const periodEnd = dateOf(item?.current_period_end);
    const changes: SubscriptionChanges = {
      status: subscription.status === 'active' || subscription.status === 'trialing' ? 'active' : 'past_due',
      provider: 'stripe',
      providerSubscriptionId: idOf(subscription.id) ?? row.providerSubscriptionId,
      providerCustomerId: idOf(subscription.customer),
      cancelAtPeriodEnd: subscription.cancel_at_period_end === true,
      providerEventAt: at,
      ...(tier ? { tierId: tier.id } : {}),
      ...(periodStart ? { currentPeriodStart: periodStart } : {}),
      ...(periodEnd ? { currentPeriodEnd: periodEnd } : {}),
      ...(subscription.cancel_at_period_end ? {} : { cancelReason: null, cancelledAt: null }),
    };
    await repo.update(tx, row.id, changes);
    return 'applied';
  }

  async #subscriptionDeleted(
    tx: Executor,
    subscription: Stripe.Subscription,
    at: Date,
  ): Promise<WebhookOutcome> {
    const row = await this.#find(
      tx,
      idOf(subscription.id),
      userIdOf(subscription.metadata?.user_id),
      idOf(subscription.customer),
    );
    if (!row) return 'unmatched';
    if (this.#isStale(row, at)) return 'stale';
    await repo.update(tx, row.id, { ...(await this.#freeChanges(tx, at)), providerEventAt: at });
    return 'applied';
  }

  async #paymentFailed(tx: Executor, invoice: Stripe.Invoice, at: Date): Promise<WebhookOutcome> {
    const subscriptionId = idOf(invoice.parent?.subscription_details?.subscription ?? null);
    const row = await this.#find(tx, subscriptionId, undefined, idOf(invoice.customer));
    if (!row) return 'unmatched';
    if (this.#isStale(row, at)) return 'stale';
    await repo.update(tx, row.id, { status: 'past_due', providerEventAt: at });
    return 'applied';
  }

  async #find(
    tx: Executor,
    subscriptionId: string | null,
    userId: string | undefined,
    customerId: string | null,
  ): Promise<SubscriptionRow | undefined> {
    if (subscriptionId) {
      const row = await repo.findByProviderSubscription(tx, subscriptionId);
      if (row) return row;
    }
    if (userId) {
      const found = await repo.findByUser(tx, userId, { lock: true });
      if (found) return found.subscription;
    }
    return customerId ? repo.findByProviderCustomer(tx, customerId) : undefined;
  }

  #isStale(row: SubscriptionRow, at: Date): boolean {
    return row.providerEventAt !== null && at < row.providerEventAt;
  }

  async #freeChanges(tx: Executor, at: Date): Promise<SubscriptionChanges> {
    const free = await repo.findTier(tx, 'tier_free');
    if (!free) throw new Error('tier_free is not seeded');
    return {
      tierId: free.id,
      status: 'cancelled',
      cancelAtPeriodEnd: false,
      cancelledAt: at,
      currentPeriodStart: null,
      currentPeriodEnd: null,
      providerSubscriptionId: null,
    };
  }
}
