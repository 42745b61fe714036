import {
  BILLING_RETURN_PATH,
  billingPortalResultSchema,
  billingProviderSchema,
  CHECKOUT_DEFAULT_RETURN_PATH,
  type CheckoutSession,
  type CurrentSubscription,
  checkoutResultSchema,
  checkoutSessionSchema,
  currentSubscriptionSchema,
  patronageSchema,
  SUBSCRIPTION_GC_MS,
  SUBSCRIPTION_STALE_MS,
  subscriptionMessages,
  subscriptionSchema,
  type Tier,
  type TierIdentifier,
  tierSchema,
} from '@haversack/contracts';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { z } from 'zod';
import { meRequest } from '../../../lib/auth-api';
import { API_V1, apiRequest, isApiError } from '../../../lib/http-client';
import { updateSessionUser } from '../../../lib/session';
import { toast } from '../../../lib/toast';

/**
 * The only source of the subscription cache keys. Everything that changes with the user's plan sits under
 * `account`, so one invalidation refreshes it; the tiers themselves never change while the app runs.
 */
export const subscriptionKeys = {
  all: ['subscription'] as const,
  tiers: () => [...subscriptionKeys.all, 'tiers'] as const,
  account: () => [...subscriptionKeys.all, 'account'] as const,
  current: () => [...subscriptionKeys.account(), 'current'] as const,
  /** What the user's content uses of their plan (My Content's counts): a deployment or a removal moves it. */
  contentUsage: () => [...subscriptionKeys.account(), 'usage', 'content'] as const,
  /** The monthly inventory allowances where the user acts (check_limit), asked again after each change. */
  allowance: () => [...subscriptionKeys.account(), 'allowance'] as const,
  /** The sponsorships the user receives: a party's plan for them changes with each. */
  receivedPatronages: () => [...subscriptionKeys.account(), 'patronages', 'received'] as const,
  checkout: (sessionId: string) => [...subscriptionKeys.account(), 'checkout', sessionId] as const,
  /** Whether the plan that applies in a party (own or sponsored) lets the user act on its stash. */
  partyCollaboration: (partyId: string) =>
    [...subscriptionKeys.account(), 'party-collaboration', partyId] as const,
};

export type BillingProviderName = z.infer<typeof billingProviderSchema>;

export interface TierCatalogue {
  /** Ordered by rank, Free first. */
  tiers: Tier[];
  billingProvider: BillingProviderName;
}

const tiersMetaSchema = z.object({ billing_provider: billingProviderSchema });

export function tiersQueryOptions() {
  return queryOptions({
    queryKey: subscriptionKeys.tiers(),
    queryFn: async (): Promise<TierCatalogue> => {
      const { data, meta } = await apiRequest(`${API_V1}/subscription/tiers`, {
        schema: z.array(tierSchema),
        toast: false,
      });
      const parsedMeta = tiersMetaSchema.safeParse(meta);
      return {
        tiers: [...data].sort((a, b) => a.rank - b.rank),
        billingProvider: parsedMeta.success ? parsedMeta.data.billing_provider : 'none',
      };
    },
    staleTime: SUBSCRIPTION_STALE_MS,
    gcTime: SUBSCRIPTION_GC_MS,
  });
}

/** spec/01 §9: the subscription is fresh for 5 min and kept for 10. */
export function currentSubscriptionQueryOptions() {
  return queryOptions({
    queryKey: subscriptionKeys.current(),
    queryFn: async (): Promise<CurrentSubscription> => {
      const { data } = await apiRequest(`${API_V1}/subscription/current`, {
        schema: currentSubscriptionSchema,
        toast: false,
      });
      return data;
    },
    staleTime: SUBSCRIPTION_STALE_MS,
    gcTime: SUBSCRIPTION_GC_MS,
  });
}

/** The sponsorships the user receives, each in one party (GET patronages/received). */
export function receivedPatronagesQueryOptions() {
  return queryOptions({
    queryKey: subscriptionKeys.receivedPatronages(),
    queryFn: async ({ signal }) =>
      (
        await apiRequest(`${API_V1}/patronages/received`, {
          schema: z.array(patronageSchema),
          signal,
          toast: false,
        })
      ).data,
    staleTime: SUBSCRIPTION_STALE_MS,
  });
}

/** A checkout reference the server issued to this user, or null when it issued no such one (404). */
export function checkoutSessionQueryOptions(sessionId: string) {
  return queryOptions({
    queryKey: subscriptionKeys.checkout(sessionId),
    queryFn: async (): Promise<CheckoutSession | null> => {
      try {
        const { data } = await apiRequest(
          `${API_V1}/subscription/checkout/${encodeURIComponent(sessionId)}`,
          { schema: checkoutSessionSchema, toast: false },
        );
        return data;
      } catch (error) {
        if (isApiError(error) && error.status === 404) return null;
        throw error;
      }
    },
    staleTime: SUBSCRIPTION_STALE_MS,
    gcTime: SUBSCRIPTION_GC_MS,
  });
}

/** What a failed subscription call should say: the server's own sentence for refusals, else the catalogue's. */
export function subscriptionErrorMessage(error: unknown): string {
  if (!isApiError(error)) return 'Something went wrong. Please try again.';
  return error.serverMessage && error.status < 500 ? error.serverMessage : error.message;
}

/**
 * spec/01 §4: after a plan change the subscription data is refetched; the signed-in user carries the tier
 * too, so it is reloaded as well (quietly: the plan change itself has already succeeded).
 */
function useRefreshAfterPlanChange() {
  const queryClient = useQueryClient();
  return async () => {
    await queryClient.invalidateQueries({ queryKey: subscriptionKeys.account() });
    meRequest()
      .then(updateSessionUser)
      .catch(() => undefined);
  };
}

/** Go to a URL the server returned: within the app through the router, elsewhere (Stripe) by a page load. */
function useFollowServerUrl() {
  const navigate = useNavigate();
  return (url: string) => {
    const target = new URL(url, window.location.href);
    if (target.origin === window.location.origin) {
      void navigate(`${target.pathname}${target.search}${target.hash}`);
    } else {
      window.location.assign(target.toString());
    }
  };
}

/**
 * Start an upgrade. With local billing the plan is applied at once and the answer is the success page; with
 * Stripe it is the hosted checkout page.
 */
export function useCheckout(
  /** The page the upgrade was asked for from (a refused action's): the success page leads back to it. */
  from: string | null = null,
  /**
   * The plan the user is on before this checkout: the success page compares it with the plan the server then
   * reports, to thank for an upgrade or say a move down (kept in the address, so a reload says the same).
   */
  previousPlan: TierIdentifier | null = null,
) {
  const refresh = useRefreshAfterPlanChange();
  const follow = useFollowServerUrl();
  const returnQuery = {
    ...(from ? { from } : {}),
    ...(previousPlan ? { previous_plan: previousPlan } : {}),
  };
  const returnPath =
    Object.keys(returnQuery).length > 0
      ? `${CHECKOUT_DEFAULT_RETURN_PATH}?${new URLSearchParams(returnQuery)}`
      : CHECKOUT_DEFAULT_RETURN_PATH;
  return useMutation({
    mutationFn: async (tier: TierIdentifier) => {
      const { data } = await apiRequest(`${API_V1}/subscription/checkout`, {
        method: 'POST',
        body: { tier_id: tier, return_url: returnPath },
        schema: checkoutResultSchema,
        // The page shows the refusal next to the button (already on this plan, billing disabled).
        toast: false,
      });
      return data;
    },
    onSuccess: async (result) => {
      await refresh();
      if (result.checkout_url) follow(result.checkout_url);
      else if (result.session_id)
        follow(
          `${CHECKOUT_DEFAULT_RETURN_PATH}?${new URLSearchParams({ ...returnQuery, session_id: result.session_id })}`,
        );
      else toast.error(subscriptionMessages.noCheckoutUrl);
    },
  });
}

/** spec/01 §9: cancelling always sends cancel_at_period_end true; the plan stays until the period closes. */
export function useCancelSubscription() {
  const refresh = useRefreshAfterPlanChange();
  return useMutation({
    mutationFn: async (reason: string) => {
      const trimmed = reason.trim();
      const { data } = await apiRequest(`${API_V1}/subscription/cancel`, {
        method: 'POST',
        body: { ...(trimmed ? { reason: trimmed } : {}), cancel_at_period_end: true },
        schema: subscriptionSchema,
        toast: false,
      });
      return data;
    },
    // A plan staff gave ends at once (it has no period): the toast says which happened.
    onSuccess: async (subscription) => {
      toast.success(
        subscription.cancel_at_period_end
          ? subscriptionMessages.cancelled
          : subscriptionMessages.cancelledNow,
      );
      await refresh();
    },
  });
}

export function useReactivateSubscription() {
  const refresh = useRefreshAfterPlanChange();
  return useMutation({
    mutationFn: async () => {
      const { data } = await apiRequest(`${API_V1}/subscription/reactivate`, {
        method: 'POST',
        schema: subscriptionSchema,
        toast: false,
      });
      return data;
    },
    onSuccess: async () => {
      toast.success(subscriptionMessages.reactivated);
      await refresh();
    },
    onError: (error) => toast.error(subscriptionErrorMessage(error)),
  });
}

export function useBillingPortal() {
  const refresh = useRefreshAfterPlanChange();
  const follow = useFollowServerUrl();
  return useMutation({
    mutationFn: async () => {
      const { data } = await apiRequest(`${API_V1}/subscription/billing_portal`, {
        method: 'POST',
        body: { return_url: BILLING_RETURN_PATH },
        schema: billingPortalResultSchema,
        toast: false,
      });
      return data;
    },
    onSuccess: async ({ portal_url }) => {
      await refresh();
      follow(portal_url);
    },
    onError: (error) => toast.error(subscriptionErrorMessage(error)),
  });
}

/** Ends a patronage, granted or received (the patron revokes it, the sponsored member declines it). */
export function useEndPatronage() {
  const refresh = useRefreshAfterPlanChange();
  return useMutation({
    mutationFn: async (patronageId: string) => {
      await apiRequest(`${API_V1}/patronages/${encodeURIComponent(patronageId)}`, {
        method: 'DELETE',
        toast: false,
      });
    },
    onSuccess: async () => {
      toast.success('The patronage has ended.');
      await refresh();
    },
    onError: (error) => toast.error(subscriptionErrorMessage(error)),
  });
}
