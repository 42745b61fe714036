import { Badge, Button, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Spinner } from '../../../components/loading';
import { usePageTitle } from '../../../lib/page-title';
import { healthQueryOptions } from '../api/health-api';

/** A public check that the browser can reach the server and the server its database. */
export function DiagnosticsPage() {
  usePageTitle('Diagnostics');
  const health = useQuery(healthQueryOptions());
  return (
    <Stack gap="lg" maw={720}>
      <Title order={1}>Diagnostics</Title>
      <Paper withBorder p="lg">
        {health.isPending ? (
          <Group gap="sm">
            <Spinner size="sm" label="Checking the server" />
            <Text>Checking the server...</Text>
          </Group>
        ) : (
          <Stack gap="md">
            <Table>
              <Table.Tbody>
                <Table.Tr>
                  <Table.Th scope="row">Server</Table.Th>
                  <Table.Td>
                    <Badge color={health.isSuccess ? 'teal' : 'red'} variant="light">
                      {health.isSuccess ? 'ok' : 'unreachable'}
                    </Badge>
                  </Table.Td>
                </Table.Tr>
                <Table.Tr>
                  <Table.Th scope="row">Database</Table.Th>
                  <Table.Td>
                    <Badge color={health.isSuccess ? 'teal' : 'gray'} variant="light">
                      {health.data?.database ?? 'unknown'}
                    </Badge>
                  </Table.Td>
                </Table.Tr>
              </Table.Tbody>
            </Table>
            {health.isError ? <Text size="sm">{health.error.message}</Text> : null}
            <Group>
              <Button variant="default" onClick={() => health.refetch()} loading={health.isFetching}>
                Check again
              </Button>
            </Group>
          </Stack>
        )}
      </Paper>
    </Stack>
  );
}
