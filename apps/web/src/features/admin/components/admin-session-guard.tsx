import { Button, Card, Center, Loader, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link, Navigate } from 'react-router';
import { ErrorPanel } from '../../../components/error-panel';
import { isApiError } from '../../../lib/http-client';
import { failedWithNothingToShow } from '../../../lib/load-failed';
import { adminEntryQueryOptions, adminSessionQueryOptions } from '../api/admin-session-api';
import { adminSessionStore, useAdminSessionExpired } from '../api/admin-session-store';

/** spec/01 §2: "An admin page that is loading shows a loading message for the admin panel." */
export const adminLoadingLabel = 'Loading admin panel...';

export function AdminPanelLoader() {
  return (
    <Center py="xl">
      <Stack align="center" gap="sm" role="status" aria-live="polite">
        <Loader aria-hidden="true" />
        <Text>{adminLoadingLabel}</Text>
      </Stack>
    </Center>
  );
}

/**
 * DESIGN §10: entering /admin starts (or, after a reload, resumes) an admin session; the admin pages show
 * once it exists. Then spec/01 §4: the session is verified every 5 minutes, and when the check (or any
 * admin call) is refused as expired, the "Admin Session Expired" card replaces the page.
 */
export function AdminSessionGuard({ children }: { children: ReactNode }) {
  const entry = useQuery(adminEntryQueryOptions());
  if (entry.isPending) return <AdminPanelLoader />;
  // The admin flag was taken away since the page loaded: back to the dashboard, as the route guard does.
  if (entry.isError && isApiError(entry.error) && entry.error.status === 403) {
    return <Navigate to="/dashboard" replace />;
  }
  // Admin mode that could not start ends here; a later re-entry that failed otherwise (a dropped connection)
  // leaves the admin on the page they are reading, whose own queries say what they could not refresh.
  if (failedWithNothingToShow(entry)) {
    return (
      <ErrorPanel
        title="Admin mode could not start"
        message={entry.error.message}
        onRetry={() => void entry.refetch()}
      />
    );
  }
  return <SessionCheck>{children}</SessionCheck>;
}

function SessionCheck({ children }: { children: ReactNode }) {
  const session = useQuery(adminSessionQueryOptions(adminSessionStore.getToken()));
  const expiredElsewhere = useAdminSessionExpired();
  // Only a refusal counts: a server that cannot be reached is not an expiry.
  const refused = isApiError(session.error) && (session.error.status === 401 || session.error.status === 403);
  if (!refused && !expiredElsewhere) return children;
  return <AdminSessionExpiredCard />;
}

export function AdminSessionExpiredCard() {
  return (
    <Center py="xl">
      <Card withBorder padding="xl" maw={440} data-testid="admin-session-expired">
        <Stack gap="md" align="flex-start">
          <Title order={1} size="h3">
            Admin Session Expired
          </Title>
          <Text>
            Your admin session is no longer valid. Return to the dashboard and open the admin area again.
          </Text>
          <Button component={Link} to="/dashboard">
            Return to Dashboard
          </Button>
        </Stack>
      </Card>
    </Center>
  );
}
