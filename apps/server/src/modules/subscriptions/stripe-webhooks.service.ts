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

/**
 * What became of an event. `not_current`: it is about a subscription other than the one the user pays
 * through now (left over from a plan change, a second checkout), so it must not touch their plan.
 * `awaiting_payment`: a checkout or subscription not paid yet (an asynchronous method such as a bank
 * debit); `checkout.session.async_payment_succeeded` applies it once the money is there.
 */
export type WebhookOutcome =
  | 'applied'
  | 'duplicate'
  | 'stale'
  | 'ignored'
  | 'unmatched'
  | 'malformed'
  | 'not_current'
  | 'awaiting_payment';

/** A matched row, and whether the event is the first word of its subscription (the row names none yet). */
type Found = { row: SubscriptionRow; first: boolean };

/** Checkout payment states in which the plan is paid for (Stripe's `payment_status`). */
const paidCheckout = new Set(['paid', 'no_payment_required']);

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
        case 'checkout.session.async_payment_succeeded':
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
    // A bank debit completes the checkout unpaid; its async_payment_succeeded event comes back here paid.
    if (!paidCheckout.has(session.payment_status)) return 'awaiting_payment';
    const found = await repo.findByUser(tx, userId, { lock: true });
    const tier = await repo.findTier(tx, tierIdentifier);
    if (!found || !tier) return 'unmatched';
    const subscriptionId = idOf(session.subscription);
    const current = found.subscription.providerSubscriptionId;
    // The user already pays through another subscription: a second one must not replace it (see
    // decisions.md: plan changes go to the existing subscription, never through a second checkout).
    if (current && current !== subscriptionId) return 'not_current';
    if (this.#isStale(found.subscription, at)) return 'stale';
    await repo.update(tx, found.subscription.id, {
      tierId: tier.id,
      status: 'active',
      provider: 'stripe',
      providerCustomerId: idOf(session.customer) ?? found.subscription.providerCustomerId,
      providerSubscriptionId: subscriptionId,
      currentPeriodStart: at,
      currentPeriodEnd: addBillingMonth(at),
      cancelAtPeriodEnd: false,
      cancelReason: null,
      cancelledAt: null,
      cancelledTierId: null,
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
    const found = await this.#find(
      tx,
      idOf(subscription.id),
      userIdOf(subscription.metadata?.user_id),
      idOf(subscription.customer),
    );
    if (found === 'unmatched' || found === 'not_current') return found;
    const { row, first } = found;
    if (this.#isStale(row, at)) return 'stale';
    const live = subscription.status === 'active' || subscription.status === 'trialing';
    if (first && !live) {
      // A subscription we never recorded that is not paid for: an unpaid first one waits for its payment,
      // an ended one changes nothing of ours.
      return subscription.status === 'canceled' || subscription.status === 'incomplete_expired'
        ? 'not_current'
        : 'awaiting_payment';
    }
    if (subscription.status === 'canceled' || subscription.status === 'incomplete_expired') {
      await repo.update(tx, row.id, { ...(await this.#freeChanges(tx, row, at)), providerEventAt: at });
      return 'applied';
    }
    const tierIdentifier = tierFrom(subscription.metadata);
    const tier = tierIdentifier ? await repo.findTier(tx, tierIdentifier) : undefined;
    const item = Array.isArray(subscription.items?.data) ? subscription.items.data[0] : undefined;
    const periodStart = dateOf(item?.current_period_start);
    const periodEnd = dateOf(item?.current_period_end);
    const changes: SubscriptionChanges = {
      status: live ? 'active' : 'past_due',
      provider: 'stripe',
      providerSubscriptionId: idOf(subscription.id) ?? row.providerSubscriptionId,
      providerCustomerId: idOf(subscription.customer),
      cancelAtPeriodEnd: subscription.cancel_at_period_end === true,
      providerEventAt: at,
      ...(tier ? { tierId: tier.id } : {}),
      ...(periodStart ? { currentPeriodStart: periodStart } : {}),
      ...(periodEnd ? { currentPeriodEnd: periodEnd } : {}),
      ...(subscription.cancel_at_period_end
        ? {}
        : { cancelReason: null, cancelledAt: null, cancelledTierId: null }),
    };
    await repo.update(tx, row.id, changes);
    return 'applied';
  }

  async #subscriptionDeleted(
    tx: Executor,
    subscription: Stripe.Subscription,
    at: Date,
  ): Promise<WebhookOutcome> {
    const found = await this.#find(
      tx,
      idOf(subscription.id),
      userIdOf(subscription.metadata?.user_id),
      idOf(subscription.customer),
    );
    if (found === 'unmatched' || found === 'not_current') return found;
    // The end of a subscription we never recorded leaves the user's plan as it is.
    if (found.first) return 'not_current';
    if (this.#isStale(found.row, at)) return 'stale';
    await repo.update(tx, found.row.id, {
      ...(await this.#freeChanges(tx, found.row, at)),
      providerEventAt: at,
    });
    return 'applied';
  }

  async #paymentFailed(tx: Executor, invoice: Stripe.Invoice, at: Date): Promise<WebhookOutcome> {
    const subscriptionId = idOf(invoice.parent?.subscription_details?.subscription ?? null);
    const found = await this.#find(tx, subscriptionId, undefined, idOf(invoice.customer));
    if (found === 'unmatched' || found === 'not_current') return found;
    if (found.first) return 'not_current';
    if (this.#isStale(found.row, at)) return 'stale';
    await repo.update(tx, found.row.id, { status: 'past_due', providerEventAt: at });
    return 'applied';
  }

  /**
   * The row an event about a subscription belongs to: the one naming that subscription; failing that, the
   * user's (by metadata, else by customer) only while it names no subscription yet, i.e. a first checkout
   * whose events outran `checkout.session.completed`. A row that names another subscription is the user's
   * current one, and this event is `not_current`.
   */
  async #find(
    tx: Executor,
    subscriptionId: string | null,
    userId: string | undefined,
    customerId: string | null,
  ): Promise<Found | 'unmatched' | 'not_current'> {
    if (subscriptionId) {
      const row = await repo.findByProviderSubscription(tx, subscriptionId);
      if (row) return { row, first: false };
    }
    const row = userId
      ? (await repo.findByUser(tx, userId, { lock: true }))?.subscription
      : customerId
        ? await repo.findByProviderCustomer(tx, customerId)
        : undefined;
    if (!row) return 'unmatched';
    // Read again under the lock: a concurrent event may just have recorded this very subscription.
    if (row.providerSubscriptionId !== null)
      return row.providerSubscriptionId === subscriptionId ? { row, first: false } : 'not_current';
    return { row, first: true };
  }

  #isStale(row: SubscriptionRow, at: Date): boolean {
    return row.providerEventAt !== null && at < row.providerEventAt;
  }

  /** Back to Free, naming the plan that ended (for the admin's cancellations) while the row still has it. */
  async #freeChanges(tx: Executor, ended: SubscriptionRow, at: Date): Promise<SubscriptionChanges> {
    const free = await repo.findTier(tx, 'tier_free');
    if (!free) throw new Error('tier_free is not seeded');
    return {
      tierId: free.id,
      status: 'cancelled',
      cancelAtPeriodEnd: false,
      cancelledAt: at,
      cancelledTierId: ended.tierId === free.id ? ended.cancelledTierId : ended.tierId,
      currentPeriodStart: null,
      currentPeriodEnd: null,
      providerSubscriptionId: null,
    };
  }
}
