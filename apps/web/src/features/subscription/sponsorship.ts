import {
  type CurrentSubscription,
  liveFeatures,
  type OwnPlanFeature,
  ownPlanFeatures,
  type Patronage,
  type Tier,
  type TierIdentifier,
  tierIdentifiers,
  type UsageResource,
} from '@haversack/contracts';

/**
 * The received patronages that change something: active, and granting a plan above the user's own, since
 * inside a party the higher of the two applies (DESIGN §5; decisions: "Which plan applies inside a party").
 */
export function liftingPatronages({ patronages, tier }: CurrentSubscription): Patronage[] {
  const ownRank = tierIdentifiers.indexOf(tier.identifier);
  return patronages.received.filter(
    (patronage) => patronage.active && tierIdentifiers.indexOf(patronage.granted_tier) > ownRank,
  );
}

/**
 * The limits the server checks against the plan that applies inside a party (its `requireLimit` calls pass
 * the party): a character created in the party, inventory actions on its characters and stash, and the shops
 * and loot deployed there. Templates and parties created or joined follow the user's own plan everywhere.
 */
const partyScopedResources: ReadonlySet<UsageResource> = new Set<UsageResource>([
  'characters',
  'inventory_actions_personal_monthly',
  'inventory_actions_party_monthly',
  'shop_deployments_monthly',
  'shop_instances',
  'loot_deployments_monthly',
  'loot_instances',
]);

/**
 * What to say next to a usage bar whose own-plan limit a sponsorship lifts in some party: "In The Lantern
 * Bearers, your sponsor’s Hero plan applies." Null where no sponsorship changes that limit.
 */
export function sponsoredLimitNote(
  resource: UsageResource,
  lifting: Patronage[],
  tierName: (identifier: TierIdentifier) => string,
): string | null {
  if (lifting.length === 0 || !partyScopedResources.has(resource)) return null;
  const [only] = lifting;
  if (only && lifting.length === 1) {
    return `In ${only.party_name ?? 'the party where you are sponsored'}, your sponsor’s ${tierName(only.granted_tier)} plan applies.`;
  }
  const where = lifting.map(
    (patronage) => `${patronage.party_name ?? 'a party'} (${tierName(patronage.granted_tier)})`,
  );
  return `Your sponsors’ plans apply in ${listOf(where)}.`;
}

/**
 * What the sponsored member is asked before they end a sponsorship (the subscription page's list and the
 * party's Overview ask the same): "You lose Hero, which freddy granted you in Mistwood, at once: …".
 */
export function endReceivedSponsorshipWords(patronage: Patronage, plan: string): string {
  return `You lose ${plan}, which ${patronage.patron_name ?? 'your sponsor'} granted you in ${patronage.party_name ?? 'that party'}, at once: your own plan applies there.`;
}

/** "A", "A and B", "A, B and C". */
export function listOf(items: string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/**
 * How the note names the features the server checks on the user's own plan even inside a sponsored party
 * (`ownPlanFeatures`, which the entitlement engine reads too). Named beside "your features are Hero's"
 * wherever the user's own plan lacks them, so it promises neither.
 */
const ownPlanFeatureNames: Record<OwnPlanFeature, string> = {
  api_access: 'API access',
  patronage_system: 'sponsoring other players',
};

/** "API access and sponsoring other players always follow your own plan.", or null when none applies. */
export function ownPlanOnlyNote(ownTier: Pick<Tier, 'features'>): string | null {
  const names = ownPlanFeatures.flatMap((feature) =>
    liveFeatures[feature] && ownTier.features[feature] !== true ? [ownPlanFeatureNames[feature]] : [],
  );
  if (names.length === 0) return null;
  const list = listOf(names);
  return `${list.charAt(0).toUpperCase()}${list.slice(1)} always ${names.length === 1 ? 'follows' : 'follow'} your own plan.`;
}
