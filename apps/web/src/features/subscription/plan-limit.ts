import type { CurrentSubscription, UsageResource } from '@haversack/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId } from 'react';
import { isApiError } from '../../lib/http-client';
import { currentSubscriptionQueryOptions, subscriptionKeys } from './api/subscription-api';

/** Whether the user's own plan has no room for another of this resource; unknown (false) while it loads. */
export function isAtPlanLimit(current: CurrentSubscription | undefined, resource: UsageResource): boolean {
  const entry = current?.usage[resource];
  return entry !== undefined && entry.limit !== null && entry.used >= entry.limit;
}

/**
 * Issue 12 on a create page: the limit is said once, by the PlanLimitHint given `hintId`, and the submit is
 * disabled and described by that hint while the plan is full (`blockedBy`), so no refusal repeats it. When a
 * submit is still refused on a stale count (something created elsewhere), the HTTP client's toast says so
 * once; `onRefusal` refreshes the count, which turns the hint full and disables the submit.
 */
export function usePlanLimit(resource: UsageResource) {
  const hintId = useId();
  const queryClient = useQueryClient();
  const current = useQuery(currentSubscriptionQueryOptions());
  const full = isAtPlanLimit(current.data, resource);
  return {
    hintId,
    full,
    /** The id of the element that says why the submit is disabled, or null while there is room. */
    blockedBy: full ? hintId : null,
    onRefusal: (error: unknown) => {
      if (isApiError(error) && error.code === 'LIMIT_EXCEEDED') {
        void queryClient.invalidateQueries({ queryKey: subscriptionKeys.account() });
      }
    },
  };
}
