import { Anchor, Button, Group, Stack, Text, Title } from '@mantine/core';
import { Link, useMatches, useRouteError } from 'react-router';
import { navigateInApp } from '../lib/app-navigation';

/**
 * spec/01 §2: a page that fails to load (a chunk that cannot be fetched, a render error) shows a panel naming
 * the page, advising a refresh and contacting support. Used as the route's error element, so the layout
 * around it stays usable. "Try again" asks for the same address again, without reloading the tab: React
 * Router runs the route's loader again, which imports a page whose code could not be downloaded (`lazyPage`),
 * and draws a page that threw afresh. It replaces the full reload the panel offered: a file gone with a
 * release makes the import fail with the server answering, and that reloads the tab (reload-on-stale-code).
 * A layout that failed names the page asked for below it (the `handle` lazyPage gives each page), else its own.
 */
export function PageError({ pageName: fallback }: { pageName: string }) {
  const error = useRouteError();
  const asked = useMatches().at(-1)?.handle;
  const pageName = typeof asked === 'string' ? asked : fallback;
  if (error) console.error(`The ${pageName} page failed`, error);
  // What reaches a page's panel is thrown: a download that failed, a render error. Answers such as a 404
  // (no route matched) go to the root's error page, and no page submits to a route's action.
  const detail = error instanceof Error ? error.message : null;
  return (
    <Stack gap="md" maw={640} p="md" data-testid="page-error" role="alert">
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
        <Anchor component={Link} to="/dashboard">
          Go to dashboard
        </Anchor>
      </Group>
    </Stack>
  );
}
