import { Button, Group, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { currentSubscriptionQueryOptions } from '../../subscription/api/subscription-api';
import { PlanLimitHint } from '../../subscription/components/plan-limit-hint';
import { isAtPlanLimit } from '../../subscription/plan-limit';

/**
 * Dashboard, My Parties with none yet: the ways in. Join Party always; Create Party once the plan is known to
 * have room (a plan whose parties are all made gets the plan's limit and the way to upgrade instead). If the
 * plan cannot be loaded, Create Party stays: the create page says the limit itself.
 */
export function NoPartyActions() {
  const current = useQuery(currentSubscriptionQueryOptions());
  const full = isAtPlanLimit(current.data, 'parties_created');
  const canCreate = !full && current.status !== 'pending';
  return (
    <Stack gap="xs" align="flex-start">
      <Text size="sm" c="dimmed">
        You are not in a party yet.
      </Text>
      {/* 44 px on a phone (haversack-finger-target), as the marketplace's Add to Container. */}
      <Group gap="xs">
        {canCreate ? (
          <Button component={Link} to="/parties/new" size="xs" className="haversack-finger-target">
            Create Party
          </Button>
        ) : null}
        <Button
          component={Link}
          to="/parties/join"
          size="xs"
          variant="light"
          className="haversack-finger-target"
        >
          Join Party
        </Button>
      </Group>
      {full ? <PlanLimitHint resource="parties_created" /> : null}
    </Stack>
  );
}
