import type { Config } from '../../config.js';
import type { BillingProvider } from './billing-provider.js';
import { DisabledBilling, LocalBilling } from './local-billing.js';
import { StripeBilling, type StripeOptions } from './stripe-billing.js';

/**
 * Stripe when a key is set; the local provider in development or when BILLING_PROVIDER=local says so
 * explicitly; in production with neither, upgrades are refused rather than given away.
 */
export function createBillingProvider(
  config: Config,
  stripeApi: Pick<StripeOptions, 'host' | 'port' | 'protocol'> = {},
): BillingProvider {
  if (config.billingProvider === 'local') return new LocalBilling();
  if (config.stripeSecretKey) {
    return new StripeBilling({
      secretKey: config.stripeSecretKey,
      webhookSecret: config.stripeWebhookSecret,
      ...stripeApi,
    });
  }
  if (config.nodeEnv === 'production' || config.billingProvider === 'stripe') return new DisabledBilling();
  return new LocalBilling();
}
