import {
  type Container,
  checkLimitResultSchema,
  INVENTORY_USAGE_GC_MS,
  INVENTORY_USAGE_STALE_MS,
  type UsageResource,
} from '@haversack/contracts';
import { queryOptions } from '@tanstack/react-query';
import { API_V1, apiRequest } from '../../../lib/http-client';
import { subscriptionKeys } from '../../subscription/api/subscription-api';

/** The two monthly allowances of inventory actions (DESIGN §5). */
export type ActionScope = 'personal' | 'party';

export const allowanceResource: Record<ActionScope, UsageResource> = {
  personal: 'inventory_actions_personal_monthly',
  party: 'inventory_actions_party_monthly',
};

/** The upgrade page for one allowance, as the plan prompts link it. */
export function allowanceUpgradePath(scope: ActionScope): string {
  return `/subscription/upgrade?${new URLSearchParams({ resource: allowanceResource[scope] })}`;
}

/**
 * The month's allowance as the plan that applies where the user acts (their own, or a sponsor's in this
 * party): only the server knows which, so it is asked (spec/01 §7 check_limit), fresh for 30 s like the
 * inventory usage (spec/01 §9) and asked again after each of the user's own changes (invalidateContainers).
 */
export function allowanceQuery(scope: ActionScope, partyId: string | null) {
  const resource = allowanceResource[scope];
  return queryOptions({
    queryKey: [...subscriptionKeys.allowance(), resource, partyId],
    queryFn: async ({ signal }) => {
      const { data } = await apiRequest(`${API_V1}/subscription/check_limit`, {
        method: 'POST',
        body: { resource, ...(partyId ? { party_id: partyId } : {}) },
        schema: checkLimitResultSchema,
        signal,
        toast: false,
      });
      return data;
    },
    staleTime: INVENTORY_USAGE_STALE_MS,
    gcTime: INVENTORY_USAGE_GC_MS,
    retry: false,
  });
}

/** Which monthly allowances the user's changes here count against: the ones of containers they may change. */
export function actionScopes(containers: readonly Container[]): ActionScope[] {
  const scopes: ActionScope[] = [];
  if (containers.some((c) => c.can_act && c.character_id !== null)) scopes.push('personal');
  if (containers.some((c) => c.can_act && c.character_id === null && c.party_id !== null))
    scopes.push('party');
  return scopes;
}
