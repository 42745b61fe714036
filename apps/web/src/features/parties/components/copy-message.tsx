import { Button, Code, Group, Stack, Text, VisuallyHidden } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import type { Ref } from 'react';
import { useCopyToClipboard } from '../../../lib/clipboard';

/** spec/02 §9: the copy confirmation lasts 2 s. */
export const COPY_INDICATOR_MS = 2_000;

interface CopyMessageProps {
  label: string;
  text: string;
  /** The Copy button, for a dialog that puts the focus on it when the text appears. */
  buttonRef?: Ref<HTMLButtonElement>;
  /** The id of what the Copy button is to be read with (a warning about the text). */
  buttonDescribedBy?: string;
}

/** One copyable text with its own indicator (spec/02 §2 Share Party Join Code). */
export function CopyMessage({ label, text, buttonRef, buttonDescribedBy }: CopyMessageProps) {
  const clipboard = useCopyToClipboard({ timeout: COPY_INDICATOR_MS });
  return (
    <Stack gap={4}>
      <Group justify="space-between" gap="xs">
        <Text fw={600} size="sm">
          {label}
        </Text>
        <Button
          ref={buttonRef}
          size="compact-sm"
          variant="light"
          leftSection={
            clipboard.copied ? (
              <IconCheck size={14} aria-hidden="true" />
            ) : (
              <IconCopy size={14} aria-hidden="true" />
            )
          }
          onClick={() => clipboard.copy(text)}
          aria-label={clipboard.copied ? `${label} copied` : `Copy ${label}`}
          aria-describedby={buttonDescribedBy}
        >
          {clipboard.copied ? 'Copied!' : 'Copy'}
        </Button>
      </Group>
      <Code block style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
        {text}
      </Code>
      {clipboard.error ? (
        <Text size="sm" c="red" role="alert">
          Failed to copy to clipboard
        </Text>
      ) : null}
      <VisuallyHidden aria-live="polite">
        {clipboard.copied ? `${label} copied to clipboard` : ''}
      </VisuallyHidden>
    </Stack>
  );
}
