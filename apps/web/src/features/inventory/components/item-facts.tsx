import {
  formatEnUs,
  formatStackWorth,
  type ItemInstance,
  inventoryMessages,
  isUnpricedItem,
} from '@haversack/contracts';
import { Badge, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { formatStackWeight } from '../../../lib/weight';
import { itemIcon, rarityOf, tagLabels } from '../lib/item-look';
import type { ItemAbout } from '../workspace-types';
import { ItemDescription } from './item-description';
import { GameIcon, ItemStatusBadges, RarityBadge } from './item-look';

function Fact({ label, value }: { label: string; value: string }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
        {label}
      </Text>
      <Text size="sm">{value}</Text>
    </Stack>
  );
}

/**
 * spec/02 §3: total weight in lbs with one decimal (more where they count, as the weight is kept), and the weight of one
 * with the same decimals ("3.0 lbs" beside "3.0 lbs", not "3 lbs"); values with their thousands grouped.
 */
export function ItemFacts({ item, about = null }: { item: ItemInstance; about?: ItemAbout | null }) {
  const rarity = rarityOf(item.item_template.metadata);
  const tags = tagLabels(item.tags);
  // The item's own description where it has one, else its template's (read with the stack's detail).
  const override = item.instance_data.description_override;
  const description = typeof override === 'string' && override.trim() ? override : (about?.description ?? '');
  const templateId = about?.templateId ?? null;
  const unpriced = isUnpricedItem(item);
  return (
    <Stack gap="sm">
      <Group gap="xs">
        <GameIcon name={itemIcon(item.item_template)} size={32} />
        {rarity ? <RarityBadge rarity={rarity} size="md" /> : null}
        <ItemStatusBadges item={item} size="md" />
      </Group>
      <SimpleGrid cols={{ base: 2, xs: 3 }} spacing="sm">
        <Fact label="Quantity" value={formatEnUs(item.quantity)} />
        <Fact label="Weight each" value={formatStackWeight(item.weight, 1)} />
        <Fact label="Total weight" value={formatStackWeight(item.weight, item.quantity)} />
        <Fact
          label="Value each"
          value={unpriced ? inventoryMessages.unpriced : `${formatEnUs(item.value)} ${item.currency}`}
        />
        <Fact
          label="Total value"
          value={unpriced ? inventoryMessages.unpriced : formatStackWorth(item.value_cp * item.quantity)}
        />
        <Fact
          label="Stack size"
          value={item.item_template.stack_size === 0 ? 'Unlimited' : String(item.item_template.stack_size)}
        />
      </SimpleGrid>
      {description || templateId ? <ItemDescription text={description} templateId={templateId} /> : null}
      {tags.length > 0 ? (
        <Group gap={6} role="group" aria-label="Tags">
          {tags.map((tag) => (
            <Badge key={tag} variant="outline" color="gray" tt="none">
              {tag}
            </Badge>
          ))}
        </Group>
      ) : null}
      {item.notes ? (
        <Text size="sm" c="dimmed">
          {item.notes}
        </Text>
      ) : null}
    </Stack>
  );
}
