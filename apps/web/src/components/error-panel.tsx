import { Alert, Button, Code, List, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { isApiError } from '../lib/http-client';

export const defaultErrorTitle = 'Something went wrong';
export const defaultErrorMessage = 'An unexpected error occurred. Please try again.';
/** The title of a request the server refused as invalid: nothing failed to load, the question was wrong. */
export const refusedRequestTitle = 'The request was refused';

interface ErrorPanelProps {
  title?: string;
  message?: string;
  /** Shown as "Code: …" in the boundary variant. */
  code?: string;
  /**
   * The failure itself. Its message stands in for `message`; a 422 (VALIDATION_ERROR) shows the server's
   * message and the fields it named instead of the title, and no Try Again.
   */
  error?: Error | null;
  onRetry?: () => void;
}

/** A 422: asking the same again gets the same refusal, so the panel says what to change instead. */
function isRefusedRequest(error: Error | null | undefined) {
  return isApiError(error) && (error.status === 422 || error.code === 'VALIDATION_ERROR') ? error : null;
}

/** spec/01 §2 generic error panel: "Something went wrong", a message, optional Try Again. */
export function ErrorPanel({ title = defaultErrorTitle, message, code, error, onRetry }: ErrorPanelProps) {
  const refused = isRefusedRequest(error);
  return (
    <Alert
      color="red"
      variant="light"
      title={refused ? refusedRequestTitle : title}
      icon={<IconAlertTriangle aria-hidden="true" />}
      data-testid="error-panel"
      role="alert"
    >
      <Stack gap="sm" align="flex-start">
        <Text size="sm">
          {refused
            ? (refused.serverMessage ?? refused.message)
            : (message ?? error?.message ?? defaultErrorMessage)}
        </Text>
        {refused && refused.details.length > 0 ? (
          <List size="sm" spacing={2}>
            {refused.details.map((detail) => (
              <List.Item key={`${detail.field}:${detail.message}`}>
                {/* The contracts' messages mostly start with the field's name; one that does not gets it. */}
                {detail.message.startsWith(detail.field) ? null : <Code>{detail.field}</Code>}
                {detail.message.startsWith(detail.field) ? '' : ': '}
                {detail.message}
              </List.Item>
            ))}
          </List>
        ) : null}
        {code ? (
          <Text size="sm">
            Code: <Code>{code}</Code>
          </Text>
        ) : null}
        {onRetry && !refused ? (
          <Button variant="outline" color="red" size="xs" onClick={onRetry}>
            Try Again
          </Button>
        ) : null}
      </Stack>
    </Alert>
  );
}
