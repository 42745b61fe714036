import { Anchor, Stack, Text } from '@mantine/core';
import type { MouseEvent } from 'react';
import { navigateInApp } from './app-navigation';

/** A link to an in-app path (e.g. "/subscription/upgrade?resource=characters"), or a button (e.g. Undo). */
export type ToastAction = { label: string; href: string } | { label: string; onClick: () => void };

/** A toast's message followed by a link; following it closes the toast. */
export function ToastMessageWithAction({
  message,
  action,
  onFollow,
}: {
  message: string;
  action: ToastAction;
  onFollow: () => void;
}) {
  if ('onClick' in action) {
    return (
      <Stack gap={4} align="flex-start">
        <Text size="sm">{message}</Text>
        <Anchor
          component="button"
          type="button"
          size="sm"
          fw={600}
          onClick={() => {
            onFollow();
            action.onClick();
          }}
        >
          {action.label}
        </Anchor>
      </Stack>
    );
  }
  const follow = (event: MouseEvent<HTMLAnchorElement>) => {
    // Let the browser open a new tab or window as asked; a plain click stays in the app.
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey || event.button !== 0) return;
    event.preventDefault();
    onFollow();
    navigateInApp(action.href);
  };
  return (
    <Stack gap={4} align="flex-start">
      <Text size="sm">{message}</Text>
      <Anchor href={action.href} size="sm" fw={600} onClick={follow}>
        {action.label}
      </Anchor>
    </Stack>
  );
}
