import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { IconConfetti } from '@tabler/icons-react';
import { Link } from 'react-router';

/** spec/02 §2: after joining, ?welcome=true greets the new member and offers a first character. */
export function WelcomePanel({
  partyId,
  partyName,
  onDismiss,
}: {
  partyId: string;
  partyName: string;
  onDismiss: () => void;
}) {
  return (
    <Alert
      color="violet"
      variant="light"
      title={`Welcome to ${partyName}!`}
      icon={<IconConfetti aria-hidden="true" />}
      // Present as the page opens, not the outcome of an action there: a status (docs/decisions.md).
      role="status"
      data-testid="welcome-panel"
    >
      <Stack gap="sm" align="flex-start">
        <Text size="sm">
          You are now a member of this party. Bring a character along to start adventuring.
        </Text>
        <Group gap="md">
          <Button component={Link} to={`/characters/new?party_id=${partyId}`} size="sm">
            Create Your First Character
          </Button>
          <Button variant="default" size="sm" onClick={onDismiss}>
            Dismiss
          </Button>
        </Group>
      </Stack>
    </Alert>
  );
}
