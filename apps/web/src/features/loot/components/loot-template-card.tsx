import { type LootSourceType, type LootTemplate, lootSourceTypeNames } from '@haversack/contracts';
import {
  Badge,
  Box,
  Button,
  Card,
  Group,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  Title,
  Tooltip,
} from '@mantine/core';
import {
  IconBox,
  IconCoins,
  IconScript,
  IconSkull,
  IconSparkles,
  IconSwords,
  IconUser,
} from '@tabler/icons-react';
import type { ComponentType, ReactNode } from 'react';
import { Link } from 'react-router';
import { lootContentsLabel } from './loot-instance-format';

/** The most tags a card shows before "+N more" (as the shop cards do, spec/02 §9). */
const CARD_MAX_TAGS = 3;

const sourceTypeIcons: Record<
  LootSourceType,
  ComponentType<{ size?: number; 'aria-hidden'?: boolean | 'true' }>
> = {
  monster: IconSkull,
  hoard: IconCoins,
  container: IconBox,
  quest: IconScript,
  encounter: IconSwords,
  custom: IconSparkles,
};

export function LootSourceTypeBadge({ type }: { type: LootSourceType }) {
  const Icon = sourceTypeIcons[type];
  return (
    <Badge variant="light" color="grape" leftSection={<Icon size={12} aria-hidden="true" />}>
      {lootSourceTypeNames[type]}
    </Badge>
  );
}

const visibilityNames = { private: 'Private', unlisted: 'Unlisted', public: 'Public' } as const;

/**
 * What kind of template it is: the seeded catalogue ones say so; my own say who may see them. Filled gray
 * keeps AA contrast in both colour schemes.
 */
export function LootTemplateBadges({ template }: { template: LootTemplate }) {
  return (
    <Group gap={6}>
      <LootSourceTypeBadge type={template.source_type} />
      {template.is_system ? (
        <Badge variant="filled" color="gray.7" data-testid="catalogue-badge">
          Catalogue
        </Badge>
      ) : null}
      {template.is_owner && !template.is_system ? (
        <Badge variant="outline" color="gray" data-testid="visibility-badge">
          {visibilityNames[template.visibility]}
        </Badge>
      ) : null}
    </Group>
  );
}

/** A loot template's tags; on a card at most three, then "+N more" with the rest in a tooltip. */
export function LootTagList({ tags, max }: { tags: readonly string[]; max?: number }) {
  if (tags.length === 0) return null;
  const shown = max === undefined ? tags : tags.slice(0, max);
  const rest = tags.length - shown.length;
  return (
    <Group gap={4} role="group" aria-label="Tags" data-testid="loot-tags">
      {shown.map((tag) => (
        <Badge key={tag} size="sm" variant="dot" color="gray">
          {tag}
        </Badge>
      ))}
      {rest > 0 ? (
        <Tooltip label={tags.slice(shown.length).join(', ')}>
          <Badge size="sm" variant="transparent" color="gray" tabIndex={0}>
            +{rest} more
          </Badge>
        </Tooltip>
      ) : null}
    </Group>
  );
}

/**
 * One line of the card, wrapped rather than cut: in a third of 1280 px, "6 items and 15,600 coins · 19,800 gp"
 * lost its worth to an ellipsis.
 */
function Fact({ icon, children }: { icon: ReactNode; children: ReactNode }) {
  return (
    <Group gap={6} wrap="nowrap" align="flex-start">
      <Box component="span" lh={0} pt={3}>
        {icon}
      </Box>
      <Text size="sm" c="dimmed" miw={0} style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </Group>
  );
}

/** A loot template in the list: name, kind, who carried it, item count, worth, tags; View and Deploy. */
export function LootTemplateCard({
  template,
  href,
  onDeploy,
  deployBlockedBy = null,
}: {
  template: LootTemplate;
  /** Where View goes (the list keeps ?party_id on it). */
  href?: string;
  onDeploy?: (template: LootTemplate) => void;
  /** The id of what says why Deploy is disabled (no party I may deploy into), or null when it is not. */
  deployBlockedBy?: string | null;
}) {
  return (
    <Card withBorder padding="lg" data-testid="loot-template-card">
      <Stack gap="sm" h="100%">
        <Title order={2} size="h4" style={{ overflowWrap: 'anywhere' }}>
          {template.name}
        </Title>
        <LootTemplateBadges template={template} />
        {template.source ? (
          <Fact icon={<IconUser size={14} aria-hidden="true" />}>{template.source}</Fact>
        ) : null}
        {/* Counted as the card of a loot deployed from it counts: items and coins by the unit, and the worth. */}
        <Fact icon={<IconCoins size={14} aria-hidden="true" />}>
          <span data-testid="loot-template-contents">
            {lootContentsLabel(template.item_units, template.total_value_cp, template.coin_units)}
          </span>
        </Fact>
        <LootTagList tags={template.tag_list} max={CARD_MAX_TAGS} />
        <Group gap="sm" mt="auto" pt="xs">
          <Button
            component={Link}
            to={href ?? `/loot/templates/${template.id}`}
            size="sm"
            aria-label={`View ${template.name}`}
          >
            View
          </Button>
          {onDeploy ? (
            <Button
              variant="light"
              size="sm"
              onClick={() => onDeploy(template)}
              aria-label={`Deploy ${template.name}`}
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

/** A 1/2/3-column grid with six skeleton cards while the list loads. */
export function LootTemplateCardSkeletons({ count = 6 }: { count?: number }) {
  return (
    <SimpleGrid
      cols={{ base: 1, sm: 2, lg: 3 }}
      spacing="md"
      aria-busy="true"
      aria-label="Loading loot templates"
      data-testid="loot-template-skeletons"
    >
      {Array.from({ length: count }, (_, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: static placeholder list
        <Card key={index} withBorder padding="lg" aria-hidden="true" data-testid="loot-template-skeleton">
          <Stack gap="sm">
            <Skeleton height={20} width="60%" />
            <Skeleton height={18} width="40%" />
            <Skeleton height={12} width="50%" />
            <Skeleton height={12} width="70%" />
            <Skeleton height={30} width="40%" mt="sm" />
          </Stack>
        </Card>
      ))}
    </SimpleGrid>
  );
}

export function LootTemplateGrid({ children }: { children: ReactNode }) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md" data-testid="loot-templates">
      {children}
    </SimpleGrid>
  );
}
