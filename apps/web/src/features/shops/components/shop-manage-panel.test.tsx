import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockFetch, success } from '../../../test/fixtures';
import { renderWithProviders } from '../../inventory/test/inventory-fixtures';
import { buildShopInstance } from '../test/shop-fixtures';
import { ShopManagePanel } from './shop-manage-panel';

describe('ShopManagePanel', () => {
  it('gives the next restock as every other date and time in the app, to the minute', async () => {
    const shop = buildShopInstance({ restock_days: 7 });
    mockFetch(({ url }) =>
      url.endsWith('/restock_schedule')
        ? success({
            shop_instance_id: shop.id,
            restock_days: 7,
            label: 'Weekly',
            next_restock_at: '2026-12-03T10:02:29.000Z',
            last_restock_at: null,
          })
        : success({}),
    );
    renderWithProviders(<ShopManagePanel shop={shop} />);
    const expected = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(
      new Date('2026-12-03T10:02:29.000Z'),
    );
    expect(await screen.findByText(new RegExp(`next on ${expected}\\.`))).toBeInTheDocument();
    expect(screen.queryByText(/:29/)).not.toBeInTheDocument();
  });
});
