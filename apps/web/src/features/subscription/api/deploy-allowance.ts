import {
  checkFeatureResultSchema,
  checkLimitResultSchema,
  type FeatureKey,
  type UsageResource,
} from '@haversack/contracts';
import { queryOptions } from '@tanstack/react-query';
import { API_V1, apiRequest } from '../../../lib/http-client';
import { subscriptionKeys } from './subscription-api';

/** Why the plan that applies in a party would refuse a deployment there: a feature it lacks, or a limit used up. */
export type DeployRefusal =
  | { kind: 'feature'; feature: FeatureKey }
  | { kind: 'limit'; resource: UsageResource; message: string };

export interface DeployAsk {
  feature?: FeatureKey;
  limits: UsageResource[];
}

/**
 * What a deploy dialog asks the server of the chosen party before the form is filled in (the plan there is
 * the user's own or a sponsor's: only the server knows which), so that a refusal is said up front rather
 * than after Deploy. A question that fails answers nothing: the Deploy itself still decides.
 */
export function deployAllowanceQuery(partyId: string, ask: DeployAsk) {
  return queryOptions({
    // Under `account`: an upgrade or a new sponsorship asks again.
    queryKey: [...subscriptionKeys.account(), 'deploy', partyId, ask.feature ?? null, ...ask.limits],
    queryFn: async ({ signal }): Promise<DeployRefusal | null> => {
      const body = { party_id: partyId };
      const [feature, ...limits] = await Promise.all([
        ask.feature
          ? apiRequest(`${API_V1}/subscription/check_feature`, {
              method: 'POST',
              body: { ...body, feature: ask.feature },
              schema: checkFeatureResultSchema,
              signal,
              toast: false,
            })
          : null,
        ...ask.limits.map((resource) =>
          apiRequest(`${API_V1}/subscription/check_limit`, {
            method: 'POST',
            body: { ...body, resource },
            schema: checkLimitResultSchema,
            signal,
            toast: false,
          }),
        ),
      ]);
      if (ask.feature && feature && !feature.data.allowed) return { kind: 'feature', feature: ask.feature };
      const refused = ask.limits.findIndex((_, index) => limits[index]?.data.allowed === false);
      const resource = ask.limits[refused];
      if (resource === undefined) return null;
      return { kind: 'limit', resource, message: limits[refused]?.data.message ?? '' };
    },
    staleTime: 0,
    retry: false,
  });
}
