import {
  type CurrentSubscription,
  type FeatureKey,
  isGrantedPlan,
  liveUsageResources,
  type Tier,
  type TierIdentifier,
  tierIdentifiers,
  type UsageResource,
} from '@haversack/contracts';
import { Alert, Button, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconAlertTriangle, IconCalendarOff } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { ErrorPanel } from '../../../components/error-panel';
import { TextSkeleton } from '../../../components/loading';
import { RefreshFailedNote } from '../../../components/refresh-failed-note';
import { failedWithNothingToShow } from '../../../lib/load-failed';
import { usePageTitle } from '../../../lib/page-title';
import {
  currentSubscriptionQueryOptions,
  tiersQueryOptions,
  useBillingPortal,
  useReactivateSubscription,
} from '../api/subscription-api';
import { CancelSubscriptionModal } from '../components/cancel-subscription-modal';
import { LocalBillingNotice } from '../components/local-billing-notice';
import { OverLimitNotice, overLimits } from '../components/over-limit-notice';
import { PatronageList } from '../components/patronage-list';
import { PlanStatusBadge } from '../components/plan-status-badge';
import { SponsorshipNotice } from '../components/sponsorship-notice';
import { UsageBar } from '../components/usage-bar';
import { formatDate, formatPricePerMonth } from '../plan-text';
import { liftingPatronages, sponsoredLimitNote } from '../sponsorship';

const PARTY_COLLABORATION: FeatureKey = 'party_collaboration';

export const pastDueExplanation = 'Your last payment failed; update your card in the billing portal.';

export function SubscriptionPage() {
  usePageTitle('Subscription');
  const current = useQuery(currentSubscriptionQueryOptions());

  return (
    <Stack gap="lg" maw={960}>
      <Stack gap={4}>
        <Title order={1}>Subscription</Title>
        <Text c="dimmed">Your plan, what you have used of it, and the patronages in your parties.</Text>
      </Stack>
      <RefreshFailedNote query={current} />
      {current.isPending ? (
        <SubscriptionSkeleton />
      ) : failedWithNothingToShow(current) ? (
        <ErrorPanel
          message="Your subscription could not be loaded. Please try again."
          onRetry={() => void current.refetch()}
        />
      ) : (
        <SubscriptionOverview subscription={current.data} />
      )}
    </Stack>
  );
}

function SubscriptionSkeleton() {
  return (
    <Stack gap="lg" role="status" aria-label="Loading your subscription" data-testid="subscription-loading">
      <Card withBorder padding="lg">
        <TextSkeleton lines={3} lineHeight="relaxed" />
      </Card>
      <Card withBorder padding="lg">
        <TextSkeleton lines={6} />
      </Card>
    </Stack>
  );
}

function SubscriptionOverview({ subscription: payload }: { subscription: CurrentSubscription }) {
  const tiers = useQuery(tiersQueryOptions());
  const tierName = (identifier: TierIdentifier) =>
    tiers.data?.tiers.find((tier) => tier.identifier === identifier)?.name ?? 'a paid plan';
  const { subscription, patronages } = payload;
  const lifting = liftingPatronages(payload);
  const freeTier = tiers.data?.tiers.find((tier) => tier.identifier === 'tier_free');

  return (
    <>
      {subscription.billing_provider === 'local' ? <LocalBillingNotice /> : null}
      <CurrentPlanCard
        subscription={payload}
        tierName={tierName}
        // spec/01 §3: Free leaves Party collaboration out; the catalogue says so once it has loaded.
        freeHasPartyCollaboration={freeTier?.features[PARTY_COLLABORATION] === true}
        freeTier={freeTier}
      />
      <Card withBorder padding="lg" component="section" aria-labelledby="usage-heading">
        <Stack gap="md">
          <Stack gap={2}>
            <Title order={2} size="h3" id="usage-heading">
              Usage
            </Title>
            <Text size="sm" c="dimmed">
              Monthly counts start again on the first day of each month (UTC).
            </Text>
          </Stack>
          <OverLimitNotice
            over={overLimits(payload)}
            planName={payload.tier.name}
            sponsoredNote={(resource) => sponsoredLimitNote(resource, lifting, tierName)}
            partyStashLocked={payload.tier.features[PARTY_COLLABORATION] !== true}
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg" verticalSpacing="md" data-testid="usage-list">
            {usedResources(payload).map(([resource, entry]) => (
              <UsageBar
                key={resource}
                resource={resource}
                entry={entry}
                sponsoredNote={sponsoredLimitNote(resource, lifting, tierName)}
              />
            ))}
          </SimpleGrid>
        </Stack>
      </Card>
      <Card withBorder padding="lg" component="section" aria-labelledby="patronages-heading">
        <Stack gap="md">
          <Title order={2} size="h3" id="patronages-heading">
            Patronages
          </Title>
          <PatronageList side="granted" patronages={patronages.granted} tierName={tierName} />
          <PatronageList side="received" patronages={patronages.received} tierName={tierName} />
        </Stack>
      </Card>
    </>
  );
}

/** Every live resource the server counted, in the contract's order (nothing unbuilt is shown). */
function usedResources(payload: CurrentSubscription) {
  return liveUsageResources.flatMap((resource: UsageResource) => {
    const entry = payload.usage[resource];
    return entry ? [[resource, entry] as const] : [];
  });
}

function CurrentPlanCard({
  subscription: payload,
  tierName,
  freeHasPartyCollaboration,
  freeTier,
}: {
  subscription: CurrentSubscription;
  tierName: (identifier: TierIdentifier) => string;
  freeHasPartyCollaboration: boolean;
  /** The plan a cancellation moves to, once the catalogue has loaded. */
  freeTier: Tier | undefined;
}) {
  const { subscription, tier } = payload;
  const [cancelOpened, cancelModal] = useDisclosure(false);
  const reactivate = useReactivateSubscription();
  const billingPortal = useBillingPortal();
  const isPaid = tier.identifier !== 'tier_free';
  const periodEnd = formatDate(subscription.current_period_end);
  const nextTier = tierIdentifiers[tier.rank + 1];
  const hasStripe = subscription.billing_provider === 'stripe';
  const granted = isGrantedPlan(subscription);

  const manageBilling = hasStripe ? (
    <Button variant="default" onClick={() => billingPortal.mutate()} loading={billingPortal.isPending}>
      Manage billing
    </Button>
  ) : null;

  return (
    <Card
      withBorder
      padding="lg"
      component="section"
      aria-labelledby="plan-heading"
      data-testid="current-plan"
    >
      <Stack gap="md">
        <Group justify="space-between" align="flex-start" gap="sm">
          <Stack gap={4}>
            <Text size="sm" c="dimmed">
              Current plan
            </Text>
            <Group gap="sm">
              <Title order={2} size="h2" id="plan-heading" data-testid="plan-name">
                {tier.name}
              </Title>
              <PlanStatusBadge subscription={subscription} />
            </Group>
            <Text fw={600}>{granted ? grantedPlanPrice : formatPricePerMonth(tier)}</Text>
          </Stack>
        </Group>

        <SponsorshipNotice patronages={liftingPatronages(payload)} ownTier={tier} tierName={tierName} />

        {subscription.status === 'past_due' ? (
          <Alert
            role="note"
            color="red"
            variant="light"
            title="Payment past due"
            icon={<IconAlertTriangle aria-hidden="true" />}
            data-testid="past-due"
          >
            <Stack gap="xs" align="flex-start">
              <Text size="sm">{pastDueExplanation}</Text>
              {manageBilling}
            </Stack>
          </Alert>
        ) : null}

        {isPaid && subscription.cancel_at_period_end ? (
          <Alert
            role="note"
            color="yellow"
            variant="light"
            title={periodEnd ? `Ends on ${periodEnd}` : 'Ends at the close of the current period'}
            icon={<IconCalendarOff aria-hidden="true" />}
            data-testid="plan-ends"
          >
            <Stack gap="xs" align="flex-start">
              <Text size="sm">
                Your subscription will end at the close of the current period. After that you are on the Free
                plan; reactivate to keep {tier.name}.
              </Text>
              <Button onClick={() => reactivate.mutate()} loading={reactivate.isPending}>
                Reactivate
              </Button>
            </Stack>
          </Alert>
        ) : (
          <Text size="sm" data-testid="plan-renewal">
            {planRenewalText(payload, periodEnd)}
          </Text>
        )}

        <Group gap="sm">
          {nextTier ? (
            <Button component={Link} to={`/subscription/upgrade?tier=${nextTier}`}>
              Upgrade
            </Button>
          ) : null}
          <Button component={Link} to="/subscription/compare" variant="default">
            Compare plans
          </Button>
          {subscription.status === 'past_due' ? null : manageBilling}
          {isPaid && !subscription.cancel_at_period_end ? (
            <Button variant="subtle" color="red" onClick={cancelModal.open}>
              Cancel subscription
            </Button>
          ) : null}
        </Group>
      </Stack>
      <CancelSubscriptionModal
        opened={cancelOpened}
        onClose={cancelModal.close}
        planName={tier.name}
        periodEnd={periodEnd}
        endsNow={granted}
        sponsoring={payload.patronages.granted.filter((patronage) => patronage.active)}
        tierName={tierName}
        losesPartyCollaboration={tier.features[PARTY_COLLABORATION] === true && !freeHasPartyCollaboration}
        change={freeTier ? { from: tier, to: freeTier, usage: payload.usage } : undefined}
      />
    </Card>
  );
}

function planRenewalText({ subscription, tier }: CurrentSubscription, periodEnd: string): string {
  if (tier.identifier === 'tier_free') {
    return subscription.status === 'cancelled'
      ? 'Your paid plan has ended; you are on the Free plan. Upgrade at any time.'
      : 'The Free plan costs nothing and never expires.';
  }
  if (isGrantedPlan(subscription)) return grantedPlanRenewal;
  return periodEnd ? `Renews on ${periodEnd}` : 'Renews every month.';
}

const grantedPlanPrice = 'Given by staff: no charge';
const grantedPlanRenewal = 'It holds until the site’s staff change it, or until you cancel it.';
