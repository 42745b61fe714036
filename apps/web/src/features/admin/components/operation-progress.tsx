import type { AdminOperation } from '@haversack/contracts';
import { Badge, Group, Progress, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { adminOperationQuery } from '../api/communications-api';

const statusColor = { queued: 'gray', running: 'blue', done: 'green', failed: 'red' } as const;

function percentOf(operation: AdminOperation): number {
  if (operation.total === 0) return operation.status === 'done' ? 100 : 0;
  return Math.round((operation.processed / operation.total) * 100);
}

/** A background operation's progress bar, polled while it runs. */
export function OperationProgress({ operation, verb }: { operation: AdminOperation; verb: string }) {
  const live = useQuery({ ...adminOperationQuery(operation.id), initialData: operation });
  const current = live.data;
  const percent = percentOf(current);
  return (
    <Stack gap={6} data-testid="operation-progress">
      <Group justify="space-between" gap="xs">
        <Text size="sm" fw={500}>
          {current.processed.toLocaleString()} of {current.total.toLocaleString()} {verb}
        </Text>
        <Badge color={statusColor[current.status]} variant="light">
          {current.status}
        </Badge>
      </Group>
      <Progress
        value={percent}
        animated={current.status === 'running' || current.status === 'queued'}
        aria-label={`${verb}: ${percent}%`}
      />
      {current.last_error ? (
        <Text size="sm" c="red">
          {current.last_error}
        </Text>
      ) : null}
    </Stack>
  );
}
