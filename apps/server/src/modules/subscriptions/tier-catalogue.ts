import type { FeatureKey, LimitKey, TierIdentifier } from '@haversack/contracts';

interface TierDefinition {
  identifier: TierIdentifier;
  name: string;
  description: string;
  rank: number;
  priceCents: number;
  limits: Record<LimitKey, number | null>;
  features: Record<FeatureKey, boolean>;
}

const noFeatures: Record<FeatureKey, boolean> = {
  self_inventory_management: false,
  party_view_access: false,
  party_collaboration: false,
  api_access: false,
  ai_tools: false,
  custom_branding: false,
  patronage_system: false,
  premium_support: false,
  shops_deployment: false,
  loot_distribution: false,
};

const freeFeatures = { ...noFeatures, self_inventory_management: true, party_view_access: true };
const adventurerFeatures = {
  ...freeFeatures,
  party_collaboration: true,
  shops_deployment: true,
  loot_distribution: true,
};
const heroFeatures = { ...adventurerFeatures, patronage_system: true, api_access: true, ai_tools: true };
const legendFeatures = Object.fromEntries(Object.keys(noFeatures).map((k) => [k, true])) as Record<
  FeatureKey,
  boolean
>;

/**
 * spec/01 §3 for tier_free and DESIGN §5 for the paid tiers; seeded idempotently at every start. The
 * limits and features are the whole entitlement (enforced live or not); the API presents only the live ones
 * (`liveFeatures`/`liveLimits` in the contracts), so a description names only what is live here.
 */
export const tierCatalogue: TierDefinition[] = [
  {
    identifier: 'tier_free',
    name: 'Free',
    description: 'One character, one party you run and one more you join, and your own inventory.',
    rank: 0,
    priceCents: 0,
    limits: {
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
    },
    features: freeFeatures,
  },
  {
    identifier: 'tier_1',
    name: 'Adventurer',
    description:
      'A small table: a few characters and parties, a shared party stash, and shops and loot for your game.',
    rank: 1,
    priceCents: 500,
    limits: {
      characters: 5,
      parties_can_create: 3,
      parties_can_join: 5,
      inventory_actions_personal_monthly: 1_000,
      inventory_actions_party_monthly: 2_000,
      shop_deployments_monthly: 10,
      loot_deployments_monthly: 10,
      ai_uses_monthly: 25,
      item_templates: null,
      shop_templates: 10,
      loot_templates: 10,
      shop_instances: 5,
      loot_instances: 10,
    },
    features: adventurerFeatures,
  },
  {
    identifier: 'tier_2',
    name: 'Hero',
    description: 'For busy game masters: more of everything, and sponsoring your players with patronage.',
    rank: 2,
    priceCents: 1_000,
    limits: {
      characters: 20,
      parties_can_create: 10,
      parties_can_join: 20,
      inventory_actions_personal_monthly: 10_000,
      inventory_actions_party_monthly: 20_000,
      shop_deployments_monthly: 50,
      loot_deployments_monthly: 50,
      ai_uses_monthly: 100,
      item_templates: null,
      shop_templates: 50,
      loot_templates: 50,
      shop_instances: 25,
      loot_instances: 50,
    },
    features: heroFeatures,
  },
  {
    identifier: 'tier_3',
    name: 'Legend',
    description: 'No limits on characters, parties, inventory actions, shops or loot.',
    rank: 3,
    priceCents: 2_000,
    limits: {
      characters: null,
      parties_can_create: null,
      parties_can_join: null,
      inventory_actions_personal_monthly: null,
      inventory_actions_party_monthly: null,
      shop_deployments_monthly: null,
      loot_deployments_monthly: null,
      ai_uses_monthly: 500,
      item_templates: null,
      shop_templates: null,
      loot_templates: null,
      shop_instances: null,
      loot_instances: null,
    },
    features: legendFeatures,
  },
];
