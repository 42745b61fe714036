import { Alert, Button, Divider, Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { authProvidersQueryOptions, discordFailureMessage } from '../api/discord-sign-in';

/**
 * Issue 16 §1: "Continue with Discord" on /login and /register, only when this server is configured for
 * it (while the answer is loading or failed, nothing shows: the email form works on its own).
 */
export function ContinueWithDiscord() {
  const providers = useQuery(authProvidersQueryOptions());
  const [starting, setStarting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (!providers.data?.discord.sign_in) return null;

  const start = async () => {
    setError(null);
    setStarting(true);
    try {
      // The rest of the Discord client loads with the click: /login does not carry it (issue 13 §1).
      const { startDiscord } = await import('../api/discord-api');
      await startDiscord('login');
    } catch (failure) {
      setError(discordFailureMessage(failure, 'Discord sign-in could not start. Please try again.'));
      setStarting(false);
    }
  };

  return (
    <Stack gap="sm">
      <Divider label="or" labelPosition="center" />
      {error ? (
        <Alert color="red" variant="light" role="alert">
          {error}
        </Alert>
      ) : null}
      <Button
        variant="default"
        fullWidth
        loading={starting}
        onClick={start}
        data-testid="continue-with-discord"
      >
        Continue with Discord
      </Button>
    </Stack>
  );
}
