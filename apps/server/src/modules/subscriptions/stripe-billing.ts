import { subscriptionMessages } from '@haversack/contracts';
import Stripe from 'stripe';
import { AppError } from '../../lib/app-error.js';
import type { BillingProvider, CheckoutRequest, PlanChangeRequest } from './billing-provider.js';

/** Stripe's subscription states in which it still bills the customer: a plan change goes to that subscription. */
const liveStatuses: readonly Stripe.Subscription.Status[] = ['active', 'trialing', 'past_due', 'unpaid'];

export const billingUnavailableMessage =
  'Billing is unavailable right now. Please try again in a few minutes.';

/**
 * Stripe could not be reached or failed on its side (network, timeout, its own 5xx, rate limit): a state
 * of the world, not a fault of ours, so a 503 that names billing rather than the generic 500. Anything else
 * (a refused key, a bad request) is our fault and stays a 500 with its stack in the log.
 */
function unavailable(error: unknown): never {
  if (
    error instanceof Stripe.errors.StripeConnectionError ||
    error instanceof Stripe.errors.StripeAPIError ||
    error instanceof Stripe.errors.StripeRateLimitError
  ) {
    throw new AppError('SERVICE_UNAVAILABLE', billingUnavailableMessage);
  }
  throw error;
}

export interface StripeOptions {
  secretKey: string;
  webhookSecret: string | undefined;
  /** Tests point the SDK at a fake Stripe API on 127.0.0.1. */
  host?: string;
  port?: number;
  protocol?: 'http' | 'https';
}

/** The official SDK: checkout sessions, billing portal and subscription changes. */
export class StripeBilling implements BillingProvider {
  readonly name = 'stripe' as const;
  readonly client: Stripe;
  readonly webhookSecret: string | undefined;

  constructor(options: StripeOptions) {
    this.client = new Stripe(options.secretKey, {
      maxNetworkRetries: 1,
      timeout: 8_000,
      ...(options.host ? { host: options.host } : {}),
      ...(options.port ? { port: options.port } : {}),
      ...(options.protocol ? { protocol: options.protocol } : {}),
    });
    this.webhookSecret = options.webhookSecret;
  }

  async startCheckout(request: CheckoutRequest) {
    const metadata = { user_id: request.userId, tier: request.tier.identifier };
    const session = await this.client.checkout.sessions
      .create({
        mode: 'subscription',
        client_reference_id: request.userId,
        ...(request.customerId ? { customer: request.customerId } : { customer_email: request.email }),
        line_items: [
          {
            quantity: 1,
            price_data: {
              currency: request.tier.currency,
              unit_amount: request.tier.priceCents,
              recurring: { interval: 'month' },
              product_data: { name: `Haversack ${request.tier.name}` },
            },
          },
        ],
        metadata,
        subscription_data: { metadata },
        success_url: `${request.successUrl}${request.successUrl.includes('?') ? '&' : '?'}session_id={CHECKOUT_SESSION_ID}`,
        cancel_url: request.cancelUrl,
      })
      .catch(unavailable);
    if (!session.url) throw new AppError('INTERNAL_SERVER_ERROR', subscriptionMessages.noCheckoutUrl);
    return { url: session.url, sessionId: session.id, completed: false };
  }

  /**
   * A paying customer who picks another plan: the price of their one subscription's item is swapped, with
   * Stripe's default proration (the difference is credited or charged on the next invoice), never a
   * second subscription. Undefined when Stripe no longer bills that subscription (ended before its
   * deletion event arrived): the caller opens a checkout then.
   */
  async changePlan(request: PlanChangeRequest) {
    const current = await this.client.subscriptions
      .retrieve(request.providerSubscriptionId)
      .catch((error: unknown) => {
        if (error instanceof Stripe.errors.StripeInvalidRequestError && error.statusCode === 404) return null;
        return unavailable(error);
      });
    const item = current?.items.data[0];
    if (!current || !item || !liveStatuses.includes(current.status)) return undefined;
    const price = await this.client.prices
      .create({
        currency: request.tier.currency,
        unit_amount: request.tier.priceCents,
        recurring: { interval: 'month' },
        product_data: { name: `Haversack ${request.tier.name}` },
      })
      .catch(unavailable);
    const updated = await this.client.subscriptions
      .update(current.id, {
        items: [{ id: item.id, price: price.id }],
        metadata: { user_id: request.userId, tier: request.tier.identifier },
        // Choosing a plan means keeping one: a cancellation scheduled for the period's end is lifted.
        cancel_at_period_end: false,
      })
      .catch(unavailable);
    return { providerSubscriptionId: updated.id };
  }

  async portalUrl(input: { customerId: string | null; returnUrl: string }) {
    if (!input.customerId) throw new AppError('BAD_REQUEST', subscriptionMessages.noBillingAccount);
    const portal = await this.client.billingPortal.sessions
      .create({ customer: input.customerId, return_url: input.returnUrl })
      .catch(unavailable);
    return portal.url;
  }

  async cancel(input: {
    providerSubscriptionId: string | null;
    atPeriodEnd: boolean;
    reason: string | null;
  }) {
    if (!input.providerSubscriptionId) return;
    if (input.atPeriodEnd) {
      await this.client.subscriptions
        .update(input.providerSubscriptionId, {
          cancel_at_period_end: true,
          ...(input.reason ? { cancellation_details: { comment: input.reason.slice(0, 500) } } : {}),
        })
        .catch(unavailable);
    } else {
      await this.client.subscriptions.cancel(input.providerSubscriptionId).catch((error: unknown) => {
        // Already gone at Stripe (cancelled there, or by an earlier attempt): nothing is billed any more.
        if (error instanceof Stripe.errors.StripeInvalidRequestError && error.code === 'resource_missing')
          return;
        unavailable(error);
      });
    }
  }

  async reactivate(input: { providerSubscriptionId: string | null }) {
    if (!input.providerSubscriptionId) return;
    await this.client.subscriptions
      .update(input.providerSubscriptionId, { cancel_at_period_end: false })
      .catch(unavailable);
  }

  /** Verifies the Stripe-Signature header over the raw body; throws on any mismatch. */
  verifyWebhook(rawBody: Buffer, signature: string | undefined): Stripe.Event {
    if (!this.webhookSecret)
      throw new AppError('BAD_REQUEST', 'Webhooks are not configured (STRIPE_WEBHOOK_SECRET).');
    if (!signature) throw new AppError('BAD_REQUEST', 'Missing Stripe-Signature header.');
    try {
      return this.client.webhooks.constructEvent(rawBody, signature, this.webhookSecret);
    } catch {
      throw new AppError('BAD_REQUEST', 'Invalid webhook signature.');
    }
  }
}
