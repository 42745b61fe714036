import { Text } from '@mantine/core';

/**
 * A dialog's title that names an item: a long name ends in an ellipsis after `lines` lines instead of
 * filling a phone's screen (a 200-character name took seven lines of the Give dialog). The full text stays
 * the dialog's accessible name and is the title's tooltip.
 */
export function ClampedTitle({ text, lines = 2 }: { text: string; lines?: number }) {
  return (
    <Text
      component="span"
      inherit
      lineClamp={lines}
      title={text}
      data-testid="clamped-title"
      style={{ overflowWrap: 'anywhere' }}
    >
      {text}
    </Text>
  );
}
