import { formatStackWorth, type Holding } from '@haversack/contracts';
import { Text } from '@mantine/core';

const whole = { whiteSpace: 'nowrap' } as const;

/**
 * What a holding is worth in all, and the part of it in items, as the party's table and cards show it: to
 * the copper, as a character's own page does, so the characters' worths add up to the party's total as
 * shown (in whole gp, 87.5 gp and 15.53 gp read "87 gp" and "15 gp" beside a total of "103 gp"). A figure
 * is never broken across lines ("81,000,0 / 21 gp" beside a long name): the name beside it wraps instead.
 */
export function HoldingWorth({ holding }: { holding: Holding }) {
  return (
    <>
      <Text size="sm" fw={600} data-testid="wealth-row-value" style={whole}>
        {formatStackWorth(holding.total_value_cp)}
      </Text>
      <Text size="xs" c="dimmed" style={whole}>
        Items {formatStackWorth(holding.items_value_cp)}
      </Text>
    </>
  );
}
