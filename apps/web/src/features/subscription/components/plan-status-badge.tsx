import type { Subscription } from '@haversack/contracts';
import { Badge } from '@mantine/core';

const statusLabels: Record<Subscription['status'], { label: string; color: string }> = {
  active: { label: 'Active', color: 'teal.9' },
  cancelled: { label: 'Cancelled', color: 'gray.7' },
  past_due: { label: 'Past due', color: 'red.9' },
};

// Filled in the darkest shades: white on them passes AA in both schemes, which the pale "light" variant of
// teal does not.

export function PlanStatusBadge({ status }: { status: Subscription['status'] }) {
  const { label, color } = statusLabels[status];
  return (
    <Badge color={color} variant="filled" data-testid="plan-status">
      {label}
    </Badge>
  );
}
