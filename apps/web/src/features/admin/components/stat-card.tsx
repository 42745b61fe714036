import { Card, Text } from '@mantine/core';
import { formatCount } from '../../../lib/format';

/** One figure with its label, e.g. "Users 1,204". */
export function StatCard({ label, value, hint }: { label: string; value: number | string; hint?: string }) {
  return (
    <Card withBorder padding="md">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text fz={28} fw={700} lh={1.2}>
        {typeof value === 'number' ? formatCount(value) : value}
      </Text>
      {hint ? (
        <Text size="xs" c="dimmed">
          {hint}
        </Text>
      ) : null}
    </Card>
  );
}
