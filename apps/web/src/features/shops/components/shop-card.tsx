import { type ShopInstanceSummary, type ShopTemplate, shopLocationLabel } from '@haversack/contracts';
import { Button, Card, Group, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconMapPin, IconUser, IconUsersGroup } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import {
  DiscountBadge,
  ModifierBadges,
  OpenBadge,
  RatingSummary,
  RestockBadge,
  ShopTypeBadge,
  StockBadge,
  TagList,
} from './shop-badges';

/**
 * A line of a card (owner, location, party), whole on as many lines as it takes: cut with an ellipsis, a
 * long party name had no way to be read in full (outside sweep), and the party is what tells apart two
 * shops of one name. The icon stays level with the first line.
 */
function Fact({ icon, children }: { icon: ReactNode; children: ReactNode }) {
  return (
    <Group gap={6} wrap="nowrap" align="flex-start">
      <Group
        component="span"
        style={{ flexShrink: 0, height: 'calc(var(--mantine-font-size-sm) * var(--mantine-line-height-sm))' }}
      >
        {icon}
      </Group>
      <Text size="sm" c="dimmed" miw={0}>
        {children}
      </Text>
    </Group>
  );
}

function OwnerAndLocation({ owner, location }: { owner: string; location: string }) {
  if (!owner && !location) return null;
  return (
    <Stack gap={2}>
      {owner ? <Fact icon={<IconUser size={14} aria-hidden="true" />}>{owner}</Fact> : null}
      {location ? (
        <Fact icon={<IconMapPin size={14} aria-hidden="true" />}>{shopLocationLabel(location)}</Fact>
      ) : null}
    </Stack>
  );
}

/** spec/02 §2 shop card of a template: rating, reviews, popularity, restock, modifiers, tags. */
export function ShopTemplateCard({
  template,
  onDeploy,
  deployBlockedBy = null,
}: {
  template: ShopTemplate;
  onDeploy?: (template: ShopTemplate) => void;
  /** The id of what says why Deploy is disabled (no party I may deploy into), or null when it is not. */
  deployBlockedBy?: string | null;
}) {
  return (
    <Card withBorder padding="lg" data-testid="shop-card">
      <Stack gap="sm" h="100%">
        <Title order={2} size="h4" style={{ overflowWrap: 'anywhere' }}>
          {template.display_name}
        </Title>
        <Group gap={6}>
          <ShopTypeBadge type={template.shop_type} />
        </Group>
        <OwnerAndLocation owner={template.display_owner} location={template.display_location} />
        <RatingSummary average={template.average_rating} count={template.ratings_count} />
        <Group gap={6}>
          <StockBadge count={template.items_count} />
          <RestockBadge days={template.default_restock_days} />
        </Group>
        <Group gap={6}>
          <ModifierBadges buyModifier={template.buy_modifier} sellModifier={template.sell_modifier} />
        </Group>
        <TagList tags={template.tag_list} />
        <Group gap="sm" mt="auto" pt="xs">
          <Button
            component={Link}
            to={`/shops/templates/${template.id}`}
            size="sm"
            aria-label={`View Template ${template.display_name}`}
          >
            View Template
          </Button>
          {onDeploy ? (
            <Button
              variant="light"
              size="sm"
              onClick={() => onDeploy(template)}
              aria-label={`Deploy ${template.display_name}`}
              disabled={deployBlockedBy !== null}
              aria-describedby={deployBlockedBy ?? undefined}
            >
              Deploy
            </Button>
          ) : null}
        </Group>
      </Stack>
    </Card>
  );
}

/**
 * spec/02 §2 shop card of a deployed shop: Open/Closed, discount, party name, stock. Its name is a heading one
 * level below the page's or section's (`headingOrder`), drawn at h4 size wherever it is.
 */
export function ShopInstanceCard({
  shop,
  headingOrder = 3,
}: {
  shop: ShopInstanceSummary;
  headingOrder?: 2 | 3;
}) {
  return (
    <Card withBorder padding="lg" data-testid="shop-card">
      <Stack gap="sm" h="100%">
        <Title order={headingOrder} size="h4" style={{ overflowWrap: 'anywhere' }}>
          {shop.name}
        </Title>
        <Group gap={6}>
          <OpenBadge active={shop.is_active} />
          <DiscountBadge rate={shop.discount_rate} />
          <ShopTypeBadge type={shop.shop_type} />
        </Group>
        <OwnerAndLocation owner={shop.owner} location={shop.location} />
        <Fact icon={<IconUsersGroup size={14} aria-hidden="true" />}>{shop.party.name}</Fact>
        <Group gap={6}>
          <StockBadge count={shop.items_count} />
        </Group>
        <Group gap={6}>
          <ModifierBadges buyModifier={shop.buy_modifier} sellModifier={shop.sell_modifier} />
        </Group>
        <TagList tags={shop.tag_list} />
        <Group gap="sm" mt="auto" pt="xs">
          <Button
            component={Link}
            to={`/shops/instances/${shop.id}`}
            size="sm"
            aria-label={`Enter Shop ${shop.name}`}
          >
            Enter Shop
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

/** spec/02 §2 and §9: a 1/2/3-column grid with six skeleton cards while it loads. */
export function ShopCardSkeletons({ count = 6 }: { count?: number }) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md" aria-busy="true" data-testid="shop-skeletons">
      {Array.from({ length: count }, (_, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: static placeholder list
        <Card key={index} withBorder padding="lg" aria-hidden="true" data-testid="shop-skeleton">
          <Stack gap="sm">
            <Skeleton height={20} width="60%" />
            <Skeleton height={12} width="40%" />
            <Skeleton height={12} />
            <Skeleton height={22} width="80%" />
            <Skeleton height={30} width="40%" mt="sm" />
          </Stack>
        </Card>
      ))}
    </SimpleGrid>
  );
}

export function ShopGrid({ children, testId }: { children: ReactNode; testId?: string }) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md" data-testid={testId}>
      {children}
    </SimpleGrid>
  );
}
