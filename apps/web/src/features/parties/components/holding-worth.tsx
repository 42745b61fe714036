import { formatStackValue, type Holding } from '@haversack/contracts';
import { Text } from '@mantine/core';

/** What a holding is worth in all, and the part of it in items, as the party's table and cards show it. */
export function HoldingWorth({ holding }: { holding: Holding }) {
  return (
    <>
      <Text size="sm" fw={600} data-testid="wealth-row-value">
        {formatStackValue(holding.total_value_cp)}
      </Text>
      <Text size="xs" c="dimmed">
        Items {formatStackValue(holding.items_value_cp)}
      </Text>
    </>
  );
}
