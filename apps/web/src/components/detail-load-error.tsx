import { Anchor, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { isRecordNotFound } from '../lib/http-client';
import { ErrorPanel } from './error-panel';

interface DetailLoadErrorProps {
  error: Error;
  onRetry: () => void;
  /** What the page shows: "Character", "Item", "Container". */
  subject: string;
  /** The heading when loading failed for another reason than 404: "Character", "Inventory". */
  heading?: string;
  /** "The character might not exist or you may not have permission to view it." */
  notFoundText: string;
  back: { href: string; label: string };
}

/**
 * A detail page that could not load its record: "<Subject> Not Found" with the spec's sentence for a 404
 * (which is also what a record hidden from this user answers) or an id that is not one, otherwise the
 * error panel with Try Again.
 */
export function DetailLoadError({
  error,
  onRetry,
  subject,
  heading = subject,
  notFoundText,
  back,
}: DetailLoadErrorProps) {
  const notFound = isRecordNotFound(error);
  return (
    <Stack gap="md" maw={640}>
      <Title order={1}>{notFound ? `${subject} Not Found` : heading}</Title>
      {notFound ? (
        <Text>{notFoundText}</Text>
      ) : (
        <ErrorPanel title={`Failed to load ${heading.toLowerCase()}`} error={error} onRetry={onRetry} />
      )}
      <Anchor component={Link} to={back.href}>
        {back.label}
      </Anchor>
    </Stack>
  );
}
