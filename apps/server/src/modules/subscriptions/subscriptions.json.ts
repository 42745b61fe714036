import {
  presentedTierEntitlements,
  type Subscription,
  type Tier,
  type TierIdentifier,
} from '@haversack/contracts';
import type { SubscriptionRow, TierRow } from './subscriptions.repository.js';

/** A tier as the API presents it: only the limits and features that are live on this server. */
export function toTierJson(row: TierRow): Tier {
  return presentedTierEntitlements({
    id: row.id,
    identifier: row.identifier as TierIdentifier,
    name: row.name,
    description: row.description,
    rank: row.rank,
    price: row.priceCents / 100,
    price_cents: row.priceCents,
    currency: row.currency,
    interval: row.interval,
    limits: row.limits,
    features: row.features,
  });
}

export function toSubscriptionJson(
  row: SubscriptionRow,
  tier: TierRow,
  billingProvider: Subscription['billing_provider'],
): Subscription {
  return {
    id: row.id,
    tier: tier.identifier as TierIdentifier,
    status: row.status,
    current_period_start: row.currentPeriodStart?.toISOString() ?? null,
    current_period_end: row.currentPeriodEnd?.toISOString() ?? null,
    cancel_at_period_end: row.cancelAtPeriodEnd,
    cancel_reason: row.cancelReason,
    cancelled_at: row.cancelledAt?.toISOString() ?? null,
    provider: row.provider,
    billing_provider: billingProvider,
  };
}
