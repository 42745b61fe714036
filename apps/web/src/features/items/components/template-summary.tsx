import type { ItemTemplate } from '@haversack/contracts';
import { Text } from '@mantine/core';

/** "3 lb · 15 gp · stacks of 20 · martial". */
export function templateSummary(template: ItemTemplate): string {
  const stack =
    template.stack_size === 0
      ? 'stacks without limit'
      : template.stack_size > 1
        ? `stacks of ${template.stack_size}`
        : null;
  return [`${template.weight} lb`, `${template.base_value} ${template.currency}`, stack, template.category]
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
