import { subscriptionMessages } from '@haversack/contracts';
import { Alert } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';

/**
 * DESIGN §7: with neither Stripe nor BILLING_PROVIDER=local the server refuses upgrades; the screens say
 * so up front rather than offer a button that can only fail.
 */
export function BillingDisabledNotice() {
  return (
    <Alert
      color="red"
      variant="light"
      icon={<IconAlertTriangle aria-hidden="true" />}
      // A standing notice (Mantine's Alert is role=alert unless told): not announced urgently on every visit.
      role="status"
      data-testid="billing-disabled"
    >
      {subscriptionMessages.billingDisabled}
    </Alert>
  );
}
