import { Button, Group, Text } from '@mantine/core';

/**
 * The Discord link could not be read, with nothing loaded before: said in place of Link Discord, since the
 * user may be linked already. One wording for the profile's section and the Discord page.
 */
export function DiscordLinkLoadFailed({ onRetry }: { onRetry: () => void }) {
  return (
    <Group gap="sm">
      <Text size="sm" c="red">
        Could not load your Discord link.
      </Text>
      <Button size="xs" variant="default" onClick={onRetry}>
        Try again
      </Button>
    </Group>
  );
}
