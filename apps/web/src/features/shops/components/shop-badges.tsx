import {
  type BadgeColour,
  discountPercent,
  formatEnUs,
  modifierLabel,
  popularityLabel,
  ratingColour,
  restockBadge,
  SHOP_CARD_MAX_TAGS,
  type ShopType,
  shopTypeNames,
  stockLabel,
} from '@haversack/contracts';
import { Badge, Group, Text, Tooltip } from '@mantine/core';
import {
  IconBeer,
  IconBook,
  IconBuildingStore,
  IconDiamond,
  IconFlask,
  IconHammer,
  IconLeaf,
  IconShield,
  IconShirt,
  IconStar,
  IconStarFilled,
  IconStarHalfFilled,
  IconSword,
  IconTool,
  IconWand,
} from '@tabler/icons-react';
import type { ComponentType, ReactNode } from 'react';

/** The spec's colour words (spec/02 §4) as Mantine colours. */
export const badgeColours: Record<BadgeColour, string> = {
  success: 'teal',
  info: 'blue',
  warning: 'yellow',
  error: 'red',
  neutral: 'gray',
};

/**
 * Status badges are filled in shades that keep AA contrast with their text in both schemes (autoContrast
 * puts dark text on the yellow); the pale "light" tints fall under 4.5:1 for small bold capitals.
 */
const filledShades: Record<BadgeColour, string> = {
  success: 'teal.9',
  info: 'blue.8',
  warning: 'yellow.4',
  error: 'red.9',
  neutral: 'gray.7',
};

function StatusBadge({
  colour,
  children,
  testId,
}: {
  colour: BadgeColour;
  children: ReactNode;
  testId?: string;
}) {
  return (
    <Badge variant="filled" color={filledShades[colour]} autoContrast data-testid={testId}>
      {children}
    </Badge>
  );
}

const typeIcons: Record<ShopType, ComponentType<{ size?: number; 'aria-hidden'?: boolean | 'true' }>> = {
  general: IconBuildingStore,
  blacksmith: IconHammer,
  armorer: IconShield,
  magic_shop: IconWand,
  apothecary: IconFlask,
  tavern: IconBeer,
  weapon_shop: IconSword,
  clothing: IconShirt,
  jewelry: IconDiamond,
  books: IconBook,
  components: IconLeaf,
  custom: IconTool,
};

export function ShopTypeBadge({ type }: { type: ShopType }) {
  const Icon = typeIcons[type];
  return (
    <Badge variant="light" color="grape" leftSection={<Icon size={12} aria-hidden="true" />}>
      {shopTypeNames[type]}
    </Badge>
  );
}

/** spec/02 §4: a shop instance is active (Open) or inactive (Closed). */
/** Open or Closed; in an archived party neither trades, so it says Archived instead of a green "Open". */
export function OpenBadge({ active, archived = false }: { active: boolean; archived?: boolean }) {
  if (archived) {
    return (
      <StatusBadge colour="neutral" testId="shop-open-badge">
        Archived
      </StatusBadge>
    );
  }
  return (
    <StatusBadge colour={active ? 'success' : 'error'} testId="shop-open-badge">
      {active ? 'Open' : 'Closed'}
    </StatusBadge>
  );
}

export function DiscountBadge({ rate }: { rate: number }) {
  const percent = discountPercent(rate);
  if (percent <= 0) return null;
  return (
    <Badge color="orange.3" variant="filled" autoContrast>
      {percent}% OFF
    </Badge>
  );
}

export function RestockBadge({ days }: { days: number | null }) {
  const badge = restockBadge(days);
  return (
    <StatusBadge colour={badge.colour} testId="restock-badge">
      Restock: {badge.label}
    </StatusBadge>
  );
}

/** "Shop Sells" is what a player pays (buy modifier); "Shop Buys" what the shop pays (sell modifier). */
export function ModifierBadges({ buyModifier, sellModifier }: { buyModifier: number; sellModifier: number }) {
  return (
    <>
      <Badge variant="outline" color="gray" data-testid="shop-sells-badge">
        Shop Sells: {modifierLabel(buyModifier)}
      </Badge>
      <Badge variant="outline" color="gray" data-testid="shop-buys-badge">
        Shop Buys: {modifierLabel(sellModifier)}
      </Badge>
    </>
  );
}

/** spec/02 §4 stock label by item count. */
export function StockBadge({ count }: { count: number }) {
  const label = stockLabel(count);
  const colour: BadgeColour = label === 'Empty' ? 'error' : label === 'Low Stock' ? 'warning' : 'success';
  return (
    <StatusBadge colour={colour} testId="stock-badge">
      {count === 1 ? '1 item' : `${formatEnUs(count)} items`} · {label}
    </StatusBadge>
  );
}

/** spec/02 §9: at most three tags on a card, then "+N more". */
export function TagList({ tags, max = SHOP_CARD_MAX_TAGS }: { tags: readonly string[]; max?: number }) {
  if (tags.length === 0) return null;
  const shown = tags.slice(0, max);
  const rest = tags.length - shown.length;
  return (
    <Group gap={4} role="group" aria-label="Tags" data-testid="shop-tags">
      {shown.map((tag) => (
        <Badge key={tag} size="sm" variant="dot" color="gray">
          {tag}
        </Badge>
      ))}
      {rest > 0 ? (
        <Tooltip label={tags.slice(max).join(', ')}>
          <Badge size="sm" variant="transparent" color="gray" tabIndex={0}>
            +{rest} more
          </Badge>
        </Tooltip>
      ) : null}
    </Group>
  );
}

/** Five stars, filled to the nearest half; read out as one phrase ("Rated 4.5 out of 5"). */
export function Stars({ value, colour, label }: { value: number; colour: string; label: string }) {
  const rounded = Math.round(value * 2) / 2;
  return (
    <Group gap={0} role="img" aria-label={label} wrap="nowrap" c={colour}>
      {[1, 2, 3, 4, 5].map((star) => {
        const Icon = rounded >= star ? IconStarFilled : rounded >= star - 0.5 ? IconStarHalfFilled : IconStar;
        return <Icon key={star} size={16} aria-hidden="true" />;
      })}
    </Group>
  );
}

/** Star rating, review count and popularity label of a template (spec/02 §4). */
export function RatingSummary({ average, count }: { average: number | null; count: number }) {
  const value = average ?? 0;
  const colour = average === null ? 'dimmed' : badgeColours[ratingColour(average)];
  return (
    <Group gap={6} wrap="wrap" data-testid="rating-summary">
      <Stars
        value={value}
        colour={colour === 'dimmed' ? 'dimmed' : `var(--mantine-color-${colour}-light-color)`}
        label={average === null ? 'Not rated yet' : `Rated ${value.toFixed(1)} out of 5`}
      />
      <Text size="xs" c="dimmed">
        {average === null ? 'No ratings' : value.toFixed(1)} · {count === 1 ? '1 review' : `${count} reviews`}
      </Text>
      <Badge size="sm" variant="light" color="indigo">
        {popularityLabel(count)}
      </Badge>
    </Group>
  );
}
