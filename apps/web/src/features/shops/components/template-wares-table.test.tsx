import type { ShopItem } from '@haversack/contracts';
import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../inventory/test/inventory-fixtures';
import { buildLootItemTemplate } from '../../loot/test/loot-fixtures';
import { TemplateWaresTable } from './template-wares-table';

/** happy-dom's own window API: its media queries answer to this viewport (setting innerWidth moves none). */
interface HappyDomWindow {
  happyDOM: { setViewport(viewport: { width: number; height: number }): void };
}
const isHappyDom = (candidate: object): candidate is HappyDomWindow => 'happyDOM' in candidate;
function setViewport(width: number, height: number) {
  if (!isHappyDom(window)) throw new Error('These tests need happy-dom’s viewport.');
  window.happyDOM.setViewport({ width, height });
}
// Test files share a worker: the next one gets the viewport this one started with.
const initial = { width: window.innerWidth, height: window.innerHeight };
afterEach(() => setViewport(initial.width, initial.height));

function ware(
  name: string,
  quantity: number,
  restock: number | null,
  buyCp: number,
  ownCp: number | null = null,
) {
  const template = buildLootItemTemplate({ id: `template-${name}`, name });
  return {
    id: `ware-${name}`,
    shop_template_id: 'shop-template-1',
    item_template_id: template.id,
    item_template: template,
    quantity,
    price_cp: ownCp,
    restock_quantity: restock,
    buy_price_cp: buyCp,
    sell_price_cp: Math.floor(buyCp / 2),
  } satisfies ShopItem;
}
const wares = [ware('Arrow', 200, null, 5), ware('Lantern, hooded', 5, 8, 500, 500)];

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
