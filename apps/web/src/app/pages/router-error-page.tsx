import { Button, Center, Code, Stack, Text, Title } from '@mantine/core';
import { isRouteErrorResponse, useRouteError } from 'react-router';

/** spec/01 §8: the router fallback, "Unexpected Application Error!". */
export function RouterErrorPage() {
  const error = useRouteError();
  console.error('Unexpected application error', error);
  const detail = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : String(error);
  return (
    <Center component="main" mih="100vh" p="md">
      <Stack gap="md" maw={560} data-testid="router-error">
        <Title order={1}>Unexpected Application Error!</Title>
        <Code block>{detail}</Code>
        <Text>Please refresh the page. If the problem continues, contact support.</Text>
        <Button onClick={() => window.location.assign('/')}>Reload Haversack</Button>
      </Stack>
    </Center>
  );
}
