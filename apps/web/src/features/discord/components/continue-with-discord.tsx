import type { AuthProviders } from '@haversack/contracts';
import { Alert, Button, Divider, Stack } from '@mantine/core';
import { QueryClientContext } from '@tanstack/react-query';
import { use, useEffect, useState } from 'react';
import { isApiError } from '../../../lib/http-client';
import {
  authProvidersQueryOptions,
  discordFailureMessage,
  discordKeys,
  fetchAuthProviders,
} from '../api/discord-sign-in';

/**
 * The providers answer. Through the query cache once TanStack Query's client is in (it is not on /login's
 * first load: issue 13 §1); before that asked directly, with the same one retry for a network or server
 * failure (spec/01 §9).
 */
function useAuthProviders(): AuthProviders | undefined {
  const client = use(QueryClientContext);
  const [providers, setProviders] = useState(() =>
    client?.getQueryData<AuthProviders>(discordKeys.providers),
  );
  useEffect(() => {
    let live = true;
    const retryable = (error: unknown) => !(isApiError(error) && error.status >= 400 && error.status < 500);
    const request = client
      ? client.fetchQuery(authProvidersQueryOptions())
      : fetchAuthProviders().catch((error: unknown) => {
          if (!retryable(error)) throw error;
          // TanStack Query's first retry comes after a second, too.
          return new Promise((resolve) => setTimeout(resolve, 1000)).then(fetchAuthProviders);
        });
    // While the answer is loading or failed, nothing shows: the email form works on its own.
    request.then((answer) => live && setProviders(answer)).catch(() => undefined);
    return () => {
      live = false;
    };
  }, [client]);
  return providers;
}

/**
 * Issue 16 §1: "Continue with Discord" on /login and /register, only when this server is configured for
 * it (while the answer is loading or failed, nothing shows: the email form works on its own). `redirect` is
 * the page's ?redirect=, which comes back after Discord as it does after an email sign-in (startDiscord keeps
 * only a page of this site).
 */
export function ContinueWithDiscord({ redirect }: { redirect?: string | null }) {
  const providers = useAuthProviders();
  const [starting, setStarting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (!providers?.discord.sign_in) return null;

  const start = async () => {
    setError(null);
    setStarting(true);
    try {
      // The rest of the Discord client loads with the click: /login does not carry it (issue 13 §1).
      const { startDiscord } = await import('../api/discord-api');
      await startDiscord('login', redirect);
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
