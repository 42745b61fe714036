import { discordMessages } from '@haversack/contracts';
import { Alert, Anchor, Button, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { Link } from 'react-router';
import { RefreshFailedNote } from '../../../components/refresh-failed-note';
import { formatWhen } from '../../../lib/format';
import { failedWithNothingToShow, refreshFailed } from '../../../lib/load-failed';
import { toast } from '../../../lib/toast';
import {
  authProvidersQueryOptions,
  discordFailureMessage,
  discordLinkQueryOptions,
  startDiscord,
  useUnlinkDiscord,
} from '../api/discord-api';
import { DiscordLinkLoadFailed } from './discord-link-load-failed';

/** Issue 16 §1: the profile's Discord section: who is linked, Link and Unlink. */
export function DiscordLinkSection() {
  const providers = useQuery(authProvidersQueryOptions());
  const link = useQuery(discordLinkQueryOptions());
  const unlink = useUnlinkDiscord();
  const [starting, setStarting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const signInEnabled = providers.data?.discord.sign_in === true;

  const startLink = async () => {
    setError(null);
    setStarting(true);
    try {
      await startDiscord('link');
    } catch (failure) {
      setError(discordFailureMessage(failure, 'Linking Discord could not start. Please try again.'));
      setStarting(false);
    }
  };

  const doUnlink = () => {
    setError(null);
    unlink.mutate(undefined, {
      onSuccess: () => toast.success(discordMessages.unlinked),
      onError: (failure) =>
        setError(discordFailureMessage(failure, 'Unlinking Discord failed. Please try again.')),
    });
  };

  let body: ReactNode;
  if (link.isPending || providers.isPending) {
    body = <Skeleton height={36} aria-label="Loading your Discord link" />;
  } else if (failedWithNothingToShow(link)) {
    body = <DiscordLinkLoadFailed onRetry={() => void link.refetch()} />;
  } else if (link.data.account) {
    const account = link.data.account;
    body = (
      <Stack gap="sm">
        <Text size="sm" data-testid="discord-linked">
          Linked to <strong>{account.username}</strong> since {formatWhen(account.linked_at, 'date')}. You can
          sign in with Discord and use Haversack&apos;s slash commands.
        </Text>
        {link.data.has_password ? null : (
          <Text size="sm" c="dimmed">
            Your account has no password yet, so Discord is your only way to sign in. Set one with{' '}
            <Anchor component={Link} to="/forgot-password">
              Forgot password
            </Anchor>{' '}
            before unlinking.
          </Text>
        )}
        <Group>
          <Button
            variant="light"
            color="red"
            onClick={doUnlink}
            loading={unlink.isPending}
            data-testid="discord-unlink"
          >
            Unlink Discord
          </Button>
        </Group>
      </Stack>
    );
  } else if (failedWithNothingToShow(providers)) {
    body = (
      <Group gap="sm">
        <Text size="sm" c="red">
          Could not check whether Discord is set up on this server.
        </Text>
        <Button size="xs" variant="default" onClick={() => void providers.refetch()}>
          Try again
        </Button>
      </Group>
    );
  } else if (!signInEnabled) {
    body = (
      <Text size="sm" c="dimmed">
        Discord is not set up on this server.{' '}
        <Anchor component={Link} to="/discord">
          How Discord works with Haversack
        </Anchor>
      </Text>
    );
  } else {
    body = (
      <Stack gap="sm">
        <Text size="sm">
          Not linked. Link Discord to sign in with it and to use /inventory, /give and /loot in your
          party&apos;s channel.
        </Text>
        <Group>
          <Button onClick={startLink} loading={starting} data-testid="discord-link">
            Link Discord
          </Button>
        </Group>
      </Stack>
    );
  }

  return (
    <Paper
      withBorder
      p="lg"
      component="section"
      aria-labelledby="discord-heading"
      data-testid="discord-section"
    >
      <Stack gap="sm">
        <Title order={2} size="h4" id="discord-heading">
          Discord
        </Title>
        {error ? (
          <Alert color="red" variant="light" role="alert" data-testid="discord-error">
            {error}
          </Alert>
        ) : null}
        <RefreshFailedNote query={link} />
        {/* What the server offers matters only to someone not linked yet (Link Discord, or why not). */}
        {link.data?.account || refreshFailed(link) ? null : <RefreshFailedNote query={providers} />}
        {body}
      </Stack>
    </Paper>
  );
}
