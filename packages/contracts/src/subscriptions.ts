import { z } from 'zod';
import { entityId, text } from './fields.js';

/** spec/01 §3: tier identifiers and their rank. */
export const tierIdentifiers = ['tier_free', 'tier_1', 'tier_2', 'tier_3'] as const;
export type TierIdentifier = (typeof tierIdentifiers)[number];
export const tierRank: Record<TierIdentifier, number> = { tier_free: 0, tier_1: 1, tier_2: 2, tier_3: 3 };

/** The limit keys of a tier (spec/01 §3 free tier list). null = unlimited. */
export const limitKeys = [
  'characters',
  'parties_can_create',
  'parties_can_join',
  'inventory_actions_personal_monthly',
  'inventory_actions_party_monthly',
  'shop_deployments_monthly',
  'loot_deployments_monthly',
  'ai_uses_monthly',
  'item_templates',
  'shop_templates',
  'loot_templates',
  'shop_instances',
  'loot_instances',
] as const;
export type LimitKey = (typeof limitKeys)[number];

export const featureKeys = [
  'self_inventory_management',
  'party_view_access',
  'party_collaboration',
  'api_access',
  'ai_tools',
  'custom_branding',
  'patronage_system',
  'premium_support',
  'shops_deployment',
  'loot_distribution',
] as const;
export type FeatureKey = (typeof featureKeys)[number];

/**
 * The usage resource keys of spec/01 §3 (plus joined parties and live instances), each counted against
 * one limit key.
 */
export const usageResourceLimit = {
  characters: 'characters',
  parties_created: 'parties_can_create',
  parties_joined: 'parties_can_join',
  inventory_actions_personal_monthly: 'inventory_actions_personal_monthly',
  inventory_actions_party_monthly: 'inventory_actions_party_monthly',
  shop_deployments_monthly: 'shop_deployments_monthly',
  loot_deployments_monthly: 'loot_deployments_monthly',
  ai_uses_monthly: 'ai_uses_monthly',
  item_templates: 'item_templates',
  shop_templates: 'shop_templates',
  loot_templates: 'loot_templates',
  shop_instances: 'shop_instances',
  loot_instances: 'loot_instances',
} as const satisfies Record<string, LimitKey>;
export type UsageResource = keyof typeof usageResourceLimit;
export const usageResources = Object.keys(usageResourceLimit) as UsageResource[];

export function isUsageResource(value: unknown): value is UsageResource {
  return typeof value === 'string' && Object.hasOwn(usageResourceLimit, value);
}
export function isFeatureKey(value: unknown): value is FeatureKey {
  return typeof value === 'string' && (featureKeys as readonly string[]).includes(value);
}

/** What a plan can sell; each gates some of the features and limits below. */
export const offerings = [
  'inventory',
  'parties',
  'patronage',
  'shops',
  'loot',
  'ai',
  'api',
  'custom_branding',
  'premium_support',
] as const;
export type Offering = (typeof offerings)[number];

/**
 * What this server offers: an offering is live once what it gates is built and works here. Only live
 * features and limits are presented and sold (the tiers answer, the plan comparison, the upgrade page,
 * usage); the tiers keep every flag and limit, and the server enforces them all, live or not. Shipping loot,
 * AI or the API is one line here: false to true (docs/decisions.md, Subscriptions).
 */
export const liveOfferings: Record<Offering, boolean> = {
  inventory: true,
  parties: true,
  patronage: true,
  shops: true,
  loot: true,
  ai: false,
  api: true,
  custom_branding: false,
  premium_support: false,
};

/** The offering each feature belongs to. */
export const featureOffering: Record<FeatureKey, Offering> = {
  self_inventory_management: 'inventory',
  party_view_access: 'parties',
  party_collaboration: 'parties',
  patronage_system: 'patronage',
  shops_deployment: 'shops',
  loot_distribution: 'loot',
  ai_tools: 'ai',
  api_access: 'api',
  custom_branding: 'custom_branding',
  premium_support: 'premium_support',
};

/** The offering each limit belongs to. */
export const limitOffering: Record<LimitKey, Offering> = {
  characters: 'inventory',
  inventory_actions_personal_monthly: 'inventory',
  item_templates: 'inventory',
  parties_can_create: 'parties',
  parties_can_join: 'parties',
  inventory_actions_party_monthly: 'parties',
  shop_templates: 'shops',
  shop_instances: 'shops',
  shop_deployments_monthly: 'shops',
  loot_templates: 'loot',
  loot_instances: 'loot',
  loot_deployments_monthly: 'loot',
  ai_uses_monthly: 'ai',
};

/** Whether each feature and each limit is live on this server. */
export const liveFeatures = Object.fromEntries(
  featureKeys.map((key) => [key, liveOfferings[featureOffering[key]]]),
) as Record<FeatureKey, boolean>;
export const liveLimits = Object.fromEntries(
  limitKeys.map((key) => [key, liveOfferings[limitOffering[key]]]),
) as Record<LimitKey, boolean>;

export function isLiveFeature(value: unknown): value is FeatureKey {
  return isFeatureKey(value) && liveFeatures[value];
}
export function isLiveLimit(value: unknown): value is LimitKey {
  return typeof value === 'string' && Object.hasOwn(liveLimits, value) && liveLimits[value as LimitKey];
}
export function isLiveUsageResource(value: unknown): value is UsageResource {
  return isUsageResource(value) && liveLimits[usageResourceLimit[value]];
}

/** The live keys, in the contract's order. */
export const liveFeatureKeys: FeatureKey[] = featureKeys.filter((key) => liveFeatures[key]);
export const liveLimitKeys: LimitKey[] = limitKeys.filter((key) => liveLimits[key]);
export const liveUsageResources: UsageResource[] = usageResources.filter(isLiveUsageResource);

/** A tier's limits and features as this server presents them: the live ones only. */
export function presentedTierEntitlements<
  T extends { limits: Record<string, number | null>; features: Record<string, boolean> },
>(tier: T): T {
  return {
    ...tier,
    limits: Object.fromEntries(Object.entries(tier.limits).filter(([key]) => isLiveLimit(key))),
    features: Object.fromEntries(Object.entries(tier.features).filter(([key]) => isLiveFeature(key))),
  };
}

/** Usage as this server presents it: the live resources only. */
export function presentedUsage<E>(usage: Partial<Record<string, E>>): Partial<Record<UsageResource, E>> {
  return Object.fromEntries(Object.entries(usage).filter(([key]) => isLiveUsageResource(key)));
}

/** How a person reads each resource: "Your Free plan allows 1 character." */
export const usageResourceLabels: Record<UsageResource, { one: string; many: string; action: string }> = {
  characters: { one: 'character', many: 'characters', action: 'create more' },
  parties_created: { one: 'party you run', many: 'parties you run', action: 'create more' },
  parties_joined: { one: 'party you join', many: 'parties you join', action: 'join more' },
  inventory_actions_personal_monthly: {
    one: 'personal inventory action a month',
    many: 'personal inventory actions a month',
    action: 'keep going this month',
  },
  inventory_actions_party_monthly: {
    one: 'party inventory action a month',
    many: 'party inventory actions a month',
    action: 'keep going this month',
  },
  shop_deployments_monthly: {
    one: 'shop deployment a month',
    many: 'shop deployments a month',
    action: 'deploy more',
  },
  loot_deployments_monthly: {
    one: 'loot deployment a month',
    many: 'loot deployments a month',
    action: 'deploy more',
  },
  ai_uses_monthly: { one: 'AI use a month', many: 'AI uses a month', action: 'use more' },
  item_templates: { one: 'item template', many: 'item templates', action: 'create more' },
  shop_templates: { one: 'shop template', many: 'shop templates', action: 'create more' },
  loot_templates: { one: 'loot template', many: 'loot templates', action: 'create more' },
  shop_instances: { one: 'open shop', many: 'open shops', action: 'open more' },
  loot_instances: { one: 'loot instance', many: 'loot instances', action: 'deploy more' },
};

export const featureLabels: Record<FeatureKey, string> = {
  self_inventory_management: 'Manage your own inventory',
  party_view_access: 'View party inventories',
  party_collaboration: 'Party collaboration',
  api_access: 'API access',
  ai_tools: 'AI tools',
  custom_branding: 'Custom branding',
  patronage_system: 'Sponsor other players (patronage)',
  premium_support: 'Premium support',
  shops_deployment: 'Deploy shops',
  loot_distribution: 'Loot distribution',
};

export function limitExceededMessage(tierName: string, resource: UsageResource, limit: number): string {
  const label = usageResourceLabels[resource];
  return `Your ${tierName} plan allows ${limit} ${limit === 1 ? label.one : label.many}. Upgrade to ${label.action}.`;
}

export function featureUnavailableMessage(tierName: string, feature: FeatureKey): string {
  return `${featureLabels[feature]} is not included in your ${tierName} plan. Upgrade to use it.`;
}

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
  count: z.coerce.number().int().min(1).max(100_000).default(1),
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

export const cancelBodySchema = z.object({
  reason: text().trim().max(1000).optional(),
  cancel_at_period_end: z.boolean().default(true),
});

export const billingPortalBodySchema = z.object({ return_url: text().max(2000).optional() });
export const billingPortalResultSchema = z.object({ portal_url: z.string() });

export const subscriptionMessages = {
  localBilling: 'Local billing: no payment is taken',
  noCheckoutUrl: 'No checkout URL or session ID received',
  cancelled: 'Your subscription will end at the close of the current period.',
  cancelledNow: 'Your subscription has ended. You are on the Free plan.',
  reactivated: 'Your subscription has been reactivated.',
  nothingToCancel: 'You are on the Free plan: there is nothing to cancel.',
  nothingToReactivate: 'There is no cancelled subscription to reactivate.',
  billingDisabled: 'Upgrades are not available: billing is not configured on this server.',
  sameTier: 'You are already on this plan.',
  freeTierCheckout: 'The Free plan needs no checkout: cancel your subscription instead.',
  noBillingAccount: 'There is no billing account yet: upgrade first.',
} as const;
