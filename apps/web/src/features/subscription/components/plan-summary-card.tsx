import type { UsageResource } from '@haversack/contracts';
import { Anchor, Button, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { TextSkeleton } from '../../../components/loading';
import { currentSubscriptionQueryOptions } from '../api/subscription-api';
import { PlanStatusBadge } from './plan-status-badge';
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
          <Anchor component={Link} to="/subscription" size="sm">
            Manage subscription
          </Anchor>
        </Group>
        {current.isPending ? (
          <div role="status" aria-label="Loading your plan">
            <TextSkeleton lines={4} />
          </div>
        ) : current.isError ? (
          <Stack gap="xs" align="flex-start">
            <Text size="sm">Your plan could not be loaded.</Text>
            <Button variant="default" size="xs" onClick={() => void current.refetch()}>
              Try Again
            </Button>
          </Stack>
        ) : (
          <>
            <Group gap="sm">
              <Text fw={700} size="lg" data-testid="plan-summary-name">
                {current.data.tier.name}
              </Text>
              <PlanStatusBadge status={current.data.subscription.status} />
            </Group>
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg" verticalSpacing="sm">
              {keyResources.map((resource) => {
                const entry = current.data.usage[resource];
                return entry ? <UsageBar key={resource} resource={resource} entry={entry} /> : null;
              })}
            </SimpleGrid>
          </>
        )}
      </Stack>
    </Card>
  );
}
