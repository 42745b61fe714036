import { z } from 'zod';
import { entityId, numberInput, text } from './fields.js';
import { tierIdentifiers, type UsageResource } from './plans.js';

export * from './plan-words.js';
// The plans' vocabulary lives in plans.ts (no zod, for the web client's first load); it is part of this contract.
export * from './plans.js';

export const tierSchema = z.object({
  id: z.string(),
  identifier: z.enum(tierIdentifiers),
  name: z.string(),
  description: z.string(),
  rank: z.number().int(),
  price: z.number(),
  price_cents: z.number().int(),
  currency: z.string(),
  interval: z.string(),
  limits: z.record(z.string(), z.number().int().nullable()),
  features: z.record(z.string(), z.boolean()),
});
export type Tier = z.infer<typeof tierSchema>;

export const usageEntrySchema = z.object({ used: z.number().int(), limit: z.number().int().nullable() });
export type UsageEntry = z.infer<typeof usageEntrySchema>;
export const usageSchema = z.record(z.string(), usageEntrySchema);
export type Usage = Record<UsageResource, UsageEntry>;

export const subscriptionSchema = z.object({
  id: z.string(),
  tier: z.enum(tierIdentifiers),
  status: z.enum(['active', 'cancelled', 'past_due']),
  current_period_start: z.string().nullable(),
  current_period_end: z.string().nullable(),
  cancel_at_period_end: z.boolean(),
  cancel_reason: z.string().nullable(),
  cancelled_at: z.string().nullable(),
  provider: z.enum(['local', 'stripe']).nullable(),
  billing_provider: z.enum(['local', 'stripe', 'none']),
});
export type Subscription = z.infer<typeof subscriptionSchema>;

export const patronageSchema = z.object({
  id: z.string(),
  party_id: z.string(),
  party_name: z.string().nullable(),
  active: z.boolean(),
  granted_tier: z.enum(tierIdentifiers),
  patron_id: z.string(),
  patron_name: z.string().nullable(),
  beneficiary_id: z.string(),
  beneficiary_name: z.string().nullable(),
  created_at: z.string(),
});
export type Patronage = z.infer<typeof patronageSchema>;

export const currentSubscriptionSchema = z.object({
  subscription: subscriptionSchema,
  tier: tierSchema,
  usage: usageSchema,
  patronages: z.object({ granted: z.array(patronageSchema), received: z.array(patronageSchema) }),
});
export type CurrentSubscription = z.infer<typeof currentSubscriptionSchema>;

export const billingProviderSchema = z.enum(['local', 'stripe', 'none']);

export const inventoryUsageSchema = z.object({ personal: usageEntrySchema, party: usageEntrySchema });

export const checkLimitBodySchema = z.object({
  resource: text().min(1).max(64),
  count: numberInput(z.number().int().min(1).max(100_000)).default(1),
  party_id: entityId().optional(),
});
export const checkLimitResultSchema = z.object({
  allowed: z.boolean(),
  resource: z.string(),
  limit: z.number().int().nullable(),
  used: z.number().int(),
  remaining: z.number().int().nullable(),
  message: z.string().optional(),
});

export const checkFeatureBodySchema = z.object({
  feature: z.unknown().optional(),
  party_id: z.unknown().optional(),
  character_id: z.unknown().optional(),
});
export const checkFeatureResultSchema = z.object({ allowed: z.boolean(), feature: z.string().nullable() });

export const compareQuerySchema = z.object({
  current: text().max(64).optional(),
  target: text().max(64).optional(),
});
export const compareResultSchema = z.object({
  current: tierSchema,
  target: tierSchema,
  limits: z.array(
    z.object({ key: z.string(), current: z.number().int().nullable(), target: z.number().int().nullable() }),
  ),
  features: z.array(z.object({ key: z.string(), current: z.boolean(), target: z.boolean() })),
});

export const effectiveTierQuerySchema = z.object({
  party_id: entityId().optional(),
  character_id: entityId().optional(),
});
export const effectiveTierResultSchema = z.object({
  tier: tierSchema,
  source: z.enum(['subscription', 'patronage']),
});

export const checkoutBodySchema = z.object({
  tier_id: text({ error: 'Choose a plan' }).min(1, 'Choose a plan').max(64),
  return_url: text().max(2000).optional(),
});
export const checkoutResultSchema = z.object({ checkout_url: z.string(), session_id: z.string() });

/** GET /subscription/checkout/{session_id}: a checkout reference this server issued to the caller. */
export const checkoutSessionParamsSchema = z.object({ session_id: z.string().min(1).max(255) });
export const checkoutSessionSchema = z.object({ session_id: z.string(), created_at: z.string() });
export type CheckoutSession = z.infer<typeof checkoutSessionSchema>;

export const cancelBodySchema = z.object({
  reason: text().trim().max(1000).optional(),
  cancel_at_period_end: z.boolean().default(true),
});

export const billingPortalBodySchema = z.object({ return_url: text().max(2000).optional() });
export const billingPortalResultSchema = z.object({ portal_url: z.string() });

/**
 * A paid plan staff gave without payment (admin "grant"): no provider and no period, so it holds until
 * changed, costs nothing, and a cancellation ends it at once (there is no period to run out).
 */
export function isGrantedPlan(subscription: {
  tier: string;
  provider: string | null;
  current_period_end: string | null;
}): boolean {
  return (
    subscription.tier !== 'tier_free' &&
    subscription.provider === null &&
    subscription.current_period_end === null
  );
}

export const subscriptionMessages = {
  localBilling: 'Local billing: no payment is taken',
  noCheckoutUrl: 'No checkout URL or session ID received',
  cancelled: 'Your subscription will end at the close of the current period.',
  cancelledNow: 'Your subscription has ended. You are on the Free plan.',
  reactivated: 'Your subscription has been reactivated.',
  nothingToCancel: 'You are on the Free plan: there is nothing to cancel.',
  nothingToReactivate: 'There is no cancelled subscription to reactivate.',
  alreadyCancelled: 'Your subscription is already cancelled: it ends at the close of the current period.',
  billingDisabled: 'Upgrades are not available: billing is not configured on this server.',
  sameTier: 'You are already on this plan.',
  freeTierCheckout: 'The Free plan needs no checkout: cancel your subscription instead.',
  noBillingAccount: 'There is no billing account yet: upgrade first.',
  checkoutNotFound: 'Checkout not found.',
} as const;
