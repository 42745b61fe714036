import {
  type FeatureKey,
  featureLabels,
  liveFeatureKeys,
  liveUsageResources,
  type Patronage,
  type Tier,
  type TierIdentifier,
  tierRank,
  type Usage,
} from '@haversack/contracts';
import { Alert, List, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconUsersMinus } from '@tabler/icons-react';
import { tierLimitFor } from '../plan-text';
import { keptResources, type OverLimit, overLimitLine } from './over-limit-notice';

/**
 * The kept things (characters, parties, templates, deployed shops and loot) the user has more of than `to`
 * allows: the server keeps them all after the move and refuses only making more (`requireLimit` is called on
 * creation only), as the over-limit notice says afterwards.
 */
export function overLimitsOn(usage: Partial<Usage>, to: Tier): OverLimit[] {
  return liveUsageResources.flatMap((resource) => {
    const used = usage[resource]?.used ?? 0;
    const limit = tierLimitFor(to, resource);
    if (limit === null || used <= limit || !keptResources.has(resource)) return [];
    return [{ resource, used, limit }];
  });
}

/**
 * The live features `from` has and `to` lacks, read from the catalogue. Party collaboration is said by its
 * own notice (partyStashLossText), which tells what stays open.
 */
export function lostFeatures(from: Tier, to: Tier): FeatureKey[] {
  return liveFeatureKeys.filter(
    (key) => key !== 'party_collaboration' && from.features[key] === true && to.features[key] !== true,
  );
}

/**
 * The active patronages a patron on `to` no longer holds: a plan without patronage, or one below the grant
 * (the server ends each of them with the move: PatronagesService.patronPlanChanged).
 */
export function patronagesEndingOn(granted: Patronage[], to: Tier): Patronage[] {
  return granted.filter(
    (patronage) =>
      patronage.active &&
      (to.features.patronage_system !== true || tierRank[patronage.granted_tier] > tierRank[to.identifier]),
  );
}

/** What moving from one plan to a lower one limits: what is kept over its limits, and what stops. */
export function PlanChangeSummary({ usage, from, to }: { usage: Partial<Usage>; from: Tier; to: Tier }) {
  const over = overLimitsOn(usage, to);
  const lost = lostFeatures(from, to);
  if (over.length === 0 && lost.length === 0) return null;
  return (
    <Alert
      role="note"
      color="yellow"
      variant="light"
      icon={<IconAlertTriangle aria-hidden="true" />}
      title={`What the ${to.name} plan limits`}
      data-testid="plan-change-summary"
    >
      <Stack gap={6}>
        {over.length > 0 ? (
          <>
            <Text size="sm">{`More than your ${to.name} plan allows:`}</Text>
            <List size="sm" spacing={2}>
              {over.map((entry) => (
                <List.Item key={entry.resource}>{overLimitLine(entry, `the ${to.name} plan`)}</List.Item>
              ))}
            </List>
            <Text size="sm">
              Nothing is removed: you can still open, change and delete them, but nothing new can be made
              beyond the {to.name} plan’s limits.
            </Text>
          </>
        ) : null}
        {lost.length > 0 ? (
          <>
            <Text size="sm">{`These stop, since the ${to.name} plan does not include them:`}</Text>
            <List size="sm" spacing={2}>
              {lost.map((key) => (
                <List.Item key={key}>{featureLabels[key]}</List.Item>
              ))}
            </List>
          </>
        ) : null}
      </Stack>
    </Alert>
  );
}

/** The patronages a move ends, named: "bard: Hero in The Lantern Bearers". */
export function EndingPatronages({
  patronages,
  when,
  tierName,
}: {
  patronages: Patronage[];
  /** "At once", "On March 5, 2026". */
  when: string;
  tierName: (identifier: TierIdentifier) => string;
}) {
  if (patronages.length === 0) return null;
  return (
    <Alert
      role="note"
      color="yellow"
      variant="light"
      icon={<IconUsersMinus aria-hidden="true" />}
      title={
        patronages.length === 1
          ? 'Your patronage ends with it'
          : `Your ${patronages.length} patronages end with it`
      }
      data-testid="cancel-ends-patronages"
    >
      <Stack gap={4}>
        <Text size="sm">{when}, these members lose the plan you granted them:</Text>
        <List size="sm" spacing={2}>
          {patronages.map((patronage) => (
            <List.Item key={patronage.id}>
              {`${patronage.beneficiary_name ?? 'A member'}: ${tierName(patronage.granted_tier)} in ${patronage.party_name ?? 'a party'}`}
            </List.Item>
          ))}
        </List>
      </Stack>
    </Alert>
  );
}
