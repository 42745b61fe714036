import { type LootInstanceSummary, lootMessages } from '@haversack/contracts';
import {
  Badge,
  Button,
  Card,
  Group,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  Title,
  useComputedColorScheme,
  VisuallyHidden,
} from '@mantine/core';
import { IconCoins, IconMapPin, IconSkull } from '@tabler/icons-react';
import { type ReactNode, useId } from 'react';
import { Link } from 'react-router';
import { LootManageActions } from './loot-instance-actions';
import { distributedLine, lootContentsLabel } from './loot-instance-format';

function Fact({ icon, label, children }: { icon: ReactNode; label: string; children: ReactNode }) {
  return (
    <Group gap={6} wrap="nowrap" style={{ minWidth: 0 }}>
      {icon}
      <Text size="sm" c="dimmed" truncate>
        <VisuallyHidden>{label}: </VisuallyHidden>
        {children}
      </Text>
    </Group>
  );
}

/** The "Hidden" badge of loot the players cannot see yet (spec/02 §2). */
export function HiddenBadge() {
  return (
    // Never squeezed by a long loot name beside it (it read "H." on a phone).
    <Badge color="gray" variant="outline" data-testid="loot-hidden-badge" style={{ flexShrink: 0 }}>
      {lootMessages.hiddenBadge}
    </Badge>
  );
}

/**
 * The badge of loot the players can see and that is not distributed yet (distributed loot says so below,
 * with when): in the Hidden badge's place, so every loot card says where it stands.
 */
export function RevealedBadge() {
  // Teal's usual shade is too pale for small text on white: a darker one on light, a lighter one on dark.
  const dark = useComputedColorScheme('light') === 'dark';
  return (
    <Badge
      color={dark ? 'teal.3' : 'teal.9'}
      variant="outline"
      data-testid="loot-revealed-badge"
      style={{ flexShrink: 0 }}
    >
      {lootMessages.revealedBadge}
    </Badge>
  );
}

/** Where the loot came from and where it lies: instance_data.location_name (spec/02 §2). */
export function LootFacts({ loot }: { loot: Pick<LootInstanceSummary, 'source' | 'instance_data'> }) {
  const location = loot.instance_data.location_name;
  if (!loot.source && !location) return null;
  return (
    <Stack gap={2}>
      {loot.source ? (
        <Fact icon={<IconSkull size={14} aria-hidden="true" />} label="Source">
          {loot.source}
        </Fact>
      ) : null}
      {location ? (
        <Fact icon={<IconMapPin size={14} aria-hidden="true" />} label="Location">
          {location}
        </Fact>
      ) : null}
    </Stack>
  );
}

/**
 * spec/02 §2 loot card of the party's Loot tab: name, Hidden badge, description, source and location,
 * what it holds, and View Loot Contents. The GM also reveals, hides and deletes it here; other members
 * never see hidden details (the server does not even send hidden loot to them).
 */
export function LootCard({
  loot,
  manageable,
  onDeleted,
}: {
  loot: LootInstanceSummary;
  manageable: boolean;
  onDeleted?: () => void;
}) {
  const titleId = useId();
  const veiled = !loot.is_revealed && !loot.can_manage;
  const distributed = distributedLine(loot);
  return (
    <Card
      withBorder
      padding="lg"
      component="article"
      aria-labelledby={titleId}
      data-testid="loot-card"
      data-loot-id={loot.id}
    >
      <Stack gap="sm" h="100%">
        <Group gap="xs" justify="space-between" align="flex-start" wrap="nowrap">
          <Title order={3} size="h4" id={titleId} style={{ overflowWrap: 'anywhere' }}>
            {loot.name}
          </Title>
          {!loot.is_revealed ? <HiddenBadge /> : distributed ? null : <RevealedBadge />}
        </Group>
        {veiled ? (
          <Text size="sm" c="dimmed" fs="italic">
            {lootMessages.notRevealed}
          </Text>
        ) : (
          <>
            {loot.description ? (
              <Text size="sm" lineClamp={3}>
                {loot.description}
              </Text>
            ) : null}
            <LootFacts loot={loot} />
            <Group gap={6} wrap="nowrap">
              <IconCoins size={14} aria-hidden="true" />
              {/* Units, not the server's items_count (kinds, coins too); the list sends no stacks to count. */}
              <Text size="sm" data-testid="loot-card-contents">
                {lootContentsLabel(loot.item_units, loot.total_value_cp, loot.coin_units)}
              </Text>
            </Group>
            {distributed ? (
              <Badge
                color="teal"
                variant="light"
                data-testid="loot-distributed"
                // The date is the line's point: on a narrow card it wraps rather than ending in "…".
                styles={{ root: { maxWidth: '100%', height: 'auto' }, label: { whiteSpace: 'normal' } }}
              >
                {distributed}
              </Badge>
            ) : null}
          </>
        )}
        <Stack gap="xs" mt="auto" pt="xs">
          {veiled ? null : (
            <Button
              component={Link}
              to={`/loot/instances/${loot.id}`}
              size="sm"
              variant="light"
              aria-label={`${lootMessages.viewContents}: ${loot.name}`}
              style={{ alignSelf: 'flex-start' }}
            >
              {lootMessages.viewContents}
            </Button>
          )}
          {manageable && loot.can_manage ? <LootManageActions loot={loot} onDeleted={onDeleted} /> : null}
        </Stack>
      </Stack>
    </Card>
  );
}

/** spec/02 §9: six placeholder cards in the 1/2/3-column grid while the party's loot loads. */
export function LootCardSkeletons({ count = 6 }: { count?: number }) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md" aria-busy="true" data-testid="loot-skeletons">
      {Array.from({ length: count }, (_, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: static placeholder list
        <Card key={index} withBorder padding="lg" aria-hidden="true" data-testid="loot-skeleton">
          <Stack gap="sm">
            <Skeleton height={20} width="60%" />
            <Skeleton height={12} />
            <Skeleton height={12} width="40%" />
            <Skeleton height={12} width="50%" />
            <Skeleton height={30} width="45%" mt="sm" />
          </Stack>
        </Card>
      ))}
    </SimpleGrid>
  );
}
