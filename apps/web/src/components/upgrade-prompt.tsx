import { type FeatureKey, featureLabels } from '@haversack/contracts';
import { Alert, Anchor, Stack, Text } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { Link } from 'react-router';
import { isApiError } from '../lib/http-client';
import { currentPlace, planRefusalMessage, upgradeLinkLabel, upgradePathFor } from '../lib/upgrade-link';

/**
 * Inline explanation of a plan refusal (LIMIT_EXCEEDED / FEATURE_NOT_AVAILABLE) with the way to lift it.
 * Renders nothing for any other error, so a form can pass whatever its mutation failed with.
 */
export function UpgradePrompt({ error }: { error: unknown }) {
  if (!isApiError(error)) return null;
  const upgradePath = upgradePathFor(error, currentPlace());
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
        {/* The alert's own text colour: the theme's link violet is unreadable on the dark yellow alert. */}
        <Anchor
          component={Link}
          to={upgradePath}
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

/**
 * The same prompt shown before anything fails: a feature the user's plan lacks where they are, said up
 * front (what they can still do, and the way to the upgrade page for that feature).
 */
export function FeatureUpgradePrompt({ feature, children }: { feature: FeatureKey; children: string }) {
  return (
    <Alert
      color="yellow"
      variant="light"
      title={`${featureLabels[feature]} is not included in your plan`}
      icon={<IconLock aria-hidden="true" />}
      // Said up front, with the page: a standing notice, not an alert (UpgradePrompt, after a refusal, is one).
      role="status"
      data-testid="upgrade-prompt"
    >
      <Stack gap="xs" align="flex-start">
        <Text size="sm">{children}</Text>
        <Anchor
          component={Link}
          to={`/subscription/upgrade?${new URLSearchParams({ feature })}`}
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
