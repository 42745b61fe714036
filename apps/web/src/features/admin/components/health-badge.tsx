import type { HealthStatus } from '@haversack/contracts';
import { Badge } from '@mantine/core';

const looks: Record<HealthStatus, { color: string; label: string }> = {
  ok: { color: 'green', label: 'OK' },
  warn: { color: 'yellow', label: 'Warning' },
  down: { color: 'red', label: 'Down' },
};

/** ok / warn / down as a word and a colour (the word carries the meaning; the colour only helps). */
export function HealthBadge({ status }: { status: HealthStatus }) {
  const look = looks[status];
  return (
    <Badge color={look.color} variant="light" data-status={status}>
      {look.label}
    </Badge>
  );
}
