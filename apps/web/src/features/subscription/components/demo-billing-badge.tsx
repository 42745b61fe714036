import { subscriptionMessages } from '@haversack/contracts';
import { Badge, Tooltip } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { tiersQueryOptions } from '../api/subscription-api';

/**
 * Issue 9: under BILLING_PROVIDER=local every plan is free, and the whole app says so, not only the plan
 * screens: a badge in the header (and in the menu on a phone) that leads to the plans.
 */
export function DemoBillingBadge({ visibleFrom, hiddenFrom }: { visibleFrom?: 'sm'; hiddenFrom?: 'sm' }) {
  const tiers = useQuery(tiersQueryOptions());
  if (tiers.data?.billingProvider !== 'local') return null;
  return (
    <Tooltip label={subscriptionMessages.localBilling} withinPortal>
      <Badge
        component={Link}
        to="/subscription/compare"
        variant="filled"
        color="orange.3"
        autoContrast
        size="sm"
        visibleFrom={visibleFrom}
        hiddenFrom={hiddenFrom}
        style={{ cursor: 'pointer' }}
        aria-label={`Demo billing. ${subscriptionMessages.localBilling}`}
        data-testid="demo-billing"
      >
        Demo billing
      </Badge>
    </Tooltip>
  );
}
