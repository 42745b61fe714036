import type { Subscription } from '@haversack/contracts';
import { Badge } from '@mantine/core';
import { formatShortDate } from '../plan-text';

type BadgeState = Subscription['status'] | 'ending';

// Filled in shades that keep AA contrast with their text in both schemes: white on the darkest teal, red and
// grey, and (autoContrast) dark text on the yellow; the pale "light" variants fall under 4.5:1.
const statusColors: Record<BadgeState, string> = {
  active: 'teal.9',
  ending: 'yellow.4',
  cancelled: 'gray.7',
  past_due: 'red.9',
};

const statusLabels: Record<Subscription['status'], string> = {
  active: 'Active',
  cancelled: 'Cancelled',
  past_due: 'Past due',
};

type BadgeSubscription = Pick<
  Subscription,
  'status' | 'tier' | 'cancel_at_period_end' | 'current_period_end'
>;

/**
 * A paid plan cancelled "at period end" is still running but no longer renews (decisions: Cancellation), so
 * it does not read "Active": it says when it ends. A past-due payment says so first.
 */
export function planStatusBadgeState(subscription: BadgeSubscription): { state: BadgeState; label: string } {
  const { status, tier, cancel_at_period_end: cancelAtPeriodEnd } = subscription;
  if (status === 'active' && cancelAtPeriodEnd && tier !== 'tier_free') {
    const ends = formatShortDate(subscription.current_period_end);
    return { state: 'ending', label: ends ? `Ends ${ends}` : 'Ending' };
  }
  return { state: status, label: statusLabels[status] };
}

export function PlanStatusBadge({ subscription }: { subscription: BadgeSubscription }) {
  const { state, label } = planStatusBadgeState(subscription);
  return (
    <Badge
      color={statusColors[state]}
      variant="filled"
      autoContrast
      data-testid="plan-status"
      data-state={state}
    >
      {label}
    </Badge>
  );
}
