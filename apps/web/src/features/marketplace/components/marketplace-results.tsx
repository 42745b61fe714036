import type { ItemTemplate } from '@haversack/contracts';
import { Anchor, Badge, Button, Group, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { memo } from 'react';
import { Link } from 'react-router';
import { listReset } from '../../../lib/list-reset';
import { RarityBadge } from '../../inventory/components/item-look';
import { rarityOf } from '../../inventory/lib/item-look';
import { TemplateSummary } from '../../items/components/template-summary';
import { ReportButton } from '../../moderation/components/report-button';

interface MarketplaceResultsProps {
  templates: ItemTemplate[];
  /** Where an item's page leads back to: this search, as its address holds it. */
  backTo: string;
  onAdd: (template: ItemTemplate) => void;
  /** The id of the heading that names the list (the page's "Marketplace"). */
  labelledBy?: string;
}

/**
 * One page of results. Memoised: the search fields re-render the page at every key, and 50 cards drawn again
 * each time made typing lag (80–200 ms a key on a desktop); the cards change only when the results do.
 */
export const MarketplaceResults = memo(function MarketplaceResults({
  templates,
  backTo,
  onAdd,
  labelledBy,
}: MarketplaceResultsProps) {
  return (
    // A list, a card an item: a screen reader says how many are on the page and steps from card to card.
    <SimpleGrid
      cols={{ base: 1, sm: 2, lg: 3 }}
      component="ul"
      aria-labelledby={labelledBy}
      style={listReset}
      data-testid="marketplace-results"
    >
      {templates.map((template) => (
        <Paper key={template.id} withBorder p="md" component="li">
          <Stack gap={6} h="100%" justify="space-between">
            <Stack gap={4}>
              <Group justify="space-between" wrap="nowrap" gap="xs">
                <Anchor component={Link} to={`/items/templates/${template.id}`} state={{ backTo }} fw={600}>
                  {template.name}
                </Anchor>
                {template.is_system ? (
                  <Badge variant="light" color="gray" style={{ flexShrink: 0 }}>
                    SRD
                  </Badge>
                ) : null}
              </Group>
              <TemplateSummary template={template} />
              {template.is_system ? null : <PlayerMade template={template} />}
            </Stack>
            <Group justify="space-between" gap="xs">
              <Button
                size="xs"
                variant="light"
                // 44 px on a phone: the card's one action, tapped once per item a new character needs.
                className="haversack-finger-target"
                onClick={() => onAdd(template)}
                // WCAG 2.5.3: the visible words first, then the item, as "Make Game Master: {name}" does; not
                // "my container", since a GM without a character adds to a party character's container.
                aria-label={`Add to Container: ${template.name}`}
              >
                Add to Container
              </Button>
              {template.visibility === 'public' && !template.is_owner && !template.is_system ? (
                <ReportButton
                  size="xs"
                  targetType="item_template"
                  targetId={template.id}
                  targetName={template.name}
                />
              ) : null}
            </Group>
          </Stack>
        </Paper>
      ))}
    </SimpleGrid>
  );
});

/** A player's template: its rarity and who made it, as its page shows them (the SRD's say "SRD" instead). */
function PlayerMade({ template }: { template: ItemTemplate }) {
  const rarity = rarityOf(template.metadata);
  if (!rarity && !template.creator_name) return null;
  return (
    <Group gap={6}>
      {rarity ? <RarityBadge rarity={rarity} size="xs" /> : null}
      {template.creator_name ? (
        <Text size="xs" c="dimmed">
          By {template.creator_name}
        </Text>
      ) : null}
    </Group>
  );
}
