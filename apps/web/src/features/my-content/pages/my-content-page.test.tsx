import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { failure, jsonResponse, mockFetch } from '../../../test/fixtures';
import { renderRoutes } from '../../../test/render';
import { buildLootTemplate } from '../../loot/test/loot-fixtures';
import { shopKeys } from '../../shops/api/shops-api';
import { buildShopInstance, buildShopTemplate } from '../../shops/test/shop-fixtures';
import { subscriptionKeys } from '../../subscription/api/subscription-api';
import { buildTier, buildUsage, unbuiltMention } from '../../subscription/subscription-fixtures';
import { MyContentPage } from './my-content-page';

const routes = [{ path: '/my-content', element: <MyContentPage /> }];
const page = (count: number) => ({ current_page: 1, total_pages: 1, total_count: count, per_page: 20 });

function section(name: string): HTMLElement {
  return screen.getByRole('region', { name });
}

describe('MyContentPage', () => {
  it('lists my shop templates with their count against the plan', async () => {
    const fetchMock = mockFetch(({ url }) => {
      const path = new URL(url, 'http://test').pathname;
      if (path.endsWith('/subscription/usage'))
        return jsonResponse(200, {
          status: 'success',
          data: {
            ...buildUsage(buildTier('tier_1')),
            shop_templates: { used: 1, limit: 10 },
            shop_instances: { used: 1, limit: 5 },
            shop_deployments_monthly: { used: 2, limit: 10 },
            loot_templates: { used: 1, limit: 10 },
            loot_instances: { used: 3, limit: 10 },
            loot_deployments_monthly: { used: 4, limit: 10 },
          },
        });
      if (path.endsWith('/shop_templates'))
        return jsonResponse(200, {
          status: 'success',
          data: [buildShopTemplate({ id: 'shop-1', name: 'The Prancing Pony' })],
          meta: page(1),
        });
      if (path.endsWith('/loot_templates'))
        return jsonResponse(200, {
          status: 'success',
          data: [buildLootTemplate({ id: 'loot-1', name: 'Goblin pouch', is_owner: true })],
          meta: page(1),
        });
      if (path.endsWith('/shop_instances'))
        return jsonResponse(200, {
          status: 'success',
          data: {
            instances: [
              buildShopInstance({ can_manage: true }),
              buildShopInstance({ id: 'shop-2', name: 'Not mine', can_manage: false }),
            ],
          },
          meta: page(2),
        });
      return jsonResponse(200, { status: 'success', data: [], meta: page(0) });
    });
    renderRoutes(routes, '/my-content');

    const shops = await screen.findByRole('link', { name: 'The Prancing Pony' });
    expect(shops).toHaveAttribute('href', '/shops/templates/shop-1');
    expect(await within(section('Shop templates')).findByTestId('content-limit')).toHaveTextContent(
      '1 of 10',
    );
    expect(
      within(section('Item templates')).getByText('You have not made any item templates yet.'),
    ).toBeVisible();
    // Every kind of content this server offers has a section, loot included.
    expect(screen.getAllByRole('region').map((region) => region.getAttribute('aria-labelledby'))).toEqual([
      'my-item-templates',
      'my-shop-templates',
      'my-shop-instances',
      'my-loot-templates',
    ]);
    const loot = section('Loot templates');
    expect(await within(loot).findByRole('link', { name: 'Goblin pouch' })).toHaveAttribute(
      'href',
      '/loot/templates/loot-1',
    );
    expect(within(loot).getByTestId('content-limit')).toHaveTextContent('1 of 10');
    expect(within(loot).getByTestId('content-note')).toHaveTextContent(
      '3 of 10 loot deployed in your parties; 4 of 10 deployments used this month.',
    );
    // The shops I run, with both shop limits of the plan.
    const deployed = section('Deployed shops');
    expect(
      await within(deployed).findByRole('link', {
        name: 'The Wayfarer’s General Store (The Lantern Bearers)',
      }),
    ).toHaveAttribute('href', '/shops/instances/shop-1');
    expect(within(deployed).queryByText(/Not mine/)).not.toBeInTheDocument();
    expect(within(deployed).getByTestId('content-limit')).toHaveTextContent('1 of 5');
    expect(within(deployed).getByTestId('content-note')).toHaveTextContent(
      '2 of 10 deployments used this month.',
    );
    const mention = unbuiltMention();
    if (mention) expect(document.body).not.toHaveTextContent(mention);
    const shopCall = fetchMock.mock.calls
      .map(([url]) => String(url))
      .find((url) => url.includes('/shop_templates'));
    expect(new URL(String(shopCall), 'http://test').searchParams.get('mine')).toBe('true');
  });

  it('names each "View all" link after the list it opens, for a screen reader’s list of links', async () => {
    mockFetch(({ url }) => {
      const path = new URL(url, 'http://test').pathname;
      if (path.endsWith('/subscription/usage'))
        return jsonResponse(200, { status: 'success', data: buildUsage(buildTier('tier_1')) });
      if (path.endsWith('/shop_instances'))
        return jsonResponse(200, { status: 'success', data: { instances: [] }, meta: page(0) });
      return jsonResponse(200, { status: 'success', data: [], meta: page(0) });
    });
    renderRoutes(routes, '/my-content');
    const expected: [string, string, string][] = [
      ['Item templates', 'View all item templates', '/items'],
      ['Shop templates', 'View all shop templates', '/shops/templates'],
      ['Deployed shops', 'View all deployed shops', '/shops/instances'],
      ['Loot templates', 'View all loot templates', '/loot/templates?mine=true'],
    ];
    for (const [region, name, href] of expected) {
      const link = within(section(region)).getByRole('link', { name });
      expect(link).toHaveAttribute('href', href);
      // The words on screen stay short: they start the link's name, as they must (WCAG 2.5.3).
      expect(link).toHaveTextContent(/^View all/);
    }
    expect(screen.queryByRole('link', { name: 'View all' })).not.toBeInTheDocument();
  });

  it('offers the upgrade instead of New where the plan has none of that content', async () => {
    mockFetch(({ url }) => {
      const path = new URL(url, 'http://test').pathname;
      if (path.endsWith('/subscription/usage'))
        return jsonResponse(200, { status: 'success', data: buildUsage(buildTier('tier_free')) });
      if (path.endsWith('/shop_instances'))
        return jsonResponse(200, { status: 'success', data: { instances: [] }, meta: page(0) });
      return jsonResponse(200, { status: 'success', data: [], meta: page(0) });
    });
    renderRoutes(routes, '/my-content');
    const shops = section('Shop templates');
    expect(await within(shops).findByText('Not included in your plan')).toBeVisible();
    expect(within(shops).queryByRole('link', { name: 'New Shop' })).not.toBeInTheDocument();
    expect(within(shops).getByRole('link', { name: 'See upgrade options' })).toHaveAttribute(
      'href',
      '/subscription/upgrade?resource=shop_templates',
    );
    // Item templates are in the free plan: New stays.
    expect(within(section('Item templates')).getByRole('link', { name: 'New Item' })).toBeVisible();
    // Nor "0 of 0 deployments used this month." beside the badge that says the plan has none.
    for (const name of ['Deployed shops', 'Loot templates']) {
      expect(within(section(name)).getByText('Not included in your plan')).toBeVisible();
      expect(within(section(name)).queryByTestId('content-note')).not.toBeInTheDocument();
    }
    expect(document.body).not.toHaveTextContent(/0 of 0/);
  });

  it('shows an error with a retry when my shop templates cannot be loaded', async () => {
    mockFetch(({ url }) =>
      url.includes('/shop_templates')
        ? failure(500, 'INTERNAL_SERVER_ERROR', 'Something went wrong.')
        : jsonResponse(200, { status: 'success', data: [], meta: page(0) }),
    );
    renderRoutes(routes, '/my-content');
    expect(
      await within(section('Shop templates')).findByText('Unable to Load Shops', {}, { timeout: 5_000 }),
    ).toBeVisible();
    expect(within(section('Shop templates')).getByRole('button', { name: 'Try Again' })).toBeVisible();
  });

  it('asks the plan’s limits again after they failed, and stops saying so once they come', async () => {
    let down = true;
    mockFetch(({ url }) => {
      const path = new URL(url, 'http://test').pathname;
      if (path.endsWith('/subscription/usage'))
        return down
          ? failure(500, 'INTERNAL_SERVER_ERROR', 'Something went wrong.')
          : jsonResponse(200, { status: 'success', data: buildUsage(buildTier('tier_1')) });
      return jsonResponse(200, { status: 'success', data: [], meta: page(0) });
    });
    renderRoutes(routes, '/my-content');
    const shops = section('Shop templates');
    expect(
      await within(shops).findByText("Your plan's limits could not be loaded.", {}, { timeout: 5_000 }),
    ).toBeVisible();
    down = false;
    await userEvent.click(within(shops).getByRole('button', { name: 'Try again' }));
    await waitFor(() =>
      expect(screen.queryByText("Your plan's limits could not be loaded.")).not.toBeInTheDocument(),
    );
  }, 20_000);
  it('keeps my shop templates on screen when a refresh fails, with a note in their section', async () => {
    let connected = true;
    mockFetch(({ url }) => {
      const path = new URL(url, 'http://test').pathname;
      if (path.endsWith('/shop_templates')) {
        if (!connected) throw new TypeError('Failed to fetch');
        return jsonResponse(200, {
          status: 'success',
          data: [buildShopTemplate({ id: 'shop-1', name: 'The Prancing Pony' })],
          meta: page(1),
        });
      }
      return jsonResponse(200, { status: 'success', data: [], meta: page(0) });
    });
    const { queryClient } = renderRoutes(routes, '/my-content');
    const shops = section('Shop templates');
    expect(await within(shops).findByRole('link', { name: 'The Prancing Pony' })).toBeVisible();
    connected = false;
    await queryClient.refetchQueries({ queryKey: shopKeys.templates() });
    await waitFor(() => expect(within(shops).getByTestId('refresh-failed-note')).toBeVisible(), {
      timeout: 5_000,
    });
    expect(within(shops).getByRole('link', { name: 'The Prancing Pony' })).toBeVisible();
    expect(within(shops).queryByText('Unable to Load Shops')).not.toBeInTheDocument();
    // Only the section whose refresh failed says so.
    expect(screen.getAllByTestId('refresh-failed-note')).toHaveLength(1);
  }, 20_000);

  it('keeps the plan’s limits on screen when their refresh fails, with one note for them', async () => {
    let connected = true;
    mockFetch(({ url }) => {
      const path = new URL(url, 'http://test').pathname;
      if (path.endsWith('/subscription/usage')) {
        if (!connected) throw new TypeError('Failed to fetch');
        return jsonResponse(200, {
          status: 'success',
          data: { ...buildUsage(buildTier('tier_1')), shop_templates: { used: 1, limit: 10 } },
        });
      }
      if (path.endsWith('/shop_instances'))
        return jsonResponse(200, { status: 'success', data: { instances: [] }, meta: page(0) });
      return jsonResponse(200, { status: 'success', data: [], meta: page(0) });
    });
    const { queryClient } = renderRoutes(routes, '/my-content');
    const shops = section('Shop templates');
    expect(await within(shops).findByTestId('content-limit')).toHaveTextContent('1 of 10');
    connected = false;
    await queryClient.refetchQueries({ queryKey: subscriptionKeys.contentUsage() });
    await waitFor(() => expect(screen.getByTestId('refresh-failed-note')).toBeVisible(), { timeout: 5_000 });
    expect(within(shops).getByTestId('content-limit')).toHaveTextContent('1 of 10');
    expect(screen.queryByText("Your plan's limits could not be loaded.")).not.toBeInTheDocument();
    // The limits are one query for every section: one note says so, not one per section.
    expect(screen.getAllByTestId('refresh-failed-note')).toHaveLength(1);
  }, 20_000);
});
