import { Button, Stack, Text } from '@mantine/core';
import { type ComponentPropsWithoutRef, forwardRef } from 'react';

interface LoadFailedLineProps {
  /** What could not be loaded, in a sentence: "Your parties could not be loaded." */
  text: string;
  onRetry: () => void;
  /** Asked again and not answered yet. */
  loading?: boolean;
}

/**
 * The button element under Mantine's Button, taking the `disabled` that Mantine sets while `loading` as
 * aria-disabled: a disabled button drops the keyboard's focus to the page for as long as it waits (and
 * is then gone or back, with nothing said meanwhile). Mantine's busy look (`data-loading`) stays.
 */
const StaysFocusableButton = forwardRef<HTMLButtonElement, ComponentPropsWithoutRef<'button'>>(
  function StaysFocusableButton({ disabled, ...props }, ref) {
    return <button ref={ref} {...props} type="button" aria-disabled={disabled || undefined} />;
  },
);

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
      <Button
        component={StaysFocusableButton}
        size="xs"
        variant="light"
        color="red"
        loading={loading}
        onClick={loading ? undefined : onRetry}
      >
        Try Again
      </Button>
    </Stack>
  );
}
