import { Button, Group, List, Modal, Stack, Text, Title } from '@mantine/core';
import { CopyMessage } from './copy-message';

/**
 * The address of the join page with the code filled in (the page reads `?code=`), so a player who opens
 * the link from a message has nothing to type.
 */
export function joinLink(joinCode: string, origin: string): string {
  return `${origin}/parties/join?${new URLSearchParams({ code: joinCode })}`;
}

/** The three shareable messages of spec/02 §2, each carrying the party name and the code. */
export function shareMessages(partyName: string, joinCode: string, origin: string) {
  const joinUrl = joinLink(joinCode, origin);
  return [
    { label: 'Simple Code', text: `${partyName} join code: ${joinCode}` },
    {
      label: 'Friendly Message',
      text: `Hey! Join my party "${partyName}" on Haversack. Use the join code ${joinCode} on the Join Party page: ${joinUrl}`,
    },
    {
      label: 'Detailed Message',
      text: [
        `You're invited to join "${partyName}" on Haversack!`,
        '',
        `Join code: ${joinCode}`,
        '',
        'How to join:',
        '1. Sign in to Haversack (or create a free account).',
        '2. Open Parties and click Join Party.',
        `3. Enter the code ${joinCode} and pick your role.`,
        '4. Once you have joined, create a character for the party.',
        '',
        `Join page: ${joinUrl}`,
      ].join('\n'),
    },
  ];
}

/** spec/02 §2 Share Party Join Code dialog. */
export function ShareJoinCodeDialog({
  opened,
  onClose,
  partyName,
  joinCode,
}: {
  opened: boolean;
  onClose: () => void;
  partyName: string;
  joinCode: string;
}) {
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      closeButtonProps={{ 'aria-label': 'Close' }}
      title="Share Party Join Code"
      size="lg"
      centered
    >
      <Stack gap="md">
        <Stack gap={4} align="center">
          <Text size="sm" c="dimmed">
            Join code for {partyName}
          </Text>
          <Text
            ff="monospace"
            fw={700}
            fz={32}
            style={{ letterSpacing: '0.2em' }}
            data-testid="share-join-code"
          >
            {joinCode}
          </Text>
        </Stack>
        {shareMessages(partyName, joinCode, window.location.origin).map((message) => (
          <CopyMessage key={message.label} label={message.label} text={message.text} />
        ))}
        <Stack gap={4}>
          <Title order={3} size="h5">
            How players join
          </Title>
          <List type="ordered" size="sm" spacing={4}>
            <List.Item>Share the join code with your players.</List.Item>
            <List.Item>Players click Join Party on the parties page.</List.Item>
            <List.Item>They enter the code and pick a role.</List.Item>
            <List.Item>Once joined, they can create characters for the party.</List.Item>
          </List>
        </Stack>
        <Group justify="flex-end">
          <Button onClick={onClose}>Done</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
