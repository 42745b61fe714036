import { Anchor, Button, Group, Stack, Text, Title } from '@mantine/core';
import { isRouteErrorResponse, Link, useRouteError } from 'react-router';
import { navigateInApp } from '../lib/app-navigation';

/**
 * spec/01 §2: a page that fails to load (a chunk that cannot be fetched, a render error) shows a panel naming
 * the page, advising a refresh and contacting support. Used as the route's error element, so the layout
 * around it stays usable. "Try again" asks for the same address again, without reloading the tab: React
 * Router runs the route's loader again, which imports a page whose code could not be downloaded (`lazyPage`).
 */
export function PageError({ pageName }: { pageName: string }) {
  const error = useRouteError();
  if (error) console.error(`The ${pageName} page failed`, error);
  const detail = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : null;
  return (
    <Stack gap="md" maw={640} data-testid="page-error" role="alert">
      <Title order={1}>The {pageName} page could not be loaded</Title>
      <Text>
        Please refresh the page to try again. If the problem continues, contact support and tell them which
        page failed.
      </Text>
      {detail ? (
        <Text size="sm" c="dimmed">
          Details: {detail}
        </Text>
      ) : null}
      <Group>
        <Button onClick={() => navigateInApp(window.location.href.slice(window.location.origin.length))}>
          Try again
        </Button>
        <Button variant="default" onClick={() => window.location.reload()}>
          Refresh page
        </Button>
        <Anchor component={Link} to="/dashboard">
          Go to dashboard
        </Anchor>
      </Group>
    </Stack>
  );
}
