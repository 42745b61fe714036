import type { AdminUserDetail } from '@haversack/contracts';
import { Button, Group, Paper, Stack, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { usePhone } from '../../../lib/use-phone';
import { adminDateTime } from '../lib/format';

type Session = AdminUserDetail['sessions'][number];

/** How many sessions show before Show all: the newest say what staff usually look for. */
const SESSIONS_SHOWN = 10;

/** Why a session ended, in the words staff would use; the codes are the server's (revokeSession callers). */
const endReasonWords: Record<string, string> = {
  logout: 'signed out',
  signed_out_from_another_device: 'signed out from another device',
  password_changed: 'password changed',
  password_reset: 'password reset',
  email_changed: 'email address changed',
  email_change_reverted: 'email change undone',
  suspended: 'account suspended',
  revoked_by_admin: 'signed out by staff',
  refresh_token_reuse: 'a stolen sign-in suspected',
  account_deleted: 'account deleted',
};

/** A reason this list does not know yet still reads as words rather than a code. */
const endReason = (code: string | null) =>
  code ? (endReasonWords[code] ?? code.replaceAll('_', ' ')) : 'ended';

const sessionState = (session: Session) =>
  session.revoked_at ? `Ended: ${endReason(session.revoked_reason)}` : 'Open';

/**
 * An account's sign-ins, newest first, the newest ten until Show all: a table on a desktop; on a phone one
 * card each, since five columns of dates and an address would scroll sideways off a 375 px screen.
 */
export function AdminSessions({ sessions }: { sessions: readonly Session[] }) {
  const phone = usePhone();
  const [showAll, setShowAll] = useState(false);
  if (sessions.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        Never signed in.
      </Text>
    );
  }
  const shown = showAll ? sessions : sessions.slice(0, SESSIONS_SHOWN);
  const more =
    sessions.length > shown.length ? (
      <Button
        variant="subtle"
        size="compact-sm"
        onClick={() => setShowAll(true)}
        style={{ alignSelf: 'flex-start' }}
      >
        Show all {sessions.length}
      </Button>
    ) : null;
  if (phone) {
    return (
      <Stack gap="xs" data-testid="admin-session-cards">
        {shown.map((session) => (
          <Paper key={session.id} withBorder p="xs" data-testid="admin-session">
            <Group justify="space-between" gap="xs" wrap="nowrap">
              <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
                {session.device}
              </Text>
              <Text size="sm" c={session.revoked_at ? 'dimmed' : undefined} ta="right">
                {sessionState(session)}
              </Text>
            </Group>
            <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
              {session.ip_address ?? 'Unknown address'}
            </Text>
            <Text size="xs" c="dimmed">
              Started {adminDateTime(session.created_at)} · last used {adminDateTime(session.last_used_at)}
            </Text>
          </Paper>
        ))}
        {more}
      </Stack>
    );
  }
  return (
    <Stack gap="xs">
      <Table.ScrollContainer minWidth={680}>
        <Table>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Device</Table.Th>
              <Table.Th>Started</Table.Th>
              <Table.Th>Last used</Table.Th>
              <Table.Th>Address</Table.Th>
              <Table.Th>State</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {shown.map((session) => (
              <Table.Tr key={session.id} data-testid="admin-session">
                {/* The raw user agent stays at hand for staff tracing a sign-in. */}
                <Table.Td title={session.user_agent ?? undefined}>{session.device}</Table.Td>
                <Table.Td>{adminDateTime(session.created_at)}</Table.Td>
                <Table.Td>{adminDateTime(session.last_used_at)}</Table.Td>
                <Table.Td>{session.ip_address ?? '—'}</Table.Td>
                <Table.Td>{sessionState(session)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {more}
    </Stack>
  );
}
