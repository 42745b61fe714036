import { Button, Group, Text } from '@mantine/core';
import { refreshFailed } from '../lib/load-failed';

export const refreshFailedText = 'Could not refresh. Showing what was loaded before.';

interface RefreshFailedNoteProps {
  query: { isError: boolean; data: unknown; isFetching: boolean; refetch: () => unknown };
}

/**
 * Beside a list or page whose last refresh failed (a slow or dropped connection while reading): what was
 * loaded stays on screen, and this says it may be out of date, with Try Again. Nothing otherwise.
 */
export function RefreshFailedNote({ query }: RefreshFailedNoteProps) {
  if (!refreshFailed(query)) return null;
  return (
    <Group gap="xs" data-testid="refresh-failed-note">
      <Text size="sm" c="dimmed" role="status">
        {refreshFailedText}
      </Text>
      <Button
        variant="subtle"
        size="compact-sm"
        loading={query.isFetching}
        onClick={() => void query.refetch()}
      >
        Try Again
      </Button>
    </Group>
  );
}
