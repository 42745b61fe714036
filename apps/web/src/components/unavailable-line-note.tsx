import { Text } from '@mantine/core';

/**
 * Under a template's line whose item was deleted by its author (or made private) after it was listed: a
 * deployment leaves such a line out, and a shop no longer restocks it. Shown so that the GM is not surprised
 * by what a deployment holds, and knows which line to remove.
 */
export function UnavailableLineNote({
  available,
  restocks = false,
}: {
  available: boolean;
  restocks?: boolean;
}) {
  if (available) return null;
  return (
    // Coloured text is readable (4.5:1) in both schemes: theme.ts sets each colour's text shade.
    <Text size="xs" c="orange" data-testid="unavailable-line">
      No longer available: deploying leaves it out{restocks ? ', and shops no longer restock it' : ''}.
    </Text>
  );
}
