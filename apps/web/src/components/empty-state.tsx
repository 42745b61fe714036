import { Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** spec/02 §2: the empty item text, with its full stop, wherever a list of items finds none. */
export const noItemsFound = 'No items found.';

/** A panel for a list with nothing in it: a heading, a sentence and the next step. */
export function EmptyState({
  title,
  message,
  action,
  headingOrder = 2,
  testId = 'empty-state',
}: {
  title: string;
  message: string;
  action?: ReactNode;
  headingOrder?: 2 | 3;
  testId?: string;
}) {
  return (
    <Paper withBorder p="xl" data-testid={testId}>
      <Stack align="center" gap="sm" ta="center">
        <Title order={headingOrder} size="h4">
          {title}
        </Title>
        <Text c="dimmed" size="sm">
          {message}
        </Text>
        {action}
      </Stack>
    </Paper>
  );
}
