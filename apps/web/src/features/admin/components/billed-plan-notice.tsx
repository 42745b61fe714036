import type { AdminUserDetail } from '@haversack/contracts';
import { Alert } from '@mantine/core';

/**
 * Said in the grant dialog of a user whose plan runs through a billing provider: a granted plan replaces
 * it here, and staff no longer see that the user was paying. Stripe keeps charging until the subscription
 * is cancelled there (docs/decisions.md "A plan granted by staff").
 */
export function BilledPlanNotice({
  email,
  subscription,
}: Pick<AdminUserDetail, 'subscription'> & { email: string }) {
  if (!subscription.provider) return null;
  if (subscription.provider === 'stripe') {
    return (
      <Alert color="yellow" title="This user pays through Stripe">
        {email} pays for {subscription.tier_name} through Stripe. A granted plan replaces it here, but Stripe
        goes on charging them: cancel their subscription in the Stripe dashboard first.
      </Alert>
    );
  }
  return (
    <Alert color="yellow" title="This user has a plan through demo billing">
      {email} is on {subscription.tier_name} through demo billing (no payment). A granted plan replaces it.
    </Alert>
  );
}
