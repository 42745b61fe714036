import {
  type FeatureKey,
  featureLabels,
  type LimitKey,
  liveFeatureKeys,
  liveLimitKeys,
  type Tier,
  type UsageResource,
  usageResourceLabels,
  usageResourceLimit,
} from '@haversack/contracts';
import { formatCount, formatMoney, formatWhen } from '../../lib/format';

/** How the plan comparison names each limit of a tier. */
export const limitLabels: Record<LimitKey, string> = {
  characters: 'Characters',
  parties_can_create: 'Parties you run',
  parties_can_join: 'Parties you join',
  inventory_actions_personal_monthly: 'Personal inventory actions / month',
  inventory_actions_party_monthly: 'Party inventory actions / month',
  shop_deployments_monthly: 'Shop deployments / month',
  loot_deployments_monthly: 'Loot deployments / month',
  ai_uses_monthly: 'AI uses / month',
  item_templates: 'Item templates',
  shop_templates: 'Shop templates',
  loot_templates: 'Loot templates',
  shop_instances: 'Deployed shops',
  loot_instances: 'Deployed loot',
};

/** A usage resource named as a heading: "Parties you run". */
export function usageResourceTitle(resource: UsageResource): string {
  return limitLabels[usageResourceLimit[resource]];
}

/** "1 character", "5 characters". */
export function countOf(resource: UsageResource, count: number): string {
  const label = usageResourceLabels[resource];
  return `${formatCount(count)} ${count === 1 ? label.one : label.many}`;
}

/** null is unlimited and 0 means the plan does not include it at all (spec/01 §3). */
export function formatLimit(limit: number | null | undefined): string {
  if (limit === null || limit === undefined) return 'Unlimited';
  if (limit === 0) return 'Not included';
  return formatCount(limit);
}

/** "$0", "$5" or "$7.50". */
export function formatPrice(tier: Pick<Tier, 'price_cents' | 'currency'>): string {
  return formatMoney(tier.price_cents / 100, tier.currency.toUpperCase() || 'USD', {
    minimumFractionDigits: tier.price_cents % 100 === 0 ? 0 : 2,
  });
}

/** "$5/month"; the Free plan reads "$0/month" so that it lines up with the others. */
export function formatPricePerMonth(tier: Pick<Tier, 'price_cents' | 'currency' | 'interval'>): string {
  return `${formatPrice(tier)}/${tier.interval || 'month'}`;
}

/** "March 5, 2026"; empty when the server gave no date. */
export function formatDate(iso: string | null): string {
  return formatWhen(iso, 'longDate');
}

/** "Mar 5", for a badge; empty when the server gave no date. */
export function formatShortDate(iso: string | null): string {
  return formatWhen(iso, 'monthDay');
}

/** The limit of a tier for a usage resource (null = unlimited). */
export function tierLimitFor(tier: Tier, resource: UsageResource): number | null {
  return tier.limits[usageResourceLimit[resource]] ?? null;
}

/** "A", "A or B", "A, B or C". */
function orList(items: string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`;
}

/**
 * What Party collaboration means for a table (UI review): the server checks it for each player who acts on
 * the party stash, on the plan that applies to them in that party (their own, or a patronage's granted plan:
 * spec/01 "Patronage grants a beneficiary a tier's features within one party"), never on the Game Master's.
 * A Free player in a paid GM's party could not use the stash and nothing said so before the session. The
 * plans that can sponsor are read from the catalogue (those with patronage), not named here.
 */
export function partyCollaborationNote(tiers: Tier[]): string {
  const sponsors = tiers.filter((tier) => tier.features.patronage_system === true).map((tier) => tier.name);
  const through =
    sponsors.length > 0
      ? ` or through a patronage (a member on ${orList(sponsors)} can sponsor them in that party)`
      : '';
  return `${featureLabels.party_collaboration}: each player who uses the party stash needs it on their own plan${through}. The Game Master’s plan does not cover the other players.`;
}

/**
 * What a move to a plan without Party collaboration takes away (UI review): the server checks it for every
 * change to a party's stash, on the player's own plan in that party or a sponsor's, the parties they run
 * included. Looking in the stash and using one's own characters' inventories stay open (party_view_access
 * and self_inventory_management are in every plan).
 */
export function partyStashLossText(planName: string, when: string): string {
  return `The ${planName} plan does not include ${featureLabels.party_collaboration.toLowerCase()}. ${when}, you can no longer move things into or out of a party’s stash, or change it, in any party, the ones you run included, unless a member sponsors you in that party. You can still look in the stash and use your characters’ own inventories.`;
}

/** The same for the parties an over-the-limit notice lists, on a plan without Party collaboration. */
export function partyStashLockedText(planName: string): string {
  return `In your parties, your ${planName} plan lets you look in the stash but not move things into or out of it: that needs ${featureLabels.party_collaboration.toLowerCase()}, on your own plan or from a member who sponsors you in that party.`;
}

/**
 * The live features a plan adds on top of another; `except` is left out where the card has already named
 * it ("Includes Party collaboration"), so that "Also includes" does not list it again.
 */
export function addedFeatures(from: Tier, to: Tier, except?: FeatureKey): string[] {
  return liveFeatureKeys.flatMap((key) =>
    key !== except && to.features[key] === true && from.features[key] !== true ? [featureLabels[key]] : [],
  );
}

/** The live limits that grow and the live features that are added, going from one plan to another. */
export function improvements(from: Tier, to: Tier): string[] {
  const limits = liveLimitKeys.flatMap((key) => {
    const before = from.limits[key] ?? null;
    const after = to.limits[key] ?? null;
    const grows = before !== null && (after === null || after > before);
    return grows ? [`${limitLabels[key]}: ${formatLimit(before)} → ${formatLimit(after)}`] : [];
  });
  return [...limits, ...addedFeatures(from, to)];
}
