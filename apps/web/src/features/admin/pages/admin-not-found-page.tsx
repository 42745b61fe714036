import { Anchor, Stack, Text, Title } from '@mantine/core';
import { Link, useLocation } from 'react-router';
import { usePageTitle } from '../../../lib/page-title';

/**
 * An /admin path that names no admin page: said inside the admin layout, its menu still at hand, rather
 * than the app's bare 404 that leaves admin mode behind.
 */
export function AdminNotFoundPage() {
  usePageTitle('Admin Page not found');
  const { pathname } = useLocation();
  return (
    <Stack gap="md" maw={560} data-testid="admin-not-found">
      <Title order={1}>Page not found</Title>
      <Text style={{ overflowWrap: 'anywhere' }}>There is no admin page at {pathname}.</Text>
      <Anchor component={Link} to="/admin">
        Go to the admin dashboard
      </Anchor>
    </Stack>
  );
}
