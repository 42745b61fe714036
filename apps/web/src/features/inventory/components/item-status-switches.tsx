import { type ItemInstance, isAttunable } from '@haversack/contracts';
import { Group, Switch, Text } from '@mantine/core';
import { isAttuned, isEquipped, useItemStatus } from '../hooks/use-item-status';

/**
 * Equipped and Attuned in the item dialog. Attuned is offered only for items that require attunement (or
 * that are attuned already, so that it can end); the server keeps the SRD's limit of three.
 */
export function ItemStatusSwitches({ item }: { item: ItemInstance }) {
  const status = useItemStatus(item);
  // Coins are carried, never worn or attuned.
  if (item.item_template.coin !== null) return null;
  const attuned = isAttuned(item);
  const attunable = attuned || isAttunable(item.item_template);
  return (
    <Group gap="lg">
      <Switch
        label="Equipped"
        checked={isEquipped(item)}
        disabled={status.isPending}
        onChange={(event) => status.mutate({ is_equipped: event.currentTarget.checked })}
      />
      {attunable ? (
        <Switch
          label="Attuned"
          checked={attuned}
          disabled={status.isPending}
          onChange={(event) => status.mutate({ is_attuned: event.currentTarget.checked })}
        />
      ) : (
        <Text size="xs" c="dimmed">
          Does not require attunement
        </Text>
      )}
    </Group>
  );
}
