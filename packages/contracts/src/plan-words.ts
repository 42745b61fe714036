// How a person reads the plans' limits and features: the words of the plan pages and the refusals. Apart from
// plans.ts, which the web client's first load carries for a refusal's upgrade link (issue 13 §1): these words
// only serve pages that load later. No zod here either.
import type { FeatureKey, UsageResource } from './plans.js';

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
