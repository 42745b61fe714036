import { Text } from '@mantine/core';
import { useLineClamp } from '../../../components/line-clamp';

/**
 * An item's name on a shop line: two lines, then "Show full name" to read the rest (author review, L5: a
 * long name ended in "…" with no way to read it, "requires attunement" included).
 */
export function LineName({ name }: { name: string }) {
  const { textProps, toggle } = useLineClamp(name, 2);
  return (
    <>
      <Text fw={600} size="sm" data-testid="shop-line-name" {...textProps}>
        {name}
      </Text>
      {toggle}
    </>
  );
}
