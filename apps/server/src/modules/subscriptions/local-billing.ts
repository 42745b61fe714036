import { randomBytes } from 'node:crypto';
import { subscriptionMessages } from '@haversack/contracts';
import { AppError } from '../../lib/app-error.js';
import type { BillingProvider } from './billing-provider.js';

/**
 * The return page as a path on this app, carrying `name=value`. Demo billing never leaves the app, so its
 * answer names no origin: the browser stays on the address it is using, with its session (a page opened at
 * http://127.0.0.1:3000 sent to APP_URL's http://localhost:3000 would be signed out there).
 */
export function appPathWithQuery(url: string, name: string, value: string): string {
  const parsed = new URL(url);
  parsed.searchParams.set(name, value);
  // A path opening with two slashes would be read by the browser as another host ("//evil.example"): the
  // service admits none, and this keeps it so whatever reaches it.
  const path = parsed.pathname.replace(/^[/\\]+/, '/');
  return `${path}${parsed.search}${parsed.hash}`;
}

/**
 * Demo billing, only with BILLING_PROVIDER=local: checkout completes at once and says so on screen ("Local
 * billing: no payment is taken"). The answer is the return page carrying the session id, as a provider's
 * redirect would be.
 */
export class LocalBilling implements BillingProvider {
  readonly name = 'local' as const;

  async startCheckout(request: { successUrl: string }) {
    const sessionId = `local_${randomBytes(12).toString('hex')}`;
    return { url: appPathWithQuery(request.successUrl, 'session_id', sessionId), sessionId, completed: true };
  }

  /** Local plans have no provider subscription: a change is a checkout, completed at once. */
  async changePlan() {
    return undefined;
  }

  async portalUrl(input: { returnUrl: string }) {
    return appPathWithQuery(input.returnUrl, 'portal', 'local');
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

  async changePlan(): Promise<never> {
    throw new AppError('SERVICE_UNAVAILABLE', subscriptionMessages.billingDisabled);
  }

  async portalUrl(): Promise<never> {
    throw new AppError('SERVICE_UNAVAILABLE', subscriptionMessages.billingDisabled);
  }

  async cancel() {}

  async reactivate() {}
}
