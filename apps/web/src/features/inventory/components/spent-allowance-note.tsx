import { Anchor, Text } from '@mantine/core';
import { Link } from 'react-router';
import { upgradeLinkLabel } from '../../../lib/upgrade-link';
import { type ActionScope, allowanceUpgradePath } from '../api/allowance-api';
import { allowanceSpentMessage } from '../hooks/use-spent-allowances';

/**
 * The line under (or above) actions offered disabled because the allowance they would spend is used up
 * this month: why, as the allowance notice says it, and the way to more. The actions are described by the
 * reason (`id`), not by the link.
 */
export function SpentAllowanceNote({
  id,
  scope,
  testId,
}: {
  id: string;
  scope: ActionScope;
  testId: string;
}) {
  return (
    <Text size="sm" c="dimmed" data-testid={testId}>
      <span id={id}>{allowanceSpentMessage(scope)}.</span>{' '}
      <Anchor component={Link} to={allowanceUpgradePath(scope)} size="sm">
        {upgradeLinkLabel}
      </Anchor>
    </Text>
  );
}

/** The props that keep a button in its place, focusable and described by why, while it would be refused. */
export function refusedButtonProps(refusalId: string | null) {
  return refusalId
    ? ({ 'aria-disabled': true, 'data-disabled': true, 'aria-describedby': refusalId } as const)
    : {};
}
