import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../inventory/test/inventory-fixtures';
import { buildHiddenShopItem, buildShopItem } from '../test/shop-fixtures';
import { TemplateWaresTable } from './template-wares-table';

describe('TemplateWaresTable', () => {
  it('says under a ware whose item is gone that it is neither deployed nor restocked', () => {
    renderWithProviders(
      <TemplateWaresTable items={[buildShopItem('Rope'), buildShopItem('Old Map', { available: false })]} />,
    );
    const row = (name: string) =>
      screen.getAllByTestId('template-item').find((tr) => tr.textContent?.includes(name)) as HTMLElement;
    expect(within(row('Old Map')).getByTestId('unavailable-line')).toHaveTextContent(
      'No longer available: deploying leaves it out, and shops no longer restock it.',
    );
    expect(within(row('Rope')).queryByTestId('unavailable-line')).not.toBeInTheDocument();
  });

  it('says a ware without a price is unpriced, rather than that it sells for 0 cp', () => {
    renderWithProviders(
      <TemplateWaresTable
        items={[buildShopItem('Wand', { buy_price_cp: null }), buildShopItem('Rope', { buy_price_cp: 150 })]}
      />,
    );
    const row = (name: string) =>
      screen.getAllByTestId('template-item').find((tr) => tr.textContent?.includes(name)) as HTMLElement;
    expect(row('Wand')).toHaveTextContent('Unpriced');
    expect(row('Wand')).not.toHaveTextContent('0 cp');
    expect(row('Rope')).toHaveTextContent('1 gp 5 sp');
  });

  it('names a ware whose item is private to someone else "Private item", with no price', () => {
    renderWithProviders(<TemplateWaresTable items={[buildShopItem('Rope'), buildHiddenShopItem()]} />);
    const hidden = screen.getAllByTestId('template-item')[1] as HTMLElement;
    expect(within(hidden).getAllByRole('cell')[0]).toHaveTextContent(
      'Private itemNo longer available: deploying leaves it out, and shops no longer restock it.',
    );
    expect(within(hidden).getAllByRole('cell')[2]).toHaveTextContent('—');
    expect(hidden).not.toHaveTextContent('Unpriced');
  });
});
