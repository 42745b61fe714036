import type { Config } from '../../config.js';
import type { BillingProvider } from './billing-provider.js';
import { DisabledBilling, LocalBilling } from './local-billing.js';
import type { StripeOptions } from './stripe-billing.js';

/**
 * DESIGN §7: Stripe when a key is set; free upgrades only when BILLING_PROVIDER=local says so explicitly;
 * with neither, upgrades are refused rather than given away. NODE_ENV plays no part: a plain `npm start`
 * leaves it unset, and that must not hand out the top tier for nothing. A Stripe key wins over `local`,
 * so a quick-start default left in place cannot turn off real billing.
 *
 * Stripe's SDK (0.7 MB of the server's bundle) is loaded only when a key is set: a server without one never
 * reads or compiles it at start (issue 13 §6).
 */
export async function createBillingProvider(
  config: Config,
  stripeApi: Pick<StripeOptions, 'host' | 'port' | 'protocol'> = {},
): Promise<BillingProvider> {
  if (config.stripeSecretKey) {
    const { StripeBilling } = await import('./stripe-billing.js');
    return new StripeBilling({
      secretKey: config.stripeSecretKey,
      webhookSecret: config.stripeWebhookSecret,
      ...stripeApi,
    });
  }
  return config.billingProvider === 'local' ? new LocalBilling() : new DisabledBilling();
}
