import type { Container } from '@haversack/contracts';
import { Alert, Anchor, Stack, Text } from '@mantine/core';
import { useQueries } from '@tanstack/react-query';
import { Link } from 'react-router';
import { LimitUpgradePrompt } from '../../../components/upgrade-prompt';
import { upgradeLinkLabel } from '../../../lib/upgrade-link';
import {
  type ActionScope,
  actionScopes,
  allowanceQuery,
  allowanceResource,
  allowanceUpgradePath,
} from '../api/allowance-api';

/** A tenth of the month's allowance left, and at least the last one: early enough to plan a game night. */
export function isRunningLow(remaining: number, limit: number): boolean {
  return remaining <= Math.max(1, Math.ceil(limit / 10));
}

export function runningLowMessage(scope: ActionScope, remaining: number, limit: number): string {
  return `You have ${remaining} of ${limit} ${scope} inventory ${limit === 1 ? 'action' : 'actions'} left this month.`;
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
        <LimitUpgradePrompt key={scope} resource={allowanceResource[scope]}>
          {answer.message ?? runningLowMessage(scope, 0, answer.limit)}
        </LimitUpgradePrompt>,
      ];
    }
    if (!isRunningLow(answer.remaining, answer.limit)) return [];
    return [
      <Alert key={scope} color="yellow" variant="light" role="status" py="xs">
        <Text size="sm">
          {runningLowMessage(scope, answer.remaining, answer.limit)}{' '}
          <Anchor component={Link} to={allowanceUpgradePath(scope)} size="sm">
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
