import type { ItemInstance } from '@haversack/contracts';
import { Badge, type BadgeProps, useComputedColorScheme } from '@mantine/core';
import { GAME_ICON_SIZE, type GameIconName, gameIconBodies } from '../lib/game-icons';
import { type Rarity, rarityColours, rarityLabel } from '../lib/item-look';

/** A Game Icons icon (CC BY 3.0, credited on /about), in the current text colour. Decorative. */
export function GameIcon({ name, size = 24 }: { name: GameIconName; size?: number }) {
  return (
    <svg
      width={size}
      height={size}
      viewBox={`0 0 ${GAME_ICON_SIZE} ${GAME_ICON_SIZE}`}
      aria-hidden="true"
      focusable="false"
      data-icon={name}
      style={{ flexShrink: 0 }}
      // The bodies are the icon set's own SVG paths, copied at build time (lib/game-icons.ts), never user input.
      // biome-ignore lint/security/noDangerouslySetInnerHtml: static SVG paths from a vendored icon set.
      dangerouslySetInnerHTML={{ __html: gameIconBodies[name] }}
    />
  );
}

/** The rarity in its colour (common grey to artifact red), readable in both themes. */
export function RarityBadge({ rarity, size = 'sm' }: { rarity: Rarity; size?: BadgeProps['size'] }) {
  const scheme = useComputedColorScheme('light');
  const colour = rarityColours[rarity][scheme];
  return (
    <Badge variant="outline" size={size} color={colour} data-rarity={rarity} style={{ flexShrink: 0 }}>
      {rarityLabel(rarity)}
    </Badge>
  );
}

/** "Equipped" and "Attuned" on a tile or in the dialog, when they apply. */
export function ItemStatusBadges({ item, size = 'sm' }: { item: ItemInstance; size?: BadgeProps['size'] }) {
  return (
    <>
      {item.instance_data.is_equipped === true ? (
        <Badge variant="light" color="teal" size={size} style={{ flexShrink: 0 }}>
          Equipped
        </Badge>
      ) : null}
      {item.instance_data.is_attuned === true ? (
        <Badge variant="light" color="violet" size={size} style={{ flexShrink: 0 }}>
          Attuned
        </Badge>
      ) : null}
    </>
  );
}
