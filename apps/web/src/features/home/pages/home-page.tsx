import { Button, Group, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { usePageTitle } from '../../../lib/page-title';
import { useAuthStore } from '../../../stores/auth-store';

export function HomePage() {
  usePageTitle('Home');
  const isAuthenticated = useAuthStore((state) => state.isAuthenticated);
  return (
    <Stack gap="lg" maw={720}>
      <Title order={1}>Haversack</Title>
      <Text size="lg">
        The companion for tabletop role-playing groups: characters, party inventories and shops in one place.
      </Text>
      <Group>
        {isAuthenticated ? (
          <Button component={Link} to="/dashboard">
            Go to dashboard
          </Button>
        ) : (
          <>
            <Button component={Link} to="/register">
              Create an account
            </Button>
            <Button component={Link} to="/login" variant="default">
              Sign in
            </Button>
          </>
        )}
      </Group>
    </Stack>
  );
}
