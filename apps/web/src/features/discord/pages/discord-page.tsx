import type { AuthProviders } from '@haversack/contracts';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Code,
  Group,
  List,
  Paper,
  Skeleton,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { Link } from 'react-router';
import { RefreshFailedNote } from '../../../components/refresh-failed-note';
import { failedWithNothingToShow } from '../../../lib/load-failed';
import { usePageTitle } from '../../../lib/page-title';
import { useAuthStore } from '../../../stores/auth-store';
import {
  authProvidersQueryOptions,
  discordFailureMessage,
  discordLinkQueryOptions,
  startDiscord,
} from '../api/discord-api';
import { DiscordLinkLoadFailed } from '../components/discord-link-load-failed';

const commands = [
  {
    usage: '/bind party:<join code or name>',
    who: 'GM',
    what: 'Binds the channel to a party you run (needs Manage Channels in that server).',
  },
  { usage: '/unbind', who: 'GM', what: 'Unbinds the channel from its party.' },
  { usage: '/inventory', who: 'Members', what: "Your characters' items, as a message only you see." },
  {
    usage: '/give item quantity character [from]',
    who: 'Players',
    what: "Gives an item of your character to another character of the party, with the web app's rules. Without from, the first of your other characters holding enough gives it.",
  },
  { usage: '/loot', who: 'Members', what: "The party's revealed loot (hidden loot never shows)." },
] as const;

function Supported({ on, label }: { on: boolean; label: string }) {
  return (
    <Group gap="xs" wrap="nowrap">
      <Badge color={on ? 'teal' : 'gray'} variant="light" miw={110}>
        {on ? 'Available' : 'Not set up'}
      </Badge>
      <Text size="sm">{label}</Text>
    </Group>
  );
}

function ServerSupport() {
  const providers = useQuery(authProvidersQueryOptions());
  if (providers.isPending) return <Skeleton height={56} aria-label="Loading what this server supports" />;
  if (failedWithNothingToShow(providers)) {
    return (
      <Group gap="sm">
        <Text size="sm" c="red">
          Could not check what this server supports.
        </Text>
        <Button size="xs" variant="default" onClick={() => void providers.refetch()}>
          Try again
        </Button>
      </Group>
    );
  }
  const { discord } = providers.data;
  return (
    <Stack gap="xs" data-testid="discord-support">
      <RefreshFailedNote query={providers} />
      <Supported on={discord.sign_in} label="Sign in and link accounts with Discord" />
      <Supported on={discord.interactions} label="Slash commands in your Discord server" />
      {!discord.sign_in || !discord.interactions ? (
        <Text size="sm" c="dimmed">
          Whoever runs this Haversack server turns these on with the Discord settings described in its README.
        </Text>
      ) : null}
    </Stack>
  );
}

function InviteStep({ discord }: { discord: AuthProviders['discord'] | undefined }) {
  return (
    <Stack gap={6}>
      <Text>Add the Haversack app to your Discord server (you need the Manage Server permission there).</Text>
      {discord?.invite_url ? (
        <Group>
          <Button component="a" href={discord.invite_url} target="_blank" rel="noreferrer" variant="default">
            Add Haversack to a Discord server
          </Button>
        </Group>
      ) : (
        <Text size="sm" c="dimmed">
          This server has no Discord application set up yet, so there is nothing to add.
        </Text>
      )}
    </Stack>
  );
}

function LinkStep({ signInEnabled }: { signInEnabled: boolean }) {
  const signedIn = useAuthStore((state) => state.isAuthenticated);
  const link = useQuery({ ...discordLinkQueryOptions(), enabled: signedIn });
  const [starting, setStarting] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const start = async () => {
    setError(null);
    setStarting(true);
    try {
      await startDiscord('link');
    } catch (failure) {
      setError(discordFailureMessage(failure, 'Linking Discord could not start. Please try again.'));
      setStarting(false);
    }
  };

  let action: ReactNode = null;
  if (!signInEnabled) {
    action = (
      <Text size="sm" c="dimmed">
        Linking needs Discord sign-in, which is not set up on this server.
      </Text>
    );
  } else if (!signedIn) {
    action = (
      <Text size="sm">
        <Anchor component={Link} to="/login?redirect=%2Fdiscord">
          Sign in
        </Anchor>{' '}
        first, or sign in with Discord straight away: that links it.
      </Text>
    );
  } else if (link.isPending) {
    action = <Skeleton height={36} width={160} aria-label="Loading your Discord link" />;
  } else if (failedWithNothingToShow(link)) {
    action = <DiscordLinkLoadFailed onRetry={() => void link.refetch()} />;
  } else if (link.data.account) {
    action = (
      <Text size="sm" data-testid="discord-page-linked">
        You are linked as <strong>{link.data.account.username}</strong>.
      </Text>
    );
  } else {
    action = (
      <Group>
        <Button onClick={start} loading={starting} data-testid="discord-page-link">
          Link Discord
        </Button>
      </Group>
    );
  }

  return (
    <Stack gap={6}>
      <Text>
        Link your Haversack account to Discord, and ask each player to do the same from their profile: the
        commands act as the linked Haversack account.
      </Text>
      {error ? (
        <Alert color="red" variant="light" role="alert">
          {error}
        </Alert>
      ) : null}
      <RefreshFailedNote query={link} />
      {action}
    </Stack>
  );
}

/** Issue 16 §4: what the Discord integration does and how a GM sets it up, with what this server supports. */
export function DiscordPage() {
  usePageTitle('Discord');
  const providers = useQuery(authProvidersQueryOptions());
  const discord = providers.data?.discord;
  return (
    <Stack gap="lg" maw={760}>
      <Stack gap={4}>
        <Title order={1}>Haversack on Discord</Title>
        <Text>
          Your table lives on Discord; your gear can too. Sign in with Discord, check your inventory, hand
          items to other characters and see the party&apos;s loot with slash commands, without leaving the
          channel. Every change made from Discord lands in the party&apos;s ledger marked as coming from
          Discord, and the party sees it live.
        </Text>
      </Stack>

      <Paper withBorder p="lg" component="section" aria-labelledby="discord-support-heading">
        <Stack gap="sm">
          <Title order={2} size="h4" id="discord-support-heading">
            On this server
          </Title>
          <ServerSupport />
        </Stack>
      </Paper>

      <Paper withBorder p="lg" component="section" aria-labelledby="discord-setup-heading">
        <Stack gap="sm">
          <Title order={2} size="h4" id="discord-setup-heading">
            Set it up for your party (GM)
          </Title>
          <List type="ordered" spacing="md">
            <List.Item>
              <InviteStep discord={discord} />
            </List.Item>
            <List.Item>
              <LinkStep signInEnabled={discord?.sign_in === true} />
            </List.Item>
            <List.Item>
              <Text>
                In the channel where your table plays, run <Code>/bind party:&lt;join code or name&gt;</Code>.
                Only the party&apos;s GM can bind it, with the Manage Channels permission in that server; the
                join code is on your{' '}
                <Anchor component={Link} to="/parties">
                  party&apos;s page
                </Anchor>
                .
              </Text>
            </List.Item>
            <List.Item>
              <Text>That&apos;s it: members who linked Discord can now use the commands below there.</Text>
            </List.Item>
          </List>
        </Stack>
      </Paper>

      <Paper withBorder p="lg" component="section" aria-labelledby="discord-commands-heading">
        <Stack gap="sm">
          <Title order={2} size="h4" id="discord-commands-heading">
            Commands
          </Title>
          {/* A list rather than a table: it reads the same on a phone, with nothing to scroll sideways. */}
          <Stack gap="sm" component="dl" m={0}>
            {commands.map((command) => (
              <Stack gap={2} key={command.usage}>
                <Text component="dt" fw={600} style={{ overflowWrap: 'anywhere' }}>
                  <Code>{command.usage}</Code>
                </Text>
                <Text component="dd" m={0} size="sm">
                  <Badge variant="outline" size="sm" mr={6}>
                    {command.who}
                  </Badge>
                  {command.what}
                </Text>
              </Stack>
            ))}
          </Stack>
          <Text size="sm" c="dimmed">
            Answers about your own inventory and every refusal are shown only to you; a give is announced to
            the channel.
          </Text>
        </Stack>
      </Paper>

      {discord ? (
        <Paper withBorder p="lg" component="section" aria-labelledby="discord-admin-heading">
          <Stack gap="xs">
            <Title order={2} size="h4" id="discord-admin-heading">
              For whoever runs this server
            </Title>
            <Text size="sm">
              In Discord&apos;s developer portal, set the Interactions Endpoint URL to{' '}
              <Code style={{ overflowWrap: 'anywhere' }}>{discord.interactions_url}</Code> and the OAuth2
              redirect to this site&apos;s <Code>/auth/discord/callback</Code>, then register the commands
              with <Code>npm run discord:register -w apps/server</Code> (or, on a built install, even one
              without dev dependencies,{' '}
              <Code style={{ overflowWrap: 'anywhere' }}>node apps/server/dist/cli/discord-register.js</Code>
              ), with <Code>DISCORD_CLIENT_ID</Code> and <Code>DISCORD_BOT_TOKEN</Code> set.
            </Text>
          </Stack>
        </Paper>
      ) : null}
    </Stack>
  );
}
