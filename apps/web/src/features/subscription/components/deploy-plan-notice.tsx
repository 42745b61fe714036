import { Alert, Anchor, Stack, Text } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { Link } from 'react-router';
import { FeatureUpgradePrompt } from '../../../components/upgrade-prompt';
import { upgradeLinkLabel } from '../../../lib/upgrade-link';
import type { DeployRefusal } from '../api/deploy-allowance';

/**
 * A deploy dialog's word on the plan before the form is filled in: what the plan in the chosen party lacks
 * or has used up, with the way to the upgrade (the same words a refused Deploy gives).
 */
export function DeployPlanNotice({ refusal, what }: { refusal: DeployRefusal; what: string }) {
  if (refusal.kind === 'feature') {
    return (
      <FeatureUpgradePrompt feature={refusal.feature}>
        {`The plan that applies to you in this party does not let you deploy ${what} there. A higher plan of your own, or a member sponsoring you in this party with one, does.`}
      </FeatureUpgradePrompt>
    );
  }
  return (
    <Alert
      color="yellow"
      variant="light"
      title="Plan limit reached"
      icon={<IconLock aria-hidden="true" />}
      role="status"
      data-testid="upgrade-prompt"
    >
      <Stack gap="xs" align="flex-start">
        <Text size="sm">{refusal.message}</Text>
        <Anchor
          component={Link}
          to={`/subscription/upgrade?${new URLSearchParams({ resource: refusal.resource })}`}
          size="sm"
          fw={600}
          c="inherit"
          underline="always"
          className="haversack-touch-target"
        >
          {upgradeLinkLabel}
        </Anchor>
      </Stack>
    </Alert>
  );
}
