import { subscriptionMessages } from '@haversack/contracts';
import { Alert } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';

/** Issue 3: with the local provider, screens say plainly that nobody is charged. */
export function LocalBillingNotice() {
  return (
    <Alert
      color="blue"
      variant="light"
      icon={<IconInfoCircle aria-hidden="true" />}
      // A standing notice (Mantine's Alert is role=alert unless told): not announced urgently on every visit.
      role="status"
      data-testid="local-billing"
    >
      {subscriptionMessages.localBilling}
    </Alert>
  );
}
