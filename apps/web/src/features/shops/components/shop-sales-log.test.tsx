import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { jsonResponse, mockFetch } from '../../../test/fixtures';
import { renderWithProviders } from '../../inventory/test/inventory-fixtures';
import { shopKeys } from '../api/shops-api';
import { ShopSalesLog } from './shop-sales-log';

const named = (name: string | null) => ({ id: name ? `${name}-id` : null, name });

function row(type: 'purchase' | 'sale', item: string, quantity: number, amount: number, actor: string) {
  return {
    id: `${type}-${item}`,
    transaction_type: type,
    transaction_date: new Date().toISOString(),
    transaction_summary: '',
    actor_data: named(actor),
    target_data: named('Vex Nightwhisper'),
    transactable_data: { ...named(item), item_instance_id: null },
    quantity,
    amount,
    currency: 'cp',
    notes: null,
    source_location_data: named(null),
    destination_location_data: named(null),
    party_id: 'party-1',
    character_id: 'character-1',
    source: 'web',
  };
}

const meta = (count: number) => ({ current_page: 1, total_pages: 1, total_count: count, per_page: 20 });

describe('ShopSalesLog', () => {
  it('lists who bought or sold what for how much, naming the GM who approved', async () => {
    mockFetch(() =>
      jsonResponse(200, {
        status: 'success',
        data: {
          transactions: [
            row('purchase', 'Backpack', 1, 180, 'gm_marta'),
            row('sale', 'Dagger', 1, 100, 'vex'),
          ],
        },
        meta: meta(2),
      }),
    );
    renderWithProviders(<ShopSalesLog shopId="shop-1" />);
    const rows = await screen.findAllByTestId('shop-sale');
    expect(rows[0]).toHaveTextContent('Bought1 × Backpack');
    expect(rows[0]).toHaveTextContent('Vex Nightwhisper · by gm_marta');
    expect(rows[0]).toHaveTextContent('1 gp 8 sp');
    expect(rows[1]).toHaveTextContent('Sold1 × Dagger');
    expect(rows[1]).toHaveTextContent('1 gp');
  });

  it('says so when the shop has not traded yet', async () => {
    mockFetch(() => jsonResponse(200, { status: 'success', data: { transactions: [] }, meta: meta(0) }));
    renderWithProviders(<ShopSalesLog shopId="shop-1" />);
    expect(await screen.findByTestId('sales-empty')).toHaveTextContent('No sales yet');
  });
});

describe('ShopSalesLog: the trades as a list', () => {
  it('reads the trades as a list named "Sales log", a line a trade, and says it is loading', async () => {
    let answer: (response: Response) => void = () => {};
    mockFetch(
      () =>
        new Promise<Response>((resolve) => {
          answer = resolve;
        }),
    );
    renderWithProviders(<ShopSalesLog shopId="shop-1" />);
    expect(await screen.findByRole('status')).toHaveTextContent('Loading the sales log');
    answer(
      jsonResponse(200, {
        status: 'success',
        data: {
          transactions: [
            row('purchase', 'Backpack', 1, 180, 'gm_marta'),
            row('sale', 'Dagger', 1, 100, 'vex'),
          ],
        },
        meta: meta(2),
      }),
    );
    const log = await screen.findByRole('list', { name: 'Sales log' });
    const trades = within(log).getAllByRole('listitem');
    expect(trades.map((trade) => trade.textContent)).toEqual([
      expect.stringContaining('Backpack'),
      expect.stringContaining('Dagger'),
    ]);
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });
});

describe('ShopSalesLog on a slow or dropped connection', () => {
  it('keeps the trades on screen when a refresh fails, with a note', async () => {
    let connected = true;
    mockFetch(() => {
      if (!connected) throw new TypeError('Failed to fetch');
      return jsonResponse(200, {
        status: 'success',
        data: { transactions: [row('sale', 'Dagger', 1, 100, 'vex')] },
        meta: meta(1),
      });
    });
    const { queryClient } = renderWithProviders(<ShopSalesLog shopId="shop-1" />);
    expect(await screen.findAllByTestId('shop-sale')).toHaveLength(1);
    connected = false;
    await queryClient.refetchQueries({ queryKey: shopKeys.instance('shop-1') });
    await waitFor(() => expect(screen.getByTestId('refresh-failed-note')).toBeVisible(), { timeout: 5_000 });
    expect(screen.getAllByTestId('shop-sale')).toHaveLength(1);
    expect(screen.queryByText('Could not load the sales log')).not.toBeInTheDocument();
  }, 20_000);
});
