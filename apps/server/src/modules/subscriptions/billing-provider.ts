import type { TierRow } from './subscriptions.repository.js';

export interface CheckoutRequest {
  userId: string;
  email: string;
  tier: TierRow;
  successUrl: string;
  cancelUrl: string;
  customerId: string | null;
}

export interface CheckoutStarted {
  url: string;
  sessionId: string;
  /** The local provider completes at once; a card provider completes later through its webhook. */
  completed: boolean;
}

/** A change of the provider's own subscription that the service mirrors (issue 3 item 4). */
export interface BillingProvider {
  readonly name: 'local' | 'stripe' | 'none';
  startCheckout(request: CheckoutRequest): Promise<CheckoutStarted>;
  portalUrl(input: { customerId: string | null; returnUrl: string }): Promise<string>;
  cancel(input: {
    providerSubscriptionId: string | null;
    atPeriodEnd: boolean;
    reason: string | null;
  }): Promise<void>;
  reactivate(input: { providerSubscriptionId: string | null }): Promise<void>;
}
