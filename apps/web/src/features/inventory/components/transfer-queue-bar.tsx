import type { Container } from '@haversack/contracts';
import { ActionIcon, Badge, Button, Group, Paper, Progress, Select, Stack, Text } from '@mantine/core';
import { IconX } from '@tabler/icons-react';
import { useOptionsOnFirstUse } from '../../../lib/use-options-on-first-use';
import type { TransferQueue } from '../hooks/use-transfer-queue';
import { sourceOptionLabel } from './container-source-select';

/**
 * spec/02 §2 transfer queue bar: destination, queued items, remove, clear and process. It sticks to the
 * bottom of a phone screen only while it has something to act on (queued items, a run, a refusal such
 * as a swipe right without a destination); an empty queue sits after the items, so it covers none of
 * them.
 */
export function TransferQueueBar({ queue, containers }: { queue: TransferQueue; containers: Container[] }) {
  const busy = queue.progress !== null;
  const hasItems = queue.items.length > 0;
  const floating = hasItems || busy || queue.error !== null;
  const { keepMounted, ...destinationFirstUse } = useOptionsOnFirstUse();
  return (
    <Paper
      withBorder
      shadow={floating ? 'md' : undefined}
      p="sm"
      pos={floating ? 'sticky' : undefined}
      bottom={floating ? 0 : undefined}
      style={floating ? { zIndex: 5 } : undefined}
      component="section"
      aria-label="Transfer queue"
      data-testid="transfer-queue"
    >
      <Stack gap="xs">
        <Group justify="space-between" gap="xs">
          <Group gap={6}>
            <Text fw={600} size="sm">
              Transfer queue
            </Text>
            <Badge variant="light">{queue.items.length}</Badge>
          </Group>
          <Text size="xs" c="dimmed">
            Swipe right: Quick Transfer · left: Add to Queue
          </Text>
        </Group>
        <Select
          {...destinationFirstUse}
          label="Destination"
          placeholder="Choose where items go"
          data={containers
            .filter((c) => c.can_act)
            .map((c) => ({ value: c.id, label: sourceOptionLabel(c) }))}
          value={queue.destination}
          onChange={queue.choose}
          error={queue.error ?? undefined}
          // The bar is sticky at the bottom of a scrolling page: floating-ui can judge it detached for a
          // frame after a swipe and would hide the open list, so keep it shown and open it upwards.
          comboboxProps={{ withinPortal: true, hideDetached: false, position: 'top', keepMounted }}
          disabled={busy}
        />
        {hasItems ? (
          <Group gap={6}>
            {queue.items.map((item) => (
              <Badge
                key={item.id}
                variant="outline"
                size="lg"
                pr={3}
                rightSection={
                  <ActionIcon
                    size="xs"
                    variant="transparent"
                    color="gray"
                    aria-label={`Remove ${item.name} from queue`}
                    onClick={() => queue.remove(item.id)}
                    disabled={busy}
                  >
                    <IconX size={12} aria-hidden="true" />
                  </ActionIcon>
                }
              >
                {item.name} ×{item.quantity}
              </Badge>
            ))}
          </Group>
        ) : null}
        {queue.progress ? (
          <Stack gap={4} role="status">
            <Text size="xs">
              Transferring {Math.min(queue.progress.done + 1, queue.progress.total)} of {queue.progress.total}
            </Text>
            <Progress
              value={queue.progress.total ? (queue.progress.done / queue.progress.total) * 100 : 100}
              aria-label="Queue progress"
            />
          </Stack>
        ) : null}
        {hasItems || busy ? (
          <Group justify="flex-end" gap="xs">
            <Button variant="default" size="xs" onClick={queue.clear} disabled={busy}>
              Clear
            </Button>
            <Button size="xs" onClick={() => void queue.process()} loading={busy}>
              Process Queue
            </Button>
          </Group>
        ) : null}
      </Stack>
    </Paper>
  );
}
