import { type ItemTemplate, inventoryMessages } from '@haversack/contracts';
import { Text } from '@mantine/core';
import { formatCount } from '../../../lib/format';
import { formatWeight } from '../../../lib/weight';
import { tagLabel } from '../../inventory/lib/item-look';

/** "15 gp"; the SRD gives some items no price (a Sun Blade), and those say so rather than "0 gp". */
export function templatePrice(template: Pick<ItemTemplate, 'base_value' | 'currency' | 'metadata'>): string {
  return template.metadata.priced === false
    ? inventoryMessages.unpriced
    : `${formatCount(template.base_value)} ${template.currency}`;
}

/** "3 lbs · 15 gp · stacks of 20 · Weapon". */
export function templateSummary(template: ItemTemplate): string {
  const stack =
    template.stack_size === 0
      ? 'stacks without limit'
      : template.stack_size > 1
        ? `stacks of ${formatCount(template.stack_size)}`
        : null;
  return [
    formatWeight(template.weight),
    templatePrice(template),
    stack,
    template.category ? tagLabel(template.category) : null,
  ]
    .filter(Boolean)
    .join(' · ');
}

export function TemplateSummary({ template }: { template: ItemTemplate }) {
  return (
    <Text size="sm" c="dimmed">
      {templateSummary(template)}
    </Text>
  );
}
