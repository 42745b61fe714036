import type { UsageResource } from '@haversack/contracts';
import { Button } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { currentSubscriptionQueryOptions } from '../api/subscription-api';
import { PlanLimitHint } from './plan-limit-hint';

/**
 * A list page's "New …" button. When the plan has none of the resource (a limit of 0), the form behind it
 * could not be submitted, so the page says so with the way to upgrade instead, as My Content does. A plan
 * with room, or one still loading, keeps the button (the create page says a used-up limit itself).
 */
export function NewOrUpgrade({
  resource,
  to,
  label,
  variant,
}: {
  resource: UsageResource;
  to: string;
  label: string;
  /** A secondary place (an empty state) draws it plain, without the plus. */
  variant?: 'default';
}) {
  const current = useQuery(currentSubscriptionQueryOptions());
  if (current.data?.usage[resource]?.limit === 0) return <PlanLimitHint resource={resource} />;
  return (
    <Button
      component={Link}
      to={to}
      variant={variant}
      leftSection={variant ? undefined : <IconPlus size={16} aria-hidden="true" />}
    >
      {label}
    </Button>
  );
}
