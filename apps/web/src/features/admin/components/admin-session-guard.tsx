import { Button, Card, Center, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { isApiError } from '../../../lib/http-client';
import { adminSessionQueryOptions } from '../api/admin-session-api';

/**
 * spec/01 §2: when the periodic admin session check is refused, an "Admin Session Expired" card replaces
 * the admin page. Only a refusal (401/403) counts: a server that cannot be reached is not an expiry.
 */
export function AdminSessionGuard({ children }: { children: ReactNode }) {
  const session = useQuery(adminSessionQueryOptions());
  const refused = isApiError(session.error) && (session.error.status === 401 || session.error.status === 403);
  if (!refused) return children;
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
