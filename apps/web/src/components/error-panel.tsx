import { Alert, Button, Code, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';

export const defaultErrorTitle = 'Something went wrong';
export const defaultErrorMessage = 'An unexpected error occurred. Please try again.';

interface ErrorPanelProps {
  title?: string;
  message?: string;
  /** Shown as "Code: …" in the boundary variant. */
  code?: string;
  onRetry?: () => void;
}

/** spec/01 §2 generic error panel: "Something went wrong", a message, optional Try Again. */
export function ErrorPanel({
  title = defaultErrorTitle,
  message = defaultErrorMessage,
  code,
  onRetry,
}: ErrorPanelProps) {
  return (
    <Alert
      color="red"
      variant="light"
      title={title}
      icon={<IconAlertTriangle aria-hidden="true" />}
      data-testid="error-panel"
      role="alert"
    >
      <Stack gap="sm" align="flex-start">
        <Text size="sm">{message}</Text>
        {code ? (
          <Text size="sm">
            Code: <Code>{code}</Code>
          </Text>
        ) : null}
        {onRetry ? (
          <Button variant="outline" color="red" size="xs" onClick={onRetry}>
            Try Again
          </Button>
        ) : null}
      </Stack>
    </Alert>
  );
}
