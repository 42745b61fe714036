import type { AdminOperation } from '@haversack/contracts';
import { Badge, Button, Group, Progress, Stack, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { formatCount } from '../../../lib/format';
import { isApiError } from '../../../lib/http-client';
import { adminOperationQuery, cancelAdminOperation, communicationsKeys } from '../api/communications-api';

const statusColor = {
  queued: 'gray',
  running: 'blue',
  done: 'green',
  failed: 'red',
  cancelled: 'orange',
} as const;

function percentOf(operation: AdminOperation): number {
  if (operation.total === 0) return operation.status === 'done' ? 100 : 0;
  return Math.round((operation.processed / operation.total) * 100);
}

/** A background operation's progress bar, polled while it runs. */
export function OperationProgress({ operation, verb }: { operation: AdminOperation; verb: string }) {
  const live = useQuery({ ...adminOperationQuery(operation.id), initialData: operation });
  const current = live.data;
  const percent = percentOf(current);
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const cancel = useMutation({
    mutationFn: () => cancelAdminOperation(operation.id),
    onSuccess: (cancelled) => {
      setConfirming(false);
      queryClient.setQueryData(communicationsKeys.operation(operation.id), cancelled);
    },
  });
  const unfinished = current.status === 'queued' || current.status === 'running';
  return (
    <Stack gap={6} data-testid="operation-progress">
      <Group justify="space-between" gap="xs">
        <Text size="sm" fw={500}>
          {formatCount(current.processed)} of {formatCount(current.total)} {verb}
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
        <Text size="sm" c={current.status === 'cancelled' ? 'orange' : 'red'}>
          {current.last_error}
        </Text>
      ) : null}
      {unfinished ? (
        <Group justify="flex-end">
          <Button size="xs" variant="light" color="red" onClick={() => setConfirming(true)}>
            Cancel Operation
          </Button>
        </Group>
      ) : null}
      <ConfirmDialog
        opened={confirming && unfinished}
        onClose={() => {
          setConfirming(false);
          cancel.reset();
        }}
        onConfirm={() => cancel.mutate()}
        title="Cancel Operation"
        message="It stops before its next batch; what it has done stays done. Stop it?"
        confirmLabel="Stop It"
        cancelLabel="Keep Running"
        loading={cancel.isPending}
        error={
          cancel.error
            ? isApiError(cancel.error)
              ? cancel.error.message
              : 'Something went wrong. Please try again.'
            : null
        }
      />
    </Stack>
  );
}
