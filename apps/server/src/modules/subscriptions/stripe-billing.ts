import { subscriptionMessages } from '@haversack/contracts';
import Stripe from 'stripe';
import { AppError } from '../../lib/app-error.js';
import type { BillingProvider, CheckoutRequest } from './billing-provider.js';

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
    const session = await this.client.checkout.sessions.create({
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
    });
    if (!session.url) throw new AppError('INTERNAL_SERVER_ERROR', subscriptionMessages.noCheckoutUrl);
    return { url: session.url, sessionId: session.id, completed: false };
  }

  async portalUrl(input: { customerId: string | null; returnUrl: string }) {
    if (!input.customerId) throw new AppError('BAD_REQUEST', subscriptionMessages.noBillingAccount);
    const portal = await this.client.billingPortal.sessions.create({
      customer: input.customerId,
      return_url: input.returnUrl,
    });
    return portal.url;
  }

  async cancel(input: {
    providerSubscriptionId: string | null;
    atPeriodEnd: boolean;
    reason: string | null;
  }) {
    if (!input.providerSubscriptionId) return;
    if (input.atPeriodEnd) {
      await this.client.subscriptions.update(input.providerSubscriptionId, {
        cancel_at_period_end: true,
        ...(input.reason ? { cancellation_details: { comment: input.reason.slice(0, 500) } } : {}),
      });
    } else {
      await this.client.subscriptions.cancel(input.providerSubscriptionId);
    }
  }

  async reactivate(input: { providerSubscriptionId: string | null }) {
    if (!input.providerSubscriptionId) return;
    await this.client.subscriptions.update(input.providerSubscriptionId, { cancel_at_period_end: false });
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
