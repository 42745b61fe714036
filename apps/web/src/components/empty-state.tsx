import { Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode, Ref } from 'react';

/** spec/02 §2: the empty item text, with its full stop, wherever a list of items finds none. */
export const noItemsFound = 'No items found.';

/** A panel for a list with nothing in it: a heading, a sentence and the next step. */
export function EmptyState({
  title,
  message,
  action,
  headingOrder = 2,
  testId = 'empty-state',
  headingRef,
}: {
  title: string;
  message: string;
  action?: ReactNode;
  headingOrder?: 2 | 3;
  testId?: string;
  /**
   * For a list that empties under the keyboard (its last entry decided or deleted): the heading takes the
   * focus then, so it can be focused by a script (tabindex -1) without becoming a Tab stop.
   */
  headingRef?: Ref<HTMLHeadingElement>;
}) {
  return (
    <Paper withBorder p="xl" data-testid={testId}>
      <Stack align="center" gap="sm" ta="center">
        <Title order={headingOrder} size="h4" ref={headingRef} tabIndex={headingRef ? -1 : undefined}>
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
