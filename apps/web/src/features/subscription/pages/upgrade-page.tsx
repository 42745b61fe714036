import {
  type FeatureKey,
  featureNameInSentence,
  featureNames,
  isLiveFeature,
  isLiveUsageResource,
  liveUsageResources,
  type Patronage,
  type Subscription,
  type Tier,
  type TierIdentifier,
  tierIdentifiers,
  tierNames,
  type UsageEntry,
  type UsageResource,
  usageResourceLabels,
  usageResourceLimit,
} from '@haversack/contracts';
import { Alert, Anchor, Badge, Button, Card, Group, List, Modal, Stack, Text, Title } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { Link, Navigate, useSearchParams } from 'react-router';
import { ErrorPanel } from '../../../components/error-panel';
import { TextSkeleton } from '../../../components/loading';
import { RefreshFailedNote } from '../../../components/refresh-failed-note';
import { formatCount } from '../../../lib/format';
import { failedWithNothingToShow, refreshFailed } from '../../../lib/load-failed';
import { usePageTitle } from '../../../lib/page-title';
import { sameSitePath } from '../../../lib/redirect';
import { useSingleFlight } from '../../../lib/use-single-flight';
import {
  currentSubscriptionQueryOptions,
  subscriptionErrorMessage,
  tiersQueryOptions,
  useCheckout,
} from '../api/subscription-api';
import { BillingDisabledNotice } from '../components/billing-disabled-notice';
import { LocalBillingNotice } from '../components/local-billing-notice';
import { EndingPatronages, PlanChangeSummary, patronagesEndingOn } from '../components/plan-change-summary';
import {
  addedFeatures,
  countOf,
  formatLimit,
  formatPricePerMonth,
  improvements,
  partyCollaborationNote,
  partyStashLossText,
  tierLimitFor,
} from '../plan-text';

/** What the user came to lift: a plan by name, or the limit or feature a refusal named (issue 3). */
export type UpgradeSubject =
  | { kind: 'tier'; tier: TierIdentifier }
  | { kind: 'resource'; resource: UsageResource }
  | { kind: 'feature'; feature: FeatureKey }
  | { kind: 'unknown' };

/**
 * Accepts a usage resource ("parties_created") or its limit key ("parties_can_create"), when it is live: a
 * limit or feature this server does not offer yet is not sold, so a link naming one is unknown here.
 */
function resourceFromQuery(value: string): UsageResource | null {
  if (isLiveUsageResource(value)) return value;
  return liveUsageResources.find((resource) => usageResourceLimit[resource] === value) ?? null;
}

export function readUpgradeSubject(params: URLSearchParams): UpgradeSubject {
  const tier = params.get('tier');
  if (tier !== null) {
    return (tierIdentifiers as readonly string[]).includes(tier)
      ? { kind: 'tier', tier: tier as TierIdentifier }
      : { kind: 'unknown' };
  }
  const resourceParam = params.get('resource');
  if (resourceParam !== null) {
    const resource = resourceFromQuery(resourceParam);
    return resource ? { kind: 'resource', resource } : { kind: 'unknown' };
  }
  const feature = params.get('feature');
  if (feature !== null) return isLiveFeature(feature) ? { kind: 'feature', feature } : { kind: 'unknown' };
  return { kind: 'unknown' };
}

export function UpgradePage() {
  const [searchParams] = useSearchParams();
  const subject = readUpgradeSubject(searchParams);
  const tiers = useQuery(tiersQueryOptions());
  const current = useQuery(currentSubscriptionQueryOptions());
  // Only a first load that failed has nothing to show; a refresh that failed keeps the plans, with a note.
  const isError = failedWithNothingToShow(tiers) || failedWithNothingToShow(current);
  // A plan below the user's, asked for by name (compare's "Switch to"): the page is not an upgrade.
  const currentRank = current.data?.tier.rank;
  const movingDown =
    subject.kind === 'tier' &&
    currentRank !== undefined &&
    (tiers.data?.tiers.find((tier) => tier.identifier === subject.tier)?.rank ?? currentRank) < currentRank;
  usePageTitle(movingDown ? 'Switch plan' : 'Upgrade');
  // Asked about nothing in particular (a menu, a typed address): every plan, side by side, is the answer.
  if ([...searchParams.keys()].length === 0) return <Navigate to="/subscription/compare" replace />;

  let body: ReactNode;
  if (subject.kind === 'unknown') {
    body = <UnknownSubject />;
  } else if (isError) {
    body = (
      <ErrorPanel
        message="Your plan could not be loaded. Please try again."
        onRetry={() => {
          void tiers.refetch();
          void current.refetch();
        }}
      />
    );
  } else if (!tiers.data || !current.data) {
    body = (
      <Card
        withBorder
        padding="lg"
        role="status"
        aria-label="Loading the plans"
        data-testid="upgrade-loading"
      >
        <TextSkeleton lines={4} />
      </Card>
    );
  } else {
    body = (
      <UpgradeOptions
        subject={subject}
        tiers={tiers.data.tiers}
        currentTier={current.data.tier}
        subscription={current.data.subscription}
        usage={current.data.usage}
        patronagesGranted={current.data.patronages.granted}
        billingProvider={tiers.data.billingProvider}
      />
    );
  }

  return (
    <Stack gap="lg" maw={880}>
      <Stack gap={4}>
        <Title order={1}>{movingDown ? 'Switch to a lower plan' : 'Upgrade your plan'}</Title>
        <Text c="dimmed">
          {movingDown ? 'See what a smaller plan limits' : 'See what a bigger plan lifts'}, or{' '}
          <Anchor component={Link} to="/subscription/compare">
            compare every plan
          </Anchor>
          .
        </Text>
      </Stack>
      {subject.kind === 'unknown' ? null : (
        <RefreshFailedNote query={refreshFailed(tiers) ? tiers : current} />
      )}
      {body}
    </Stack>
  );
}

function UnknownSubject() {
  return (
    <Alert
      color="blue"
      variant="light"
      icon={<IconInfoCircle aria-hidden="true" />}
      // What the page says when it opens, not an error in answer to an action: no urgent announcement.
      role="status"
      data-testid="upgrade-unknown"
    >
      <Stack gap="xs" align="flex-start">
        <Text size="sm">We could not tell which plan, limit or feature this link is about.</Text>
        <Anchor component={Link} to="/subscription/compare" size="sm">
          Compare all plans
        </Anchor>
      </Stack>
    </Alert>
  );
}

interface Situation {
  /** What the user hit, in one sentence. */
  explanation: string;
  /** Plans above the current one that lift it, lowest first. */
  liftingTiers: Tier[];
  /** For each lifting plan, what it gives for this subject. */
  gain: (tier: Tier) => string;
  /** Shown when no plan lifts it. */
  nothingToLift: string;
  /** A lower paid plan asked for by name: the server switches to it at once (checkout's changePlan). */
  switchDown?: Tier;
}

function describe(
  subject: Exclude<UpgradeSubject, { kind: 'unknown' }>,
  tiers: Tier[],
  currentTier: Tier,
  usage: Record<string, UsageEntry>,
): Situation {
  const higher = tiers.filter((tier) => tier.rank > currentTier.rank);
  const plan = currentTier.name;

  if (subject.kind === 'resource') {
    const { resource } = subject;
    const label = usageResourceLabels[resource];
    const limit = tierLimitFor(currentTier, resource);
    const used = usage[resource]?.used ?? 0;
    const explanation =
      limit === null
        ? `Your ${plan} plan already allows unlimited ${label.many}.`
        : limit === 0
          ? // A limit, said in the words of the others ("allows 5 …"): the heading-style label ("Shop
            // deployments / month") does not read as a sentence, and "allows 0" reads as a miscount.
            `Your ${plan} plan allows no ${label.many}.`
          : used > limit
            ? // Over the limit after a downgrade: "used 10 of 1" would read as a miscount.
              `You have ${countOf(resource, used)}; your ${plan} plan allows ${formatCount(limit)}. Nothing is removed; a plan below shows room for more.`
            : // The noun follows the limit, as the create pages' "1 of 1 character used".
              `You have used ${formatCount(used)} of ${formatCount(limit)} ${limit === 1 ? label.one : label.many} on the ${plan} plan.`;
    // A plan helps only if it leaves room for one more: after a downgrade to 1 of 7 characters, a plan of 5
    // would still refuse the next one, so it is not offered (let alone recommended).
    const lifts = (tier: Tier) => {
      const tierLimit = tierLimitFor(tier, resource);
      return limit !== null && (tierLimit === null || tierLimit > Math.max(limit, used));
    };
    return {
      explanation,
      liftingTiers: higher.filter(lifts),
      gain: (tier) => {
        const tierLimit = tierLimitFor(tier, resource);
        return tierLimit === null ? `Unlimited ${label.many}` : `${formatLimit(tierLimit)} ${label.many}`;
      },
      nothingToLift:
        limit === null ? 'There is nothing to upgrade for this.' : 'No plan offers more than yours for this.',
    };
  }

  if (subject.kind === 'feature') {
    const { feature } = subject;
    const has = currentTier.features[feature] === true;
    return {
      explanation: has
        ? `Your ${plan} plan already includes ${featureNameInSentence(feature)}.`
        : `${featureNames[feature]} is not included in your ${plan} plan.`,
      liftingTiers: has ? [] : higher.filter((tier) => tier.features[feature] === true),
      gain: () => `Includes ${featureNameInSentence(feature)}`,
      nothingToLift: has ? 'There is nothing to upgrade for this.' : 'No plan includes this yet.',
    };
  }

  const target = tiers.find((tier) => tier.identifier === subject.tier);
  if (!target) {
    return { explanation: 'This plan is not on offer.', liftingTiers: [], gain: () => '', nothingToLift: '' };
  }
  const explanation =
    target.rank === currentTier.rank
      ? `You are already on the ${target.name} plan.`
      : target.rank < currentTier.rank
        ? target.identifier === 'tier_free'
          ? `${target.name} is below your ${plan} plan. To move down, cancel your plan from your subscription page.`
          : `Move down from ${plan} (${formatPricePerMonth(currentTier)}) to ${target.name} (${formatPricePerMonth(target)}).`
        : `Move from ${plan} (${formatPricePerMonth(currentTier)}) to ${target.name} (${formatPricePerMonth(target)}).`;
  return {
    explanation,
    liftingTiers: target.rank > currentTier.rank ? [target] : [],
    gain: () => '',
    nothingToLift: '',
    ...(target.rank < currentTier.rank && target.identifier !== 'tier_free' ? { switchDown: target } : {}),
  };
}

/**
 * A customer who already pays through Stripe: the server changes that subscription's plan instead of
 * starting a second one (which would bill them twice), so the page says so before they choose.
 */
export function changesExistingSubscription(
  subscription: Subscription,
  billingProvider: 'local' | 'stripe' | 'none',
): boolean {
  return (
    billingProvider === 'stripe' &&
    subscription.provider === 'stripe' &&
    subscription.tier !== 'tier_free' &&
    subscription.status !== 'cancelled'
  );
}

function UpgradeOptions({
  subject,
  tiers,
  currentTier,
  subscription,
  usage,
  patronagesGranted,
  billingProvider,
}: {
  subject: Exclude<UpgradeSubject, { kind: 'unknown' }>;
  tiers: Tier[];
  currentTier: Tier;
  subscription: Subscription;
  usage: Record<string, UsageEntry>;
  patronagesGranted: Patronage[];
  billingProvider: 'local' | 'stripe' | 'none';
}) {
  const [searchParams] = useSearchParams();
  const checkout = useCheckout(sameSitePath(searchParams.get('from')), currentTier.identifier);
  const situation = describe(subject, tiers, currentTier, usage);
  const billingDisabled = billingProvider === 'none';
  const changesExisting = changesExistingSubscription(subscription, billingProvider);
  // Refused the party stash: a plan of their own is one way; a sponsor in the party is the other.
  const collaborationNote =
    subject.kind === 'feature' && subject.feature === 'party_collaboration'
      ? partyCollaborationNote(tiers)
      : null;

  return (
    <Stack gap="md">
      <Alert
        role="note"
        // A limit or feature that refused something warns; choosing a plan of one's own accord is information.
        color={subject.kind !== 'tier' && situation.liftingTiers.length > 0 ? 'yellow' : 'blue'}
        variant="light"
        icon={<IconInfoCircle aria-hidden="true" />}
        data-testid="upgrade-explanation"
      >
        <Stack gap="xs">
          <Text size="sm" fw={500}>
            {situation.explanation}
          </Text>
          {collaborationNote ? (
            <Text size="sm" data-testid="party-collaboration-note">
              {collaborationNote}
            </Text>
          ) : null}
        </Stack>
      </Alert>

      {billingProvider === 'local' ? <LocalBillingNotice /> : null}
      {changesExisting && situation.liftingTiers.length > 0 ? (
        <Alert color="blue" variant="light" role="status" data-testid="plan-change-notice">
          <Text size="sm">
            You already pay for {currentTier.name} through Stripe. Choosing another plan changes that
            subscription at once: no second subscription is started, and the price difference for the rest of
            this period is prorated on your next invoice.
          </Text>
        </Alert>
      ) : null}
      {billingDisabled ? <BillingDisabledNotice /> : null}
      {checkout.isError ? (
        <Alert color="red" variant="light" role="alert" data-testid="checkout-error">
          {subscriptionErrorMessage(checkout.error)}
        </Alert>
      ) : null}

      {situation.switchDown ? (
        <SwitchDownCard
          target={situation.switchDown}
          currentTier={currentTier}
          tiers={tiers}
          usage={usage}
          patronagesGranted={patronagesGranted}
          atOnce={billingProvider === 'local' || changesExisting}
          prorated={changesExisting}
          disabled={billingDisabled}
          checkout={checkout}
        />
      ) : situation.liftingTiers.length === 0 ? (
        <Stack gap="xs" align="flex-start">
          {situation.nothingToLift ? <Text>{situation.nothingToLift}</Text> : null}
          <Group gap="md">
            <Anchor component={Link} to="/subscription">
              Back to your subscription
            </Anchor>
            <Anchor component={Link} to="/subscription/compare">
              Compare plans
            </Anchor>
          </Group>
        </Stack>
      ) : (
        <Stack
          gap="md"
          component="ul"
          p={0}
          m={0}
          style={{ listStyle: 'none' }}
          data-testid="upgrade-options"
        >
          {situation.liftingTiers.map((tier, index) => {
            const recommended = index === 0 && subject.kind !== 'tier';
            // Asked for a plan: everything it changes. Came from a limit or feature: that first, then, on the
            // first card, only the features the plan adds, so the choice stays short (the comparison has the
            // rest); each card after it says what it adds over the card before, or two plans that lift the
            // same thing (Hero and Legend) would read the same and the dearer one would look like no more.
            const below = index > 0 ? situation.liftingTiers[index - 1] : undefined;
            const changes =
              subject.kind === 'tier'
                ? improvements(currentTier, tier)
                : below
                  ? improvements(below, tier)
                  : addedFeatures(
                      currentTier,
                      tier,
                      subject.kind === 'feature' ? subject.feature : undefined,
                    );
            const changesHeading =
              subject.kind === 'tier'
                ? `What ${tier.name} changes:`
                : below
                  ? `More than ${below.name}:`
                  : 'Also includes:';
            const gain = situation.gain(tier);
            return (
              <Card
                key={tier.identifier}
                component="li"
                withBorder
                padding="lg"
                data-testid={`upgrade-option-${tier.identifier}`}
                style={
                  recommended
                    ? { borderColor: 'var(--mantine-primary-color-filled)', borderWidth: 2 }
                    : undefined
                }
              >
                <Stack gap="sm">
                  {/* The price keeps its place on the right of every card, at any width: the name and the
                      Recommended badge share what is left, the badge going under the name on a phone. */}
                  <Group justify="space-between" align="baseline" gap="sm" wrap="nowrap">
                    <Group gap="xs" miw={0}>
                      <Title order={2} size="h3">
                        {tier.name}
                      </Title>
                      {recommended ? <Badge variant="light">Recommended</Badge> : null}
                    </Group>
                    <Text
                      fw={700}
                      style={{ whiteSpace: 'nowrap', flexShrink: 0 }}
                      data-testid="upgrade-option-price"
                    >
                      {formatPricePerMonth(tier)}
                    </Text>
                  </Group>
                  {gain ? <Text fw={500}>{gain}</Text> : null}
                  {changes.length > 0 ? (
                    <Stack gap={4}>
                      <Text size="sm" c="dimmed" id={`${tier.identifier}-changes`}>
                        {changesHeading}
                      </Text>
                      <List size="sm" spacing={2} aria-labelledby={`${tier.identifier}-changes`}>
                        {changes.map((change) => (
                          <List.Item key={change}>{change}</List.Item>
                        ))}
                      </List>
                    </Stack>
                  ) : null}
                  <Group>
                    <Button
                      variant={recommended || subject.kind === 'tier' ? 'filled' : 'default'}
                      onClick={() => checkout.mutate(tier.identifier)}
                      loading={checkout.isPending && checkout.variables === tier.identifier}
                      disabled={
                        billingDisabled || (checkout.isPending && checkout.variables !== tier.identifier)
                      }
                    >
                      {changesExisting ? 'Switch to' : 'Upgrade to'} {tier.name} — {formatPricePerMonth(tier)}
                    </Button>
                  </Group>
                </Stack>
              </Card>
            );
          })}
        </Stack>
      )}
    </Stack>
  );
}

/**
 * A lower paid plan: checkout switches to it (a Stripe subscription's price is changed and prorated, a
 * local plan is replaced), so the page offers it, after saying what it ends and limits.
 */
function SwitchDownCard({
  target,
  currentTier,
  tiers,
  usage,
  patronagesGranted,
  atOnce,
  prorated,
  disabled,
  checkout,
}: {
  target: Tier;
  currentTier: Tier;
  tiers: Tier[];
  usage: Record<string, UsageEntry>;
  patronagesGranted: Patronage[];
  /** Local billing, or a Stripe subscription whose plan is changed: no payment page in between. */
  atOnce: boolean;
  prorated: boolean;
  disabled: boolean;
  checkout: ReturnType<typeof useCheckout>;
}) {
  const [opened, setOpened] = useState(false);
  const once = useSingleFlight();
  const ending = patronagesEndingOn(patronagesGranted, target);
  const tierName = (identifier: TierIdentifier) =>
    tiers.find((tier) => tier.identifier === identifier)?.name ?? tierNames[identifier];
  const losesStash =
    currentTier.features.party_collaboration === true && target.features.party_collaboration !== true;
  const when = atOnce ? 'At once' : 'When checkout completes';
  const label = `Switch to ${target.name}`;
  const confirm = () => once(() => checkout.mutateAsync(target.identifier));

  return (
    <Card withBorder padding="lg" data-testid={`switch-option-${target.identifier}`}>
      <Stack gap="sm" align="flex-start">
        <Group justify="space-between" align="baseline" gap="sm" wrap="nowrap" w="100%">
          <Title order={2} size="h3">
            {target.name}
          </Title>
          <Text fw={700} style={{ whiteSpace: 'nowrap', flexShrink: 0 }}>
            {formatPricePerMonth(target)}
          </Text>
        </Group>
        <Button onClick={() => setOpened(true)} disabled={disabled}>
          {`${label} — ${formatPricePerMonth(target)}`}
        </Button>
      </Stack>
      <Modal
        opened={opened}
        onClose={() => setOpened(false)}
        title={`${label}?`}
        centered
        closeButtonProps={{ 'aria-label': 'Close' }}
      >
        <Stack gap="md" data-testid="switch-confirmation">
          <Text size="sm">
            {atOnce
              ? `The switch applies at once: you move from ${currentTier.name} to ${target.name} (${formatPricePerMonth(target)}) now${prorated ? ', and the price difference for the rest of this period is prorated on your next invoice' : ''}.`
              : `You move from ${currentTier.name} to ${target.name} (${formatPricePerMonth(target)}) as soon as checkout completes.`}
          </Text>
          {losesStash ? (
            <Alert role="note" color="yellow" variant="light" title="Party stashes lock for you">
              <Text size="sm">{partyStashLossText(target.name, when)}</Text>
            </Alert>
          ) : null}
          <EndingPatronages patronages={ending} when={when} tierName={tierName} />
          <PlanChangeSummary usage={usage} from={currentTier} to={target} />
          {checkout.isError ? (
            <Alert color="red" variant="light" role="alert">
              {subscriptionErrorMessage(checkout.error)}
            </Alert>
          ) : null}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={() => setOpened(false)}>
              {`Keep ${currentTier.name}`}
            </Button>
            <Button onClick={confirm} loading={checkout.isPending} data-testid="confirm-switch">
              {label}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Card>
  );
}
