import {
  type CurrentSubscription,
  type FeatureKey,
  featureKeys,
  type LimitKey,
  limitKeys,
  liveFeatures,
  liveUsageResources,
  type Patronage,
  presentedTierEntitlements,
  type Subscription,
  type Tier,
  type TierIdentifier,
  type Usage,
  usageResourceLimit,
  usageResources,
} from '@haversack/contracts';

/**
 * Test factories: plans shaped like the seeded catalogue (spec/01 §3, DESIGN §5), overridable. buildTier
 * and friends answer as the server does (only the live limits and features); the "stored" variants carry
 * every flag and limit, as the database holds them, to show that the screens still sell only what is live.
 */
const freeLimits: Record<LimitKey, number | null> = {
  characters: 1,
  parties_can_create: 1,
  parties_can_join: 1,
  inventory_actions_personal_monthly: 100,
  inventory_actions_party_monthly: 200,
  shop_deployments_monthly: 0,
  loot_deployments_monthly: 0,
  ai_uses_monthly: 5,
  item_templates: null,
  shop_templates: 0,
  loot_templates: 0,
  shop_instances: 0,
  loot_instances: 0,
};

function features(included: FeatureKey[]): Record<FeatureKey, boolean> {
  return Object.fromEntries(featureKeys.map((key) => [key, included.includes(key)])) as Record<
    FeatureKey,
    boolean
  >;
}

const freeFeatures: FeatureKey[] = ['self_inventory_management', 'party_view_access'];
const adventurerFeatures: FeatureKey[] = [
  ...freeFeatures,
  'party_collaboration',
  'shops_deployment',
  'loot_distribution',
];
const heroFeatures: FeatureKey[] = [...adventurerFeatures, 'patronage_system', 'api_access', 'ai_tools'];

const catalogue: Record<TierIdentifier, Omit<Tier, 'id' | 'currency' | 'interval' | 'description'>> = {
  tier_free: {
    identifier: 'tier_free',
    name: 'Free',
    rank: 0,
    price: 0,
    price_cents: 0,
    limits: freeLimits,
    features: features(freeFeatures),
  },
  tier_1: {
    identifier: 'tier_1',
    name: 'Adventurer',
    rank: 1,
    price: 5,
    price_cents: 500,
    limits: {
      ...freeLimits,
      characters: 5,
      parties_can_create: 3,
      parties_can_join: 5,
      shop_deployments_monthly: 10,
      shop_templates: 10,
      shop_instances: 5,
      loot_deployments_monthly: 10,
      loot_templates: 10,
      loot_instances: 10,
      ai_uses_monthly: 25,
    },
    features: features(adventurerFeatures),
  },
  tier_2: {
    identifier: 'tier_2',
    name: 'Hero',
    rank: 2,
    price: 10,
    price_cents: 1000,
    limits: {
      ...freeLimits,
      characters: 20,
      parties_can_create: 10,
      parties_can_join: 20,
      shop_deployments_monthly: 50,
      shop_templates: 50,
      shop_instances: 25,
      loot_deployments_monthly: 50,
      loot_templates: 50,
      loot_instances: 50,
      ai_uses_monthly: 100,
    },
    features: features(heroFeatures),
  },
  tier_3: {
    identifier: 'tier_3',
    name: 'Legend',
    rank: 3,
    price: 20,
    price_cents: 2000,
    limits: Object.fromEntries(limitKeys.map((key) => [key, null])) as Record<LimitKey, null>,
    features: features([...featureKeys]),
  },
};

/** A plan with every flag and limit, as the database stores it. */
export function buildStoredTier(
  identifier: TierIdentifier = 'tier_free',
  overrides: Partial<Tier> = {},
): Tier {
  return {
    id: `${identifier}-id`,
    description: `The ${catalogue[identifier].name} plan.`,
    currency: 'usd',
    interval: 'month',
    ...catalogue[identifier],
    ...overrides,
  };
}

/** A plan as the server answers it: the live limits and features only. */
export function buildTier(identifier: TierIdentifier = 'tier_free', overrides: Partial<Tier> = {}): Tier {
  return presentedTierEntitlements(buildStoredTier(identifier, overrides));
}

const identifiers = ['tier_free', 'tier_1', 'tier_2', 'tier_3'] as const;

export function buildTiers(): Tier[] {
  return identifiers.map((identifier) => buildTier(identifier));
}

export function buildStoredTiers(): Tier[] {
  return identifiers.map((identifier) => buildStoredTier(identifier));
}

/**
 * Usage of nothing yet against the tier's limits, for the live resources (as the server answers) or, with
 * `stored`, every resource; override the resources a test is about.
 */
export function buildUsage(
  tier: Tier,
  used: Partial<Record<keyof Usage, number>> = {},
  { stored = false }: { stored?: boolean } = {},
): Usage {
  return Object.fromEntries(
    (stored ? usageResources : liveUsageResources).map((resource) => [
      resource,
      { used: used[resource] ?? 0, limit: tier.limits[usageResourceLimit[resource]] ?? null },
    ]),
  ) as Usage;
}

export function buildCurrentSubscription(
  options: {
    tier?: TierIdentifier;
    subscription?: Partial<Subscription>;
    used?: Partial<Record<keyof Usage, number>>;
    patronages?: CurrentSubscription['patronages'];
    /** Every flag, limit and usage resource, as stored, instead of the live ones the server answers. */
    stored?: boolean;
  } = {},
): CurrentSubscription {
  const stored = options.stored === true;
  const tier = (stored ? buildStoredTier : buildTier)(options.tier ?? 'tier_free');
  const isPaid = tier.identifier !== 'tier_free';
  return {
    subscription: {
      id: 'subscription-1',
      tier: tier.identifier,
      status: 'active',
      current_period_start: isPaid ? '2026-03-01T00:00:00.000Z' : null,
      current_period_end: isPaid ? '2026-04-01T00:00:00.000Z' : null,
      cancel_at_period_end: false,
      cancel_reason: null,
      cancelled_at: null,
      provider: isPaid ? 'local' : null,
      billing_provider: 'local',
      ...options.subscription,
    },
    tier,
    usage: buildUsage(buildStoredTier(tier.identifier), options.used, { stored }),
    patronages: options.patronages ?? { granted: [], received: [] },
  };
}

/** How a screen would mention a feature (and its limits) that is not built yet. */
const featureWords: Partial<Record<FeatureKey, string>> = {
  loot_distribution: '\\bloot',
  ai_tools: '\\bAI\\b',
  api_access: '\\bAPI\\b',
  custom_branding: 'branding',
  premium_support: 'premium support',
};

/** Matches any mention of a feature this server does not offer yet, or null when every one is live. */
export function unbuiltMention(): RegExp | null {
  const words = featureKeys.flatMap((key) => (liveFeatures[key] ? [] : [featureWords[key] ?? key]));
  return words.length === 0 ? null : new RegExp(words.join('|'), 'i');
}

/** A patronage: ranger sponsors bard with Hero in The Lantern Bearers. */
export function buildPatronage(overrides: Partial<Patronage> = {}): Patronage {
  return {
    id: 'patronage-1',
    party_id: 'party-1',
    party_name: 'The Lantern Bearers',
    active: true,
    granted_tier: 'tier_2',
    patron_id: 'user-1',
    patron_name: 'ranger',
    beneficiary_id: 'user-2',
    beneficiary_name: 'bard',
    created_at: '2026-03-02T00:00:00.000Z',
    ...overrides,
  };
}
