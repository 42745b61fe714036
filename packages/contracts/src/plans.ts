// The plans' vocabulary (tiers, limits, features, what this server offers) with no zod in it, so that the
// web client can read a refusal's limit or feature without loading the schemas below (issue 13 §1).
// subscriptions.ts holds the schemas of the subscription endpoints.

/** spec/01 §3: tier identifiers and their rank. */
export const tierIdentifiers = ['tier_free', 'tier_1', 'tier_2', 'tier_3'] as const;
export type TierIdentifier = (typeof tierIdentifiers)[number];

/** The plans' names, as the tier catalogue gives them, for screens that hold only an identifier. */
export const tierNames: Record<TierIdentifier, string> = {
  tier_free: 'Free',
  tier_1: 'Adventurer',
  tier_2: 'Hero',
  tier_3: 'Legend',
};

/** A stored tier identifier by its plan's name; anything else as it is. */
export function tierNameOf(identifier: unknown): string {
  const tier = tierIdentifiers.find((candidate) => candidate === identifier);
  return tier ? tierNames[tier] : String(identifier);
}
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
 * The features that always follow the user's own plan, never a patronage's granted plan in a party: an API
 * token belongs to a user, not a party (decisions: "Tokens follow the user's own plan, not a patronage"),
 * and a received patronage cannot be passed on (decisions: "Patronage"). The entitlement engine checks
 * them without the party, whatever the caller asks about, and the app says so beside a sponsored plan.
 */
export const ownPlanFeatures = ['api_access', 'patronage_system'] as const satisfies readonly FeatureKey[];
export type OwnPlanFeature = (typeof ownPlanFeatures)[number];

export function followsOwnPlan(feature: FeatureKey): feature is OwnPlanFeature {
  return (ownPlanFeatures as readonly FeatureKey[]).includes(feature);
}

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
