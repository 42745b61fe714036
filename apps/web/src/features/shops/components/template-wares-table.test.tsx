import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { restoreViewportAfterEach, setViewport } from '../../../test/viewport';
import { renderWithProviders } from '../../inventory/test/inventory-fixtures';
import { buildShopItem } from '../test/shop-fixtures';
import { TemplateWaresTable } from './template-wares-table';

restoreViewportAfterEach();

const wares = [
  buildShopItem('Arrow', { quantity: 200, buy_price_cp: 5 }),
  buildShopItem('Lantern, hooded', { quantity: 5, restock_quantity: 8, buy_price_cp: 500, price_cp: 500 }),
];

const headers = () => screen.getAllByRole('columnheader').map((header) => header.textContent);
const rowOf = (name: string) =>
  screen.getAllByTestId('template-item').find((row) => row.textContent?.includes(name)) as HTMLElement;

describe('TemplateWaresTable', () => {
  it('shows quantity, price and what a restock brings each ware back to on a desktop', () => {
    setViewport(1280, 800);
    renderWithProviders(<TemplateWaresTable items={wares} />);
    expect(headers()).toEqual(['Item', 'Quantity', 'Price', 'Restocks to']);
    expect(
      within(rowOf('Arrow'))
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['Arrow', '200', '5 cp', '200']);
    expect(within(rowOf('Lantern')).getByTestId('template-item-restock')).toHaveTextContent('8');
    expect(rowOf('Lantern')).toHaveTextContent('5 gp (own price)');
  });

  it('fits three columns on a phone, the restock under the quantity where it differs', () => {
    setViewport(375, 812);
    renderWithProviders(<TemplateWaresTable items={wares} />);
    expect(headers()).toEqual(['Item', 'Quantity', 'Price']);
    expect(within(rowOf('Arrow')).getAllByRole('cell')).toHaveLength(3);
    expect(within(rowOf('Arrow')).queryByTestId('template-item-restock')).not.toBeInTheDocument();
    expect(within(rowOf('Lantern')).getByTestId('template-item-restock')).toHaveTextContent('restocks to 8');
  });
});
