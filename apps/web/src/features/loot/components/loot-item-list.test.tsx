import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { restoreViewportAfterEach, setViewport } from '../../../test/viewport';
import { renderWithProviders } from '../../inventory/test/inventory-fixtures';
import {
  buildCoinLootItem,
  buildHiddenLootItem,
  buildLootItem,
  buildLootItemTemplate,
} from '../test/loot-fixtures';
import { LootItemList } from './loot-item-list';

restoreViewportAfterEach();

const potion = buildLootItem({
  id: 'loot-item-potion',
  quantity: 2,
  value_cp: 0,
  item_template: buildLootItemTemplate({
    id: 'potion',
    name: 'Potion of Healing',
    base_value: 0,
    value_cp: 0,
    metadata: { priced: false },
  }),
});
const items = [buildLootItem({ quantity: 2 }), potion, buildCoinLootItem('gp', 250)];

const headers = () => screen.getAllByRole('columnheader').map((header) => header.textContent);
const rowOf = (name: string) =>
  screen.getAllByTestId('loot-item').find((row) => row.textContent?.includes(name)) as HTMLElement;

describe('LootItemList', () => {
  it('lists each line’s price and worth on a desktop, and "Unpriced" where the SRD gives none', () => {
    setViewport(1280, 800);
    renderWithProviders(<LootItemList items={items} totalValueCp={28_000} />);
    expect(headers()).toEqual(['Item', 'Quantity', 'Value each', 'Value']);
    const sword = rowOf('Longsword');
    expect(within(sword).getByTestId('loot-item-each')).toHaveTextContent('15 gp');
    expect(within(sword).getByTestId('loot-item-value')).toHaveTextContent('30 gp');
    const unpriced = rowOf('Potion of Healing');
    expect(within(unpriced).getByTestId('loot-item-each')).toHaveTextContent('Unpriced');
    expect(within(unpriced).getByTestId('loot-item-value')).toHaveTextContent('Unpriced');
    expect(screen.getByTestId('loot-total-value')).toHaveTextContent('280 gp');
  });

  it('gives worth to the copper, as prices are: 3 gp 5 sp is never "3 gp"', () => {
    setViewport(1280, 800);
    const stew = buildLootItem({
      id: 'loot-item-stew',
      quantity: 5,
      value_cp: 70,
      total_value_cp: 350,
      item_template: buildLootItemTemplate({
        id: 'stew',
        name: 'Grim Stew',
        base_value: 7,
        currency: 'sp',
        value_cp: 70,
      }),
    });
    renderWithProviders(<LootItemList items={[stew]} totalValueCp={3_860} />);
    expect(within(rowOf('Grim Stew')).getByTestId('loot-item-each')).toHaveTextContent('7 sp');
    expect(within(rowOf('Grim Stew')).getByTestId('loot-item-value')).toHaveTextContent('3 gp 5 sp');
    expect(screen.getByTestId('loot-total-value')).toHaveTextContent('38 gp 6 sp');
  });

  it('fits three columns on a phone: the price of one goes under the item’s name', () => {
    setViewport(375, 812);
    renderWithProviders(<LootItemList items={items} totalValueCp={28_000} />);
    expect(headers()).toEqual(['Item', 'Quantity', 'Value']);
    const sword = rowOf('Longsword');
    expect(within(sword).getAllByRole('cell')).toHaveLength(3);
    expect(within(sword).getByTestId('loot-item-each')).toHaveTextContent('15 gp each');
    expect(within(sword).getByTestId('loot-item-value')).toHaveTextContent('30 gp');
    const unpriced = rowOf('Potion of Healing');
    expect(within(unpriced).queryByTestId('loot-item-each')).not.toBeInTheDocument();
    expect(within(unpriced).getByTestId('loot-item-value')).toHaveTextContent('Unpriced');
    expect(screen.getByRole('rowheader', { name: 'Total value' })).toHaveAttribute('colspan', '2');
  });

  it('says under a line whose item is gone that deploying leaves it out, and nothing under the others', () => {
    renderWithProviders(<LootItemList items={[buildLootItem(), { ...potion, available: false }]} />);
    expect(within(rowOf('Potion of Healing')).getByTestId('unavailable-line')).toHaveTextContent(
      'No longer available: deploying leaves it out.',
    );
    expect(within(rowOf('Longsword')).queryByTestId('unavailable-line')).not.toBeInTheDocument();
  });

  it('names a line whose item is private to someone else "Private item", and tells no worth of it', () => {
    setViewport(1280, 800);
    renderWithProviders(<LootItemList items={[buildLootItem({ quantity: 2 }), buildHiddenLootItem()]} />);
    const hidden = rowOf('Private item');
    expect(within(hidden).getByTestId('unavailable-line')).toHaveTextContent(
      'No longer available: deploying leaves it out.',
    );
    expect(within(hidden).getByTestId('loot-item-each')).toHaveTextContent('—');
    expect(within(hidden).getByTestId('loot-item-value')).toHaveTextContent('—');
    expect(screen.getByTestId('loot-total-value')).toHaveTextContent('30 gp');
  });
});
