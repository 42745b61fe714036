import { Alert, Anchor, Stack, Text } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { Link } from 'react-router';
import { isApiError } from '../lib/http-client';
import { planRefusalMessage, upgradeLinkLabel, upgradePathFor } from '../lib/upgrade-link';

/**
 * Inline explanation of a plan refusal (LIMIT_EXCEEDED / FEATURE_NOT_AVAILABLE) with the way to lift it.
 * Renders nothing for any other error, so a form can pass whatever its mutation failed with.
 */
export function UpgradePrompt({ error }: { error: unknown }) {
  if (!isApiError(error)) return null;
  const upgradePath = upgradePathFor(error);
  if (!upgradePath) return null;
  return (
    <Alert
      color="yellow"
      variant="light"
      title={error.code === 'LIMIT_EXCEEDED' ? 'Plan limit reached' : 'Not included in your plan'}
      icon={<IconLock aria-hidden="true" />}
      data-testid="upgrade-prompt"
    >
      <Stack gap="xs" align="flex-start">
        <Text size="sm">{planRefusalMessage(error)}</Text>
        <Anchor component={Link} to={upgradePath} size="sm" fw={600}>
          {upgradeLinkLabel}
        </Anchor>
      </Stack>
    </Alert>
  );
}
