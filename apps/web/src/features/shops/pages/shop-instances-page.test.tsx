import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { failure, jsonResponse, mockFetch, success } from '../../../test/fixtures';
import { pageMeta } from '../../../test/party-fixtures';
import { renderRoutes } from '../../../test/render';
import { stubPhoneWidth } from '../../../test/viewport';
import { buildShopInstance } from '../test/shop-fixtures';
import { ShopInstancesPage } from './shop-instances-page';

describe('ShopInstancesPage', () => {
  it('heads each shop’s card one level below the page’s h1, at the cards’ usual size', async () => {
    const shops = [
      buildShopInstance({ id: 'shop-1', name: 'General Store' }),
      buildShopInstance({ id: 'shop-2', name: 'The Rusty Anvil' }),
    ];
    mockFetch(({ url }) =>
      url.startsWith('/api/v1/shop_instances?')
        ? jsonResponse(200, {
            status: 'success',
            data: { instances: shops },
            meta: { ...pageMeta(shops.length, 12), total: shops.length },
          })
        : success([]),
    );
    renderRoutes([{ path: '/shops/instances', element: <ShopInstancesPage /> }], '/shops/instances');
    expect(screen.getByRole('heading', { level: 1, name: 'Shop Instances' })).toBeInTheDocument();
    for (const name of ['General Store', 'The Rusty Anvil']) {
      const heading = await screen.findByRole('heading', { name });
      expect(heading.tagName).toBe('H2');
      expect(heading).toHaveAttribute('data-size', 'h4');
    }
    expect(screen.queryByRole('heading', { level: 3 })).not.toBeInTheDocument();
    expect(screen.getByTestId('summary-active')).toHaveTextContent('2');
  });

  it('shows no summary of zeros while the shops load, nor when they could not be loaded', async () => {
    mockFetch(({ url }) =>
      url.startsWith('/api/v1/shop_instances?') ? failure(500, 'INTERNAL_SERVER_ERROR', 'boom') : success([]),
    );
    renderRoutes([{ path: '/shops/instances', element: <ShopInstancesPage /> }], '/shops/instances');
    expect(screen.getByTestId('summary-active')).toHaveAttribute('aria-label', 'Loading active');
    expect(await screen.findByLabelText('Active: not known', {}, { timeout: 10_000 })).toHaveTextContent('–');
    expect(screen.getByTestId('summary-items')).not.toHaveTextContent('0');
  }, 20_000);

  it('asks a page of 12 shops, sums up all of them from the server, and pages through the rest', async () => {
    const page = (n: number) =>
      Array.from({ length: n === 3 ? 6 : 12 }, (_, index) =>
        buildShopInstance({ id: `shop-${n}-${index}`, name: `Shop ${n}-${index}`, is_active: false }),
      );
    const fetchMock = mockFetch(({ url }) => {
      if (!url.startsWith('/api/v1/shop_instances?')) return success([]);
      const current = Number(new URL(url, 'http://test').searchParams.get('page'));
      return jsonResponse(200, {
        status: 'success',
        data: { instances: page(current) },
        // A year of play: 30 shops, 21 open, 640 items in all; this page holds 12 closed ones.
        meta: { ...pageMeta(30, 12, current), total: 30, summary: { active: 21, inactive: 9, items: 640 } },
      });
    });
    renderRoutes([{ path: '/shops/instances', element: <ShopInstancesPage /> }], '/shops/instances');
    expect(await screen.findByRole('heading', { name: 'Shop 1-0' })).toBeInTheDocument();
    const asked = new URL(String(fetchMock.mock.calls[0]?.[0]), 'http://test');
    expect(asked.searchParams.get('per_page')).toBe('12');
    expect(screen.getAllByTestId('shop-card')).toHaveLength(12);
    expect(screen.getByTestId('summary-active')).toHaveTextContent('21');
    expect(screen.getByTestId('summary-inactive')).toHaveTextContent('9');
    expect(screen.getByTestId('summary-items')).toHaveTextContent('640');
    await userEvent.click(screen.getByRole('button', { name: 'Page 3' }));
    expect(await screen.findByRole('heading', { name: 'Shop 3-0' })).toBeInTheDocument();
    expect(screen.getAllByTestId('shop-card')).toHaveLength(6);
    expect(screen.getByTestId('summary-active')).toHaveTextContent('21');
  });

  it('goes back to the last page left when the one shown was emptied meanwhile', async () => {
    // Page 1 counted 13 shops; by the time page 2 is asked for, its only shop was deleted elsewhere.
    const fetchMock = mockFetch(({ url }) => {
      if (!url.startsWith('/api/v1/shop_instances?')) return success([]);
      const current = Number(new URL(url, 'http://test').searchParams.get('page'));
      const instances =
        current === 1
          ? Array.from({ length: 12 }, (_, index) =>
              buildShopInstance({ id: `s${index}`, name: `Shop ${index}` }),
            )
          : [];
      const total = current === 1 ? 13 : 12;
      return jsonResponse(200, {
        status: 'success',
        data: { instances },
        meta: { ...pageMeta(total, 12, current), total, summary: { active: total, inactive: 0, items: 0 } },
      });
    });
    renderRoutes([{ path: '/shops/instances', element: <ShopInstancesPage /> }], '/shops/instances');
    await userEvent.click(await screen.findByRole('button', { name: 'Page 2' }));
    await vi.waitFor(() =>
      expect(fetchMock.mock.calls.some(([url]) => String(url).includes('page=2'))).toBe(true),
    );
    expect(await screen.findByRole('heading', { name: 'Shop 0' })).toBeInTheDocument();
    expect(screen.getAllByTestId('shop-card')).toHaveLength(12);
  });
});

describe('ShopInstancesPage filters', () => {
  afterEach(() => vi.unstubAllGlobals());

  const serveShops = () =>
    mockFetch(({ url }) =>
      url.startsWith('/api/v1/shop_instances?')
        ? jsonResponse(200, {
            status: 'success',
            data: { instances: [buildShopInstance({ id: 'shop-1', name: 'General Store' })] },
            meta: { ...pageMeta(1, 12), total: 1 },
          })
        : success([]),
    );
  const lastListQuery = (fetchMock: ReturnType<typeof mockFetch>) => {
    const call = fetchMock.mock.calls.filter(([url]) => String(url).includes('/shop_instances?')).at(-1);
    return Object.fromEntries(new URL(String(call?.[0]), 'http://test').searchParams);
  };

  it('on a phone keeps the search above the shops and folds the other filters away', async () => {
    stubPhoneWidth();
    const fetchMock = serveShops();
    const user = userEvent.setup();
    renderRoutes([{ path: '/shops/instances', element: <ShopInstancesPage /> }], '/shops/instances');
    expect(await screen.findByRole('heading', { name: 'General Store' })).toBeInTheDocument();
    // At 375 px the five filters stood above the first shop, as the template lists' did.
    const filters = screen.getByRole('region', { name: 'Shop filters' });
    expect(within(filters).getByRole('textbox', { name: 'Search shops' })).toBeVisible();
    for (const name of ['Party', 'Shop type', 'Location', 'Status']) {
      expect(within(filters).getByRole('combobox', { name, hidden: true })).not.toBeVisible();
    }
    const more = within(filters).getByRole('button', { name: 'More filters' });
    expect(more).toHaveAttribute('aria-expanded', 'false');

    await user.click(more);
    await user.click(within(filters).getByRole('combobox', { name: 'Shop type' }));
    await user.click(await screen.findByRole('option', { name: 'Blacksmith' }));
    await vi.waitFor(() => expect(lastListQuery(fetchMock).shop_type).toBe('blacksmith'));
    await user.click(within(filters).getByRole('button', { name: 'Fewer filters (1 on)' }));
    expect(within(filters).getByRole('button', { name: 'More filters (1 on)' })).toBeInTheDocument();
  });

  it('shows every filter on a wider screen, with nothing to unfold', async () => {
    serveShops();
    renderRoutes([{ path: '/shops/instances', element: <ShopInstancesPage /> }], '/shops/instances');
    expect(await screen.findByRole('heading', { name: 'General Store' })).toBeInTheDocument();
    const filters = screen.getByRole('region', { name: 'Shop filters' });
    expect(within(filters).getByRole('textbox', { name: 'Search shops' })).toBeVisible();
    for (const name of ['Party', 'Shop type', 'Location', 'Status']) {
      expect(within(filters).getByRole('combobox', { name })).toBeVisible();
    }
    expect(within(filters).queryByRole('button', { name: /^(More|Fewer) filters/ })).toBeNull();
  });
});
