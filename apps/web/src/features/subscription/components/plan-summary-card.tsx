import type { CurrentSubscription, TierIdentifier, UsageResource } from '@haversack/contracts';
import { Anchor, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { ErrorPanel } from '../../../components/error-panel';
import { TextSkeleton } from '../../../components/loading';
import { RefreshFailedNote } from '../../../components/refresh-failed-note';
import { failedWithNothingToShow } from '../../../lib/load-failed';
import { currentSubscriptionQueryOptions, tiersQueryOptions } from '../api/subscription-api';
import { formatDate } from '../plan-text';
import { liftingPatronages, sponsoredLimitNote } from '../sponsorship';
import { PlanStatusBadge } from './plan-status-badge';
import { SponsorshipNotice } from './sponsorship-notice';
import { UsageBar } from './usage-bar';

/** The limits a player meets first. */
const keyResources: UsageResource[] = [
  'characters',
  'parties_created',
  'parties_joined',
  'inventory_actions_personal_monthly',
];

/** The dashboard's "Your plan" card: the plan and its most-used limits, with the way to the full page. */
export function PlanSummaryCard() {
  const current = useQuery(currentSubscriptionQueryOptions());

  return (
    <Card
      withBorder
      padding="lg"
      component="section"
      aria-labelledby="plan-summary-heading"
      data-testid="plan-summary"
    >
      <Stack gap="md">
        <Group justify="space-between" gap="sm">
          <Title order={2} size="h4" id="plan-summary-heading">
            Your plan
          </Title>
          <Anchor component={Link} to="/subscription" size="sm" className="haversack-touch-target">
            Manage subscription
          </Anchor>
        </Group>
        <RefreshFailedNote query={current} />
        {current.isPending ? (
          <div role="status" aria-label="Loading your plan">
            <TextSkeleton lines={4} />
          </div>
        ) : failedWithNothingToShow(current) ? (
          // As the dashboard's other cards say it (the same red panel and its Try Again).
          <ErrorPanel
            title="Error loading your plan"
            message="Your plan could not be loaded."
            onRetry={() => void current.refetch()}
          />
        ) : (
          <PlanSummary current={current.data} />
        )}
      </Stack>
    </Card>
  );
}

function PlanSummary({ current }: { current: CurrentSubscription }) {
  const { subscription, tier } = current;
  const lifting = liftingPatronages(current);
  // The plan names a sponsorship grants; asked for only when there is one.
  const tiers = useQuery({ ...tiersQueryOptions(), enabled: lifting.length > 0 });
  const tierName = (identifier: TierIdentifier) =>
    tiers.data?.tiers.find((entry) => entry.identifier === identifier)?.name ?? 'a paid plan';
  const ending = tier.identifier !== 'tier_free' && subscription.cancel_at_period_end;
  const periodEnd = formatDate(subscription.current_period_end);

  return (
    <>
      <Stack gap={4}>
        <Group gap="sm">
          <Text fw={700} size="lg" data-testid="plan-summary-name">
            {tier.name}
          </Text>
          <PlanStatusBadge subscription={subscription} />
        </Group>
        {ending ? (
          <Text size="sm" data-testid="plan-summary-ends">
            {`Cancelled: ${tier.name} ends ${periodEnd ? `on ${periodEnd}` : 'at the close of the current period'}, then you are on the Free plan.`}
          </Text>
        ) : null}
      </Stack>
      <SponsorshipNotice patronages={lifting} ownTier={tier} tierName={tierName} />
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg" verticalSpacing="sm">
        {keyResources.map((resource) => {
          const entry = current.usage[resource];
          return entry ? (
            <UsageBar
              key={resource}
              resource={resource}
              entry={entry}
              sponsoredNote={sponsoredLimitNote(resource, lifting, tierName)}
            />
          ) : null;
        })}
      </SimpleGrid>
    </>
  );
}
