import { type FeatureKey, featureNames, type UsageResource } from '@haversack/contracts';
import { Alert, Anchor, Stack, Text } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { Link } from 'react-router';
import { isApiError } from '../lib/http-client';
import { currentPlace, planRefusalMessage, upgradeLinkLabel, upgradePathFor } from '../lib/upgrade-link';

/**
 * The yellow plan notice every prompt below draws: what the plan refuses, and the way to the upgrade page.
 * `role`: "alert" after a refusal, "status" for a notice said up front with the page.
 */
function PlanPrompt({
  title,
  message,
  upgradePath,
  role,
}: {
  title: string;
  message: string;
  upgradePath: string;
  role?: 'status';
}) {
  return (
    <Alert
      color="yellow"
      variant="light"
      title={title}
      icon={<IconLock aria-hidden="true" />}
      role={role}
      data-testid="upgrade-prompt"
    >
      <Stack gap="xs" align="flex-start">
        <Text size="sm">{message}</Text>
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
 * Inline explanation of a plan refusal (LIMIT_EXCEEDED / FEATURE_NOT_AVAILABLE) with the way to lift it.
 * Renders nothing for any other error, so a form can pass whatever its mutation failed with.
 */
export function UpgradePrompt({ error }: { error: unknown }) {
  if (!isApiError(error)) return null;
  const upgradePath = upgradePathFor(error, currentPlace());
  if (!upgradePath) return null;
  return (
    <PlanPrompt
      title={error.code === 'LIMIT_EXCEEDED' ? 'Plan limit reached' : 'Not included in your plan'}
      message={planRefusalMessage(error)}
      upgradePath={upgradePath}
    />
  );
}

/**
 * The same prompt shown before anything fails: a feature the user's plan lacks where they are, said up
 * front (what they can still do, and the way to the upgrade page for that feature).
 */
export function FeatureUpgradePrompt({ feature, children }: { feature: FeatureKey; children: string }) {
  return (
    <PlanPrompt
      title={`${featureNames[feature]} is not included in your plan`}
      message={children}
      upgradePath={`/subscription/upgrade?${new URLSearchParams({ feature })}`}
      // Said up front, with the page: a standing notice, not an alert (UpgradePrompt, after a refusal, is one).
      role="status"
    />
  );
}

/** A limit used up, said up front in the server's words (`check_limit`'s message), before a form is filled. */
export function LimitUpgradePrompt({ resource, children }: { resource: UsageResource; children: string }) {
  return (
    <PlanPrompt
      title="Plan limit reached"
      message={children}
      upgradePath={`/subscription/upgrade?${new URLSearchParams({ resource })}`}
      role="status"
    />
  );
}
