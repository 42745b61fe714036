import {
  type ShopRequest,
  type ShopRequestResult,
  shopRequestResultSchema,
  shopRequestSchema,
} from '@haversack/contracts';
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { API_V1, apiRequest } from '../../../lib/http-client';
import { SHOP_INSTANCE_STALE_MS, shopKeys } from './shops-api';

/** Under the shop's own key, so a shop event (request made, approved, declined) refreshes it with the shop. */
export const shopRequestKeys = {
  pending: (shopId: string) => [...shopKeys.instance(shopId), 'requests', 'pending'] as const,
  decided: (shopId: string) => [...shopKeys.instance(shopId), 'requests', 'decided'] as const,
};

/** How many decided requests the Requests tab shows, newest first. */
export const DECIDED_REQUESTS_SHOWN = 10;

/** Issue 10 §8: the purchases waiting for approval: all of them for the GM and managers, my own otherwise. */
export function pendingRequestsQuery(shopId: string) {
  return queryOptions({
    queryKey: shopRequestKeys.pending(shopId),
    queryFn: async ({ signal }): Promise<ShopRequest[]> =>
      (
        await apiRequest(`${API_V1}/shop_instances/${shopId}/requests?status=pending`, {
          schema: z.array(shopRequestSchema),
          signal,
          toast: false,
        })
      ).data,
    staleTime: SHOP_INSTANCE_STALE_MS,
  });
}

/**
 * The requests already decided (approved, declined, cancelled), newest decision first: who asked sees what
 * became of theirs and why, after the live notice has gone; the GM sees what was decided lately.
 */
export function decidedRequestsQuery(shopId: string) {
  return queryOptions({
    queryKey: shopRequestKeys.decided(shopId),
    queryFn: async ({ signal }): Promise<ShopRequest[]> => {
      const { data } = await apiRequest(`${API_V1}/shop_instances/${shopId}/requests?status=all`, {
        schema: z.array(shopRequestSchema),
        signal,
        toast: false,
      });
      return data
        .filter((request) => request.status !== 'pending')
        .sort((a, b) => (b.decided_at ?? b.updated_at).localeCompare(a.decided_at ?? a.updated_at))
        .slice(0, DECIDED_REQUESTS_SHOWN);
    },
    staleTime: SHOP_INSTANCE_STALE_MS,
  });
}

export type RequestDecision = 'approve' | 'decline' | 'cancel';

/**
 * Approve or decline (GM and managers), or cancel (who asked); the caller shows the outcome. A decline may
 * say why: who asked is told it.
 */
export async function decideRequest(
  requestId: string,
  decision: RequestDecision,
  reason = '',
): Promise<ShopRequestResult> {
  const { data } = await apiRequest(`${API_V1}/shop_requests/${requestId}/${decision}`, {
    method: 'POST',
    ...(decision === 'approve' ? {} : { body: reason.trim() ? { reason: reason.trim() } : {} }),
    schema: shopRequestResultSchema,
    toast: false,
  });
  return data;
}
