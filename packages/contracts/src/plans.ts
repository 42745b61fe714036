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
  // Closed shops keep their stock and count until deleted: "open" would promise what the limit does not.
  shop_instances: { one: 'deployed shop', many: 'deployed shops', action: 'deploy more' },
  // The same "deployed" form as shops, with the noun the spec's Loot tab uses ("Manage loot instances for
  // your party", spec/02 §2); spec/01 dictates no wording for limit messages.
  loot_instances: { one: 'deployed loot instance', many: 'deployed loot instances', action: 'deploy more' },
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

/**
 * `sponsored`: the plan is one a sponsor grants in this party, not the user's own, so "Upgrade" would
 * point at a plan that does not help (buying the sponsor's plan changes nothing).
 */
export function limitExceededMessage(
  tierName: string,
  resource: UsageResource,
  limit: number,
  sponsored = false,
): string {
  const label = usageResourceLabels[resource];
  const allowance = `${limit} ${limit === 1 ? label.one : label.many}`;
  // "allows 0 deployed loot instances" reads as a miscount, and "does not include shop deployments a month" puts a
  // rate where a thing belongs: "allows no" reads right for both.
  if (limit === 0 && !sponsored) return `Your ${tierName} plan allows no ${label.many}. Upgrade to use them.`;
  if (sponsored)
    return `Your sponsor’s ${tierName} plan allows ${allowance} in this party: only a higher plan, of your own or your sponsor’s, allows more.`;
  return `Your ${tierName} plan allows ${allowance}. Upgrade to ${label.action}.`;
}

/**
 * The features as the subject of a sentence ("… is not included in your plan"): the labels above are
 * written for a list of what a plan gives, and "Deploy shops is not included" does not read.
 */
export const featureNames: Record<FeatureKey, string> = {
  ...featureLabels,
  self_inventory_management: 'Managing your own inventory',
  party_view_access: 'Viewing party inventories',
  patronage_system: 'Sponsoring other players (patronage)',
  shops_deployment: 'Shop deployment',
};

/** A feature inside a sentence: "includes shop deployment", "includes API access". */
export function featureNameInSentence(feature: FeatureKey): string {
  const name = featureNames[feature];
  return /^[A-Z]{2}/.test(name) ? name : name.charAt(0).toLowerCase() + name.slice(1);
}

export function featureUnavailableMessage(tierName: string, feature: FeatureKey): string {
  return `${featureNames[feature]} is not included in your ${tierName} plan. Upgrade to use it.`;
}
