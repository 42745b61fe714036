import { Group, Text } from '@mantine/core';
import { IconDice5, IconMap, IconUsers } from '@tabler/icons-react';

export function memberCountLabel(count: number): string {
  return `${count} ${count === 1 ? 'member' : 'members'}`;
}

/** An icon keeps its size beside a long game system or setting (it shrank to a dot): the text wraps instead. */
const icon = { flexShrink: 0 } as const;
const text = { minWidth: 0 } as const;

/** Game system, setting and member count, as a card shows them. */
export function PartyFacts({
  gameSystem,
  setting,
  memberCount,
}: {
  gameSystem: string;
  setting: string;
  memberCount: number;
}) {
  return (
    <Group gap="md" wrap="wrap">
      {gameSystem ? (
        <Group gap={4} wrap="nowrap">
          <IconDice5 size={16} aria-hidden="true" style={icon} />
          <Text size="sm" style={text}>
            {gameSystem}
          </Text>
        </Group>
      ) : null}
      {setting ? (
        <Group gap={4} wrap="nowrap">
          <IconMap size={16} aria-hidden="true" style={icon} />
          <Text size="sm" style={text}>
            {setting}
          </Text>
        </Group>
      ) : null}
      <Group gap={4} wrap="nowrap">
        <IconUsers size={16} aria-hidden="true" style={icon} />
        <Text size="sm" style={text}>
          {memberCountLabel(memberCount)}
        </Text>
      </Group>
    </Group>
  );
}
