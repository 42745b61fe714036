import {
  type Container,
  checkLimitResultSchema,
  INVENTORY_USAGE_GC_MS,
  INVENTORY_USAGE_STALE_MS,
  type UsageResource,
} from '@haversack/contracts';
import { Alert, Anchor, Stack, Text } from '@mantine/core';
import { queryOptions, useQueries } from '@tanstack/react-query';
import { Link } from 'react-router';
import { LimitUpgradePrompt } from '../../../components/upgrade-prompt';
import { API_V1, apiRequest } from '../../../lib/http-client';
import { upgradeLinkLabel } from '../../../lib/upgrade-link';
import { subscriptionKeys } from '../../subscription/api/subscription-api';

type ActionScope = 'personal' | 'party';

const resourceOf: Record<ActionScope, UsageResource> = {
  personal: 'inventory_actions_personal_monthly',
  party: 'inventory_actions_party_monthly',
};

/** A tenth of the month's allowance left, and at least the last one: early enough to plan a game night. */
export function isRunningLow(remaining: number, limit: number): boolean {
  return remaining <= Math.max(1, Math.ceil(limit / 10));
}

export function runningLowMessage(scope: ActionScope, remaining: number, limit: number): string {
  return `You have ${remaining} of ${limit} ${scope} inventory ${limit === 1 ? 'action' : 'actions'} left this month.`;
}

/**
 * The month's allowance as the plan that applies where the user acts (their own, or a sponsor's in this
 * party): only the server knows which, so it is asked (spec/01 §7 check_limit), fresh for 30 s like the
 * inventory usage (spec/01 §9) and asked again after each of the user's own changes (invalidateContainers).
 */
function allowanceQuery(scope: ActionScope, partyId: string | null) {
  const resource = resourceOf[scope];
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

/**
 * Before the monthly allowance of inventory actions runs out, the workspace says how many are left, and
 * once it has, says so up front in the server's words, rather than only after a move is refused. Says
 * nothing while there is plenty left, on an unlimited plan, or when the question fails (the server still
 * decides every change).
 */
export function AllowanceNotice({
  containers,
  partyId,
}: {
  containers: readonly Container[];
  partyId: string | null;
}) {
  const scopes = actionScopes(containers);
  const answers = useQueries({ queries: scopes.map((scope) => allowanceQuery(scope, partyId)) });
  const notices = scopes.flatMap((scope, index) => {
    const answer = answers[index]?.data;
    if (!answer || answer.limit === null || answer.remaining === null) return [];
    if (!answer.allowed) {
      return [
        <LimitUpgradePrompt key={scope} resource={resourceOf[scope]}>
          {answer.message ?? runningLowMessage(scope, 0, answer.limit)}
        </LimitUpgradePrompt>,
      ];
    }
    if (!isRunningLow(answer.remaining, answer.limit)) return [];
    return [
      <Alert key={scope} color="yellow" variant="light" role="status" py="xs">
        <Text size="sm">
          {runningLowMessage(scope, answer.remaining, answer.limit)}{' '}
          <Anchor
            component={Link}
            to={`/subscription/upgrade?${new URLSearchParams({ resource: resourceOf[scope] })}`}
            size="sm"
          >
            {upgradeLinkLabel}
          </Anchor>
        </Text>
      </Alert>,
    ];
  });
  if (notices.length === 0) return null;
  return (
    <Stack gap="xs" data-testid="allowance-notice">
      {notices}
    </Stack>
  );
}
