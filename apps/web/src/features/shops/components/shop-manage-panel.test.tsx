import { shopMessages, shopPricingNotes } from '@haversack/contracts';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { mockFetch, success } from '../../../test/fixtures';
import { renderRoutes } from '../../../test/render';
import { renderWithProviders } from '../../inventory/test/inventory-fixtures';
import { buildShopInstance } from '../test/shop-fixtures';
import { freeShopWarning } from './discount-input';
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

  it('says beside the modifiers that the shop never pays more for an item than it asks', async () => {
    mockFetch(() => success({}));
    renderWithProviders(<ShopManagePanel shop={buildShopInstance({ can_manage: true })} />);
    await screen.findByRole('textbox', { name: /Sell modifier/ });
    expect(screen.getByTestId('sell-cap-note')).toHaveTextContent(shopPricingNotes.sellCap);
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

  describe('prices, payment and restock', () => {
    function serveManage(shop = buildShopInstance({ can_manage: true })) {
      return mockFetch(({ url, init }) => {
        if (init.method === 'PATCH') {
          const change = JSON.parse(String(init.body)).shop_instance;
          return success({ ...shop, ...change, updated_at: '2026-02-01T00:00:00.000Z' });
        }
        if (url.endsWith('/restock_schedule'))
          return success({
            shop_instance_id: shop.id,
            restock_days: null,
            label: 'Never',
            next_restock_at: null,
            last_restock_at: null,
          });
        return success({});
      });
    }
    const patches = (fetchMock: { mock: { calls: unknown[][] } }) =>
      fetchMock.mock.calls
        .filter(([, init]) => (init as RequestInit).method === 'PATCH')
        .map(([, init]) => JSON.parse(String((init as RequestInit).body)).shop_instance);

    it('keeps a discount above 100 % as typed, says why and saves nothing', async () => {
      const fetchMock = serveManage();
      const user = userEvent.setup();
      renderWithProviders(<ShopManagePanel shop={buildShopInstance({ can_manage: true })} />);
      const discount = await screen.findByRole('textbox', { name: 'Discount (%)' });
      await user.clear(discount);
      await user.type(discount, '150');
      await user.tab();
      expect(discount).toHaveValue('150');
      expect(discount).toHaveAccessibleDescription(shopMessages.discountRange);
      await user.click(screen.getByRole('button', { name: 'Save Changes' }));
      expect(patches(fetchMock)).toEqual([]);
    });

    it('warns that a 100 % discount makes everything free, and saves it when meant', async () => {
      const fetchMock = serveManage();
      const user = userEvent.setup();
      renderWithProviders(<ShopManagePanel shop={buildShopInstance({ can_manage: true })} />);
      const discount = await screen.findByRole('textbox', { name: 'Discount (%)' });
      await user.clear(discount);
      await user.type(discount, '100');
      expect(discount).toHaveAccessibleDescription(freeShopWarning);
      await user.click(screen.getByRole('button', { name: 'Save Changes' }));
      await vi.waitFor(() => expect(patches(fetchMock)).toHaveLength(1));
      expect(patches(fetchMock)[0]).toMatchObject({ discount_rate: 1 });
    });

    it('shows a discount to the hundredth and saves it unchanged', async () => {
      const fetchMock = serveManage();
      const user = userEvent.setup();
      renderWithProviders(
        <ShopManagePanel shop={buildShopInstance({ can_manage: true, discount_rate: 0.125 })} />,
      );
      // Rounded to 13 and saved with another change, the discount grew without anyone asking.
      expect(await screen.findByRole('textbox', { name: 'Discount (%)' })).toHaveValue('12.5');
      await user.click(screen.getByRole('button', { name: 'Save Changes' }));
      await vi.waitFor(() => expect(patches(fetchMock)).toHaveLength(1));
      expect(patches(fetchMock)[0]).toMatchObject({ discount_rate: 0.125 });
    });

    it('refuses an empty or out-of-range modifier instead of saving it as something else', async () => {
      const fetchMock = serveManage();
      const user = userEvent.setup();
      renderWithProviders(<ShopManagePanel shop={buildShopInstance({ can_manage: true })} />);
      const buy = await screen.findByRole('textbox', { name: 'Buy modifier' });
      await user.clear(buy);
      await user.tab();
      // Sent as Number('') = 0, an empty buy modifier priced every line at 0 cp.
      expect(buy).toHaveAccessibleDescription(/Buy modifier must be between 0 and 10/);
      const sell = screen.getByRole('textbox', { name: 'Sell modifier' });
      await user.clear(sell);
      await user.type(sell, '12');
      await user.tab();
      expect(sell).toHaveValue('12');
      expect(sell).toHaveAccessibleDescription(/Sell modifier must be between 0 and 10/);
      await user.click(screen.getByRole('button', { name: 'Save Changes' }));
      expect(patches(fetchMock)).toEqual([]);
    });

    it('refuses an approval threshold above the largest price, with the contract’s words', async () => {
      const fetchMock = serveManage();
      const user = userEvent.setup();
      renderWithProviders(<ShopManagePanel shop={buildShopInstance({ can_manage: true })} />);
      const threshold = await screen.findByRole('textbox', {
        name: 'Ask me to approve purchases above (gp)',
      });
      await user.type(threshold, '9000001');
      await user.tab();
      expect(threshold).toHaveValue('9000001');
      expect(threshold).toHaveAccessibleDescription(/A price can be at most 9,000,000 gp/);
      await user.click(screen.getByRole('button', { name: 'Save Changes' }));
      expect(patches(fetchMock)).toEqual([]);
    });

    it('keeps an approval threshold as typed, to the copper', async () => {
      const fetchMock = serveManage();
      const user = userEvent.setup();
      renderWithProviders(<ShopManagePanel shop={buildShopInstance({ can_manage: true })} />);
      const threshold = await screen.findByRole('textbox', {
        name: 'Ask me to approve purchases above (gp)',
      });
      await user.type(threshold, '12000.555');
      await user.tab();
      // Not clamped to 9,000 gp on blur, and no third decimal: a threshold is a whole number of copper.
      expect(threshold).toHaveValue('12000.55');
      await user.click(screen.getByRole('button', { name: 'Save Changes' }));
      await vi.waitFor(() => expect(patches(fetchMock)).toHaveLength(1));
      expect(patches(fetchMock)[0]).toMatchObject({ approval_threshold_cp: 1_200_055 });
    });
  });
});
