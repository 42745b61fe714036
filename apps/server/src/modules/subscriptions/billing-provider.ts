import type { TierRow } from './subscriptions.repository.js';

export interface CheckoutRequest {
  userId: string;
  email: string;
  tier: TierRow;
  successUrl: string;
  cancelUrl: string;
  customerId: string | null;
}

export interface PlanChangeRequest {
  userId: string;
  tier: TierRow;
  /** The provider's subscription the user pays for now. */
  providerSubscriptionId: string;
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
  /**
   * Moves the provider's live subscription to another plan; undefined when the provider bills no such
   * subscription any more (the caller starts a checkout instead). Only a card provider has subscriptions.
   */
  changePlan(request: PlanChangeRequest): Promise<{ providerSubscriptionId: string } | undefined>;
  portalUrl(input: { customerId: string | null; returnUrl: string }): Promise<string>;
  cancel(input: {
    providerSubscriptionId: string | null;
    atPeriodEnd: boolean;
    reason: string | null;
  }): Promise<void>;
  reactivate(input: { providerSubscriptionId: string | null }): Promise<void>;
}
