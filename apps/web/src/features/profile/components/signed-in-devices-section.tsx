import { type SignedInSession, signedInSessionMessages } from '@haversack/contracts';
import { Anchor, Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconDeviceDesktop, IconDeviceMobile } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { ErrorPanel } from '../../../components/error-panel';
import { TextSkeleton } from '../../../components/loading';
import { RefreshFailedNote } from '../../../components/refresh-failed-note';
import { failedWithNothingToShow } from '../../../lib/load-failed';
import { toast } from '../../../lib/toast';
import { absoluteTime, relativeTimeInSentence } from '../../activity/lib/relative-time';
import {
  mySignedInSessionsQuery,
  useSignOutDevice,
  useSignOutOtherDevices,
} from '../api/signed-in-sessions-api';
import { API_TOKENS_SECTION_ID } from './api-tokens-section';

/** "2h ago", "just now": inside a sentence, so never capitalised. */
const lastActive = (session: SignedInSession) => relativeTimeInSentence(session.last_used_at);

/** Phones and tablets by what their browser said; the rest are shown as computers. */
const looksMobile = (session: SignedInSession) =>
  /Android|iPhone|iPad|iOS|Mobile/i.test(`${session.device} ${session.user_agent ?? ''}`);

/**
 * The profile's signed-in devices: where the account is signed in, and a way to sign a lost phone or a
 * friend's laptop out from here (their tokens stop working and their live updates close at once).
 */
export function SignedInDevicesSection() {
  const sessions = useQuery(mySignedInSessionsQuery());
  const signOut = useSignOutDevice();
  const signOutOthers = useSignOutOtherDevices();
  const [confirmingOthers, setConfirmingOthers] = useState(false);
  const others = sessions.data?.filter((session) => !session.current) ?? [];
  // The pressed Sign out goes with its row: the focus goes to the list's heading, not to <body>.
  const heading = useRef<HTMLHeadingElement>(null);

  const signOutOne = (session: SignedInSession) =>
    signOut.mutate(session.id, {
      onSuccess: () => {
        heading.current?.focus();
        toast.success(signedInSessionMessages.signedOut(session.device));
      },
    });

  const confirmOthers = () =>
    signOutOthers.mutate(undefined, {
      onSuccess: (result) => {
        toast.success(result.message);
        setConfirmingOthers(false);
      },
    });

  return (
    <Paper
      withBorder
      p="lg"
      component="section"
      aria-labelledby="signed-in-devices-heading"
      data-testid="signed-in-devices"
    >
      <Stack gap="md">
        <Group justify="space-between" align="flex-start" gap="sm">
          <Stack gap={4} style={{ flex: '1 1 260px' }}>
            <Title order={2} size="h4" id="signed-in-devices-heading" ref={heading} tabIndex={-1}>
              Signed-in devices
            </Title>
            <Text size="sm" c="dimmed">
              Where your account is signed in. Sign out a device you no longer use, or one you left signed in
              at someone else’s table. Changing your password signs out every other device too.
            </Text>
            <Text size="sm" c="dimmed" data-testid="signed-in-devices-api-tokens">
              Signing out does not revoke your API tokens: they keep working until you revoke them under{' '}
              <Anchor href={`#${API_TOKENS_SECTION_ID}`}>API tokens</Anchor>.
            </Text>
          </Stack>
          {others.length > 0 ? (
            <Button variant="light" color="red.9" onClick={() => setConfirmingOthers(true)}>
              Sign out all other devices
            </Button>
          ) : null}
        </Group>
        <RefreshFailedNote query={sessions} />
        {sessions.isPending ? (
          <TextSkeleton lines={3} />
        ) : failedWithNothingToShow(sessions) ? (
          <ErrorPanel
            title="Could not load your signed-in devices"
            message="Please try again."
            onRetry={() => void sessions.refetch()}
          />
        ) : (
          <Stack gap="sm" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {sessions.data.map((session) => (
              <DeviceRow
                key={session.id}
                session={session}
                signingOut={signOut.isPending && signOut.variables === session.id}
                onSignOut={() => signOutOne(session)}
              />
            ))}
            {others.length === 0 ? (
              <Text component="li" size="sm" c="dimmed" data-testid="signed-in-devices-only-this">
                No other device is signed in.
              </Text>
            ) : null}
          </Stack>
        )}
      </Stack>
      <ConfirmDialog
        opened={confirmingOthers}
        title="Sign out all other devices?"
        message={`${others.length === 1 ? '1 other device' : `${others.length} other devices`} will be signed out at once and must sign in again. This device stays signed in. ${signedInSessionMessages.apiTokensKeepWorking}`}
        confirmLabel="Sign out"
        onConfirm={confirmOthers}
        onClose={() => setConfirmingOthers(false)}
        loading={signOutOthers.isPending}
      />
    </Paper>
  );
}

function DeviceRow({
  session,
  signingOut,
  onSignOut,
}: {
  session: SignedInSession;
  signingOut: boolean;
  onSignOut: () => void;
}) {
  const Icon = looksMobile(session) ? IconDeviceMobile : IconDeviceDesktop;
  return (
    <Paper component="li" withBorder p="sm" data-testid="signed-in-device">
      <Group justify="space-between" align="flex-start" gap="sm" wrap="wrap">
        <Group gap="sm" align="flex-start" wrap="nowrap" style={{ minWidth: 0, flex: '1 1 220px' }}>
          <Icon size={22} aria-hidden="true" style={{ flexShrink: 0, marginTop: 2 }} />
          <Stack gap={4} style={{ minWidth: 0 }}>
            <Group gap="xs">
              <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
                {session.device}
              </Text>
              {session.current ? (
                <Badge variant="light" size="sm" color="teal">
                  This device
                </Badge>
              ) : null}
            </Group>
            <Text size="sm" c="dimmed">
              {session.current ? 'Active now' : `Last active ${lastActive(session)}`} · Signed in{' '}
              {absoluteTime(session.created_at)}
            </Text>
            {session.ip_address ? (
              <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                Address {session.ip_address}
              </Text>
            ) : null}
          </Stack>
        </Group>
        {session.current ? null : (
          <Button
            size="compact-sm"
            variant="light"
            color="red.9"
            onClick={onSignOut}
            loading={signingOut}
            aria-label={`Sign out ${session.device}, last active ${lastActive(session)}`}
          >
            Sign out
          </Button>
        )}
      </Group>
    </Paper>
  );
}
