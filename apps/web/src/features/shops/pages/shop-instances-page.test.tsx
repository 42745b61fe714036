import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { failure, jsonResponse, mockFetch, success } from '../../../test/fixtures';
import { pageMeta } from '../../../test/party-fixtures';
import { renderRoutes } from '../../../test/render';
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
});
