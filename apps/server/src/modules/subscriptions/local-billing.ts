import { randomBytes } from 'node:crypto';
import { subscriptionMessages } from '@haversack/contracts';
import { AppError } from '../../lib/app-error.js';
import type { BillingProvider } from './billing-provider.js';

function withQuery(url: string, name: string, value: string): string {
  const parsed = new URL(url);
  parsed.searchParams.set(name, value);
  return parsed.toString();
}

/**
 * Demo billing, only with BILLING_PROVIDER=local: checkout completes at once and says so on screen ("Local
 * billing: no payment is taken"). The answer is the return URL carrying the session id, as a provider's
 * redirect would be.
 */
export class LocalBilling implements BillingProvider {
  readonly name = 'local' as const;

  async startCheckout(request: { successUrl: string }) {
    const sessionId = `local_${randomBytes(12).toString('hex')}`;
    return { url: withQuery(request.successUrl, 'session_id', sessionId), sessionId, completed: true };
  }

  async portalUrl(input: { returnUrl: string }) {
    return withQuery(input.returnUrl, 'portal', 'local');
  }

  async cancel() {}

  async reactivate() {}
}

/** No Stripe key and no explicit BILLING_PROVIDER=local: nobody can be charged, so nobody is upgraded. */
export class DisabledBilling implements BillingProvider {
  readonly name = 'none' as const;

  async startCheckout(): Promise<never> {
    throw new AppError('SERVICE_UNAVAILABLE', subscriptionMessages.billingDisabled);
  }

  async portalUrl(): Promise<never> {
    throw new AppError('SERVICE_UNAVAILABLE', subscriptionMessages.billingDisabled);
  }

  async cancel() {}

  async reactivate() {}
}
