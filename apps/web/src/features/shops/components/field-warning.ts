import type { NumberInputProps } from '@mantine/core';

/**
 * A warning read with its field and shown under it, in the description's place: what was typed is allowed
 * (a 100 % discount, a price of 0), but rarely meant.
 */
export function warningUnderField(warning: string) {
  return {
    description: warning,
    inputWrapperOrder: ['label', 'input', 'description', 'error'],
    descriptionProps: { c: 'yellow.7', fw: 500 },
  } satisfies Partial<NumberInputProps>;
}
