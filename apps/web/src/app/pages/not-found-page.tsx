import { Anchor, Center, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { usePageTitle } from '../../lib/page-title';
import { useAuthStore } from '../../stores/auth-store';

/** spec/01 §2: unknown paths show a not-found page. */
export function NotFoundPage() {
  usePageTitle('Page not found');
  const isAuthenticated = useAuthStore((state) => state.isAuthenticated);
  return (
    <Center component="main" mih="100vh" p="md">
      <Stack align="center" gap="md" maw={480} ta="center" data-testid="not-found">
        <Text fw={700} fz={48} c="dimmed" aria-hidden="true">
          404
        </Text>
        <Title order={1}>Page not found</Title>
        <Text>The page you are looking for does not exist or has moved.</Text>
        <Anchor component={Link} to={isAuthenticated ? '/dashboard' : '/login'}>
          {isAuthenticated ? 'Go to dashboard' : 'Go to sign in'}
        </Anchor>
      </Stack>
    </Center>
  );
}
