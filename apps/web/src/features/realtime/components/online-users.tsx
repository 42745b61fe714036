import { Avatar, Group, Text, Tooltip } from '@mantine/core';
import type { OnlineUser } from '../party-events';

const SHOWN = 5;

/** Two letters for a username: the first letters of its first two words, else its first two letters. */
export function initialsOf(username: string): string {
  const [first = '', second = ''] = username.split(/[\s_.-]+/).filter(Boolean);
  const letters = /^[a-z]/i.test(second) ? `${first.charAt(0)}${second.charAt(0)}` : first.slice(0, 2);
  return letters.toUpperCase() || '?';
}

/**
 * Who has the party open right now (presence of DESIGN §6), as initials with the name on hover. Only while
 * the party's channels are `live`: with the connection lost, the last list is no longer news (it said
 * "3 online" through a server restart).
 */
export function OnlineUsers({
  users,
  myUserId,
  live = true,
}: {
  users: OnlineUser[];
  myUserId: string | null;
  live?: boolean;
}) {
  if (!live || users.length === 0) return null;
  // Me last: the others are the news.
  const ordered = [...users].sort((a, b) => Number(a.id === myUserId) - Number(b.id === myUserId));
  const names = ordered.map((user) => (user.id === myUserId ? `${user.username} (you)` : user.username));
  const hidden = ordered.length - SHOWN;
  return (
    <Group gap="xs" wrap="nowrap" data-testid="online-users">
      <Tooltip.Group openDelay={200} closeDelay={100}>
        {/* Side by side rather than overlapping: overlapped initials lose their second letter. */}
        <Group gap={4} wrap="nowrap" role="list" aria-label={`Online now: ${names.join(', ')}`}>
          {ordered.slice(0, SHOWN).map((user, index) => (
            <Tooltip key={user.id} label={names[index]} withArrow>
              {/* One colour whose text the theme keeps readable in both schemes; mine is the filled one. */}
              <Avatar
                color="violet"
                variant={user.id === myUserId ? 'filled' : 'light'}
                size="sm"
                role="listitem"
                aria-label={names[index]}
              >
                {initialsOf(user.username)}
              </Avatar>
            </Tooltip>
          ))}
          {hidden > 0 ? (
            <Tooltip label={names.slice(SHOWN).join(', ')} withArrow>
              <Avatar color="gray" size="sm" role="listitem" aria-label={`${hidden} more`}>
                +{hidden}
              </Avatar>
            </Tooltip>
          ) : null}
        </Group>
      </Tooltip.Group>
      <Text size="xs" c="dimmed" aria-hidden="true">
        {users.length} online
      </Text>
    </Group>
  );
}
