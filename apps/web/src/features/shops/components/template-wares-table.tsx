import { formatEnUs, type ShopItem } from '@haversack/contracts';
import { Table, Text } from '@mantine/core';
import { templateLineName, UNTOLD_WORTH } from '../../../components/template-line-name';
import { UnavailableLineNote } from '../../../components/unavailable-line-note';
import { usePhone } from '../../../lib/use-phone';
import { askingPriceLabel } from './stock-line';

/**
 * What a shop template stocks: quantity, price and what a restock brings it back to. On a phone the
 * restock goes under the quantity, and only where it differs, so three columns fit without scrolling.
 */
export function TemplateWaresTable({ items }: { items: readonly ShopItem[] }) {
  const phone = usePhone();
  return (
    <Table.ScrollContainer minWidth={phone ? 280 : 420}>
      <Table striped data-testid="template-items">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Item</Table.Th>
            <Table.Th ta="right">Quantity</Table.Th>
            <Table.Th ta="right">Price</Table.Th>
            {phone ? null : <Table.Th ta="right">Restocks to</Table.Th>}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {items.map((item) => {
            const restocksTo = item.restock_quantity ?? item.quantity;
            return (
              <Table.Tr key={item.id} data-testid="template-item">
                <Table.Td>
                  {templateLineName(item.item_template)}
                  <UnavailableLineNote available={item.available} restocks />
                </Table.Td>
                <Table.Td ta="right">
                  {formatEnUs(item.quantity)}
                  {phone && restocksTo !== item.quantity ? (
                    <Text size="xs" c="dimmed" data-testid="template-item-restock">
                      restocks to {restocksTo}
                    </Text>
                  ) : null}
                </Table.Td>
                <Table.Td ta="right">
                  {item.item_template === null ? (
                    UNTOLD_WORTH
                  ) : (
                    <>
                      {askingPriceLabel(item.buy_price_cp)}
                      {item.price_cp !== null ? ' (own price)' : ''}
                    </>
                  )}
                </Table.Td>
                {phone ? null : (
                  <Table.Td ta="right" data-testid="template-item-restock">
                    {restocksTo}
                  </Table.Td>
                )}
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
