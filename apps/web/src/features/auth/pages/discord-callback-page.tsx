import { Anchor, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { usePageTitle } from '../../../lib/page-title';

/** spec/01 §2: the chat-platform sign-in callback; its behaviour is not specified, so it says so. */
export function DiscordCallbackPage() {
  usePageTitle('Discord sign-in');
  return (
    <Stack gap="md" data-testid="not-available">
      <Title order={1} size="h2">
        Discord sign-in
      </Title>
      <Text>Signing in with Discord is not available yet — this part of Haversack is still being built.</Text>
      <Anchor component={Link} to="/login">
        Sign in with your email instead
      </Anchor>
    </Stack>
  );
}
