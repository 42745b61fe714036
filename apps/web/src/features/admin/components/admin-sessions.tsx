import type { AdminUserDetail } from '@haversack/contracts';
import { Group, Paper, Stack, Table, Text } from '@mantine/core';
import { usePhone } from '../../../lib/use-phone';
import { adminDateTime } from '../lib/format';

type Session = AdminUserDetail['sessions'][number];

const sessionState = (session: Session) =>
  session.revoked_at ? `Ended (${session.revoked_reason ?? 'ended'})` : 'Open';

/**
 * An account's sign-ins: a table on a desktop; on a phone one card each, since four columns of dates and an
 * address would scroll sideways off a 375 px screen.
 */
export function AdminSessions({ sessions }: { sessions: readonly Session[] }) {
  const phone = usePhone();
  if (sessions.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        Never signed in.
      </Text>
    );
  }
  if (phone) {
    return (
      <Stack gap="xs" data-testid="admin-session-cards">
        {sessions.map((session) => (
          <Paper key={session.id} withBorder p="xs" data-testid="admin-session">
            <Group justify="space-between" gap="xs" wrap="nowrap">
              <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
                {session.ip_address ?? 'Unknown address'}
              </Text>
              <Text size="sm" c={session.revoked_at ? 'dimmed' : undefined}>
                {sessionState(session)}
              </Text>
            </Group>
            <Text size="xs" c="dimmed">
              Started {adminDateTime(session.created_at)} · last used {adminDateTime(session.last_used_at)}
            </Text>
          </Paper>
        ))}
      </Stack>
    );
  }
  return (
    <Table.ScrollContainer minWidth={560}>
      <Table>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Started</Table.Th>
            <Table.Th>Last used</Table.Th>
            <Table.Th>Address</Table.Th>
            <Table.Th>State</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {sessions.map((session) => (
            <Table.Tr key={session.id} data-testid="admin-session">
              <Table.Td>{adminDateTime(session.created_at)}</Table.Td>
              <Table.Td>{adminDateTime(session.last_used_at)}</Table.Td>
              <Table.Td>{session.ip_address ?? '—'}</Table.Td>
              <Table.Td>{sessionState(session)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
