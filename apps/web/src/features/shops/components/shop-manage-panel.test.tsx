import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { mockFetch, success } from '../../../test/fixtures';
import { renderRoutes } from '../../../test/render';
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

  it('goes back to the party’s Shops tab once the shop is deleted', async () => {
    const shop = buildShopInstance({ can_manage: true, pending_requests_count: 2 });
    mockFetch(({ init }) => (init.method === 'DELETE' ? new Response(null, { status: 204 }) : success({})));
    const { router } = renderRoutes(
      [
        { path: '/shops/instances/:id', element: <ShopManagePanel shop={shop} /> },
        { path: '/parties/:id', element: <p>Party page</p> },
      ],
      `/shops/instances/${shop.id}`,
    );
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Delete Shop' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete shop' });
    // The purchases waiting for the GM are named: they go with the shop.
    expect(dialog).toHaveTextContent(
      'The 2 purchases waiting for approval are dropped with it; nobody is charged.',
    );
    await user.click(within(dialog).getByRole('button', { name: /Delete/ }));
    expect(await screen.findByText('Party page')).toBeInTheDocument();
    expect(router.state.location).toMatchObject({
      pathname: `/parties/${shop.party_id}`,
      search: '?tab=shops',
    });
  });
});
