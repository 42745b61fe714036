import { Button, Stack, Text } from '@mantine/core';

interface LoadFailedLineProps {
  /** What could not be loaded, in a sentence: "Your parties could not be loaded." */
  text: string;
  onRetry: () => void;
  /** Asked again and not answered yet. */
  loading?: boolean;
}

/**
 * Inside a card or panel whose load failed with nothing to show: what failed, and Try Again. A line, not
 * the full error panel, for a part of a page that the rest of the page does not depend on.
 */
export function LoadFailedLine({ text, onRetry, loading = false }: LoadFailedLineProps) {
  return (
    <Stack gap="xs" align="flex-start">
      <Text size="sm" c="red">
        {text}
      </Text>
      <Button size="xs" variant="light" color="red" loading={loading} onClick={onRetry}>
        Try Again
      </Button>
    </Stack>
  );
}
