import { formatCopper, type LootItem, saturatingSum } from '@haversack/contracts';
import { Center, Group, Table, Text } from '@mantine/core';
import { IconCoins } from '@tabler/icons-react';
import { templateLineName, UNTOLD_WORTH } from '../../../components/template-line-name';
import { UnavailableLineNote } from '../../../components/unavailable-line-note';
import { formatCount } from '../../../lib/format';
import { usePhone } from '../../../lib/use-phone';

/** A coin line reads as a purse does ("250 gp"); any other line by its item's name. */
export function lootItemLabel(item: LootItem): string {
  return item.coin ? `${formatCount(item.quantity)} ${item.coin}` : templateLineName(item.item_template);
}

/** The name a control of this line is read out by ("Quantity of Longsword", "Remove gp coins"). */
export function lootItemName(item: LootItem): string {
  return item.coin ? `${item.coin} coins` : templateLineName(item.item_template);
}

/** What the lines are worth to the reader: a line whose worth is not told counts nothing, as on the server. */
export function lootItemsTotalCp(items: readonly LootItem[]): number {
  return saturatingSum(items.map((item) => item.total_value_cp ?? 0));
}

/** The SRD gives magic items no price: "Unpriced", not "0 gp" (as the item's own page says). */
const isUnpriced = (item: LootItem) => item.item_template?.metadata.priced === false;

/**
 * A line's worth as the table shows it: "Unpriced" where the SRD gives none, a dash where it is not told
 * (the item is private to someone else).
 */
export function lootWorthLabel(item: LootItem, valueCp: number | null): string {
  if (valueCp === null) return UNTOLD_WORTH;
  return isUnpriced(item) ? 'Unpriced' : formatCopper(valueCp);
}

/**
 * Read-only: what a loot template holds, each line's worth, and the whole. On a phone the price of one
 * goes under the item's name, so the three columns left fit the screen without scrolling sideways.
 */
export function LootItemList({ items, totalValueCp }: { items: readonly LootItem[]; totalValueCp?: number }) {
  const phone = usePhone();
  if (items.length === 0) {
    return (
      <Center py="md">
        <Text c="dimmed" size="sm">
          This loot template has no items yet.
        </Text>
      </Center>
    );
  }
  return (
    <Table.ScrollContainer minWidth={phone ? 280 : 360}>
      <Table striped data-testid="loot-items">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Item</Table.Th>
            <Table.Th ta="right">Quantity</Table.Th>
            {phone ? null : <Table.Th ta="right">Value each</Table.Th>}
            <Table.Th ta="right">Value</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {items.map((item) => {
            // On a phone the price of one is said only where there is one to say.
            const priced = !isUnpriced(item) && item.value_cp !== null;
            const each = lootWorthLabel(item, item.value_cp);
            return (
              <Table.Tr key={item.id} data-testid="loot-item">
                <Table.Td>
                  {item.coin ? (
                    <Group gap={6} wrap="nowrap">
                      <IconCoins size={16} aria-hidden="true" />
                      <Text size="sm" fw={600}>
                        {lootItemLabel(item)}
                      </Text>
                    </Group>
                  ) : (
                    lootItemLabel(item)
                  )}
                  <UnavailableLineNote available={item.available} />
                  {phone && priced ? (
                    <Text size="xs" c="dimmed" data-testid="loot-item-each">
                      {each} each
                    </Text>
                  ) : null}
                </Table.Td>
                <Table.Td ta="right">{formatCount(item.quantity)}</Table.Td>
                {phone ? null : (
                  <Table.Td ta="right" data-testid="loot-item-each">
                    {each}
                  </Table.Td>
                )}
                <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }} data-testid="loot-item-value">
                  {lootWorthLabel(item, item.total_value_cp)}
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
        <Table.Tfoot>
          <Table.Tr>
            <Table.Th scope="row" colSpan={phone ? 2 : 3}>
              Total value
            </Table.Th>
            <Table.Td ta="right" fw={700} style={{ whiteSpace: 'nowrap' }} data-testid="loot-total-value">
              {formatCopper(totalValueCp ?? lootItemsTotalCp(items))}
            </Table.Td>
          </Table.Tr>
        </Table.Tfoot>
      </Table>
    </Table.ScrollContainer>
  );
}
