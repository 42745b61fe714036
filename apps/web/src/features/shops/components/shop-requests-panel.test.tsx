import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { useUiStore } from '../../../stores/ui-store';
import { failure, mockFetch, success } from '../../../test/fixtures';
import { renderWithProviders } from '../../inventory/test/inventory-fixtures';
import { shopKeys } from '../api/shops-api';
import { buildShopRequest } from '../test/shop-fixtures';
import { ShopRequestsPanel } from './shop-requests-panel';

describe('ShopRequestsPanel', () => {
  it('lets the GM approve a waiting purchase, then shows the list again from the server', async () => {
    let pending = [buildShopRequest({ payment_source: 'party' })];
    const fetchMock = mockFetch(({ url, init }) => {
      const { pathname, searchParams } = new URL(url, 'http://test');
      if (pathname === '/api/v1/shop_instances/shop-1/requests' && searchParams.get('status') === 'pending')
        return success(pending);
      if (pathname === '/api/v1/shop_instances/shop-1/requests') return success([]);
      if (init.method === 'POST' && pathname === '/api/v1/shop_requests/request-1/approve') {
        const request = { ...buildShopRequest(), status: 'approved' as const };
        pending = [];
        return success({ request, trade: null });
      }
      return failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${pathname}`);
    });
    const user = userEvent.setup();
    renderWithProviders(<ShopRequestsPanel shopId="shop-1" />);
    const card = await screen.findByTestId('shop-request');
    expect(card).toHaveTextContent('1 × Longsword');
    expect(card).toHaveTextContent('Pip Thistledown (pip)');
    expect(card).toHaveTextContent('15 gp');
    expect(within(card).getByText('Party fund')).toBeInTheDocument();
    expect(within(card).queryByRole('button', { name: /Cancel request/ })).not.toBeInTheDocument();

    await user.click(within(card).getByRole('button', { name: 'Approve 1 × Longsword for Pip Thistledown' }));
    expect(await screen.findByTestId('requests-empty')).toHaveTextContent('No purchases waiting');
    expect(
      fetchMock.mock.calls.some(
        ([url, init]) => init?.method === 'POST' && String(url).endsWith('/shop_requests/request-1/approve'),
      ),
    ).toBe(true);
    expect(useUiStore.getState().toasts.at(-1)).toMatchObject({
      kind: 'success',
      message: 'Purchase approved: 1 × Longsword',
    });
  }, 20_000);

  it('lets who asked cancel, and says why when the server refuses', async () => {
    mockFetch(({ url, init }) => {
      const { pathname } = new URL(url, 'http://test');
      if (pathname === '/api/v1/shop_instances/shop-1/requests')
        return success([buildShopRequest({ can_decide: false, can_cancel: true })]);
      if (init.method === 'POST' && pathname === '/api/v1/shop_requests/request-1/cancel')
        return failure(409, 'CONFLICT', 'This request has already been approved.');
      return failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${pathname}`);
    });
    const user = userEvent.setup();
    renderWithProviders(<ShopRequestsPanel shopId="shop-1" />);
    const card = await screen.findByTestId('shop-request');
    expect(within(card).queryByRole('button', { name: /Approve/ })).not.toBeInTheDocument();
    await user.click(within(card).getByRole('button', { name: 'Cancel request for 1 × Longsword' }));
    await vi.waitFor(() =>
      expect(useUiStore.getState().toasts.at(-1)).toMatchObject({
        kind: 'error',
        message: 'This request has already been approved.',
      }),
    );
  }, 20_000);

  it('lets the GM decline with a reason, sent to the server and shown under the decided requests', async () => {
    let requests = [buildShopRequest()];
    let sentBody: unknown = null;
    mockFetch(({ url, init }) => {
      const { pathname, searchParams } = new URL(url, 'http://test');
      if (pathname === '/api/v1/shop_instances/shop-1/requests') {
        const status = searchParams.get('status');
        return success(status === 'pending' ? requests.filter((r) => r.status === 'pending') : requests);
      }
      if (init.method === 'POST' && pathname === '/api/v1/shop_requests/request-1/decline') {
        sentBody = JSON.parse(String(init.body));
        const request = buildShopRequest({
          status: 'declined',
          reason: 'The blacksmith is closed tonight',
          decided_by: { id: 'user-gm', name: 'mira' },
          decided_at: new Date().toISOString(),
          can_decide: false,
        });
        requests = [request];
        return success({ request, trade: null });
      }
      return failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${pathname}`);
    });
    const user = userEvent.setup();
    renderWithProviders(<ShopRequestsPanel shopId="shop-1" />);
    const card = await screen.findByTestId('shop-request');
    const decline = within(card).getByRole('button', { name: 'Decline 1 × Longsword for Pip Thistledown' });
    // Escape keeps the request, and the keyboard is back on Decline.
    await user.click(decline);
    expect(within(card).getByLabelText(/Reason/)).toHaveFocus();
    await user.keyboard('{Escape}');
    await vi.waitFor(() =>
      expect(
        within(card).getByRole('button', { name: 'Decline 1 × Longsword for Pip Thistledown' }),
      ).toHaveFocus(),
    );
    expect(sentBody).toBeNull();

    await user.click(within(card).getByRole('button', { name: 'Decline 1 × Longsword for Pip Thistledown' }));
    await user.type(within(card).getByLabelText(/Reason/), 'The blacksmith is closed tonight{Enter}');
    expect(await screen.findByTestId('requests-empty')).toBeInTheDocument();
    expect(sentBody).toEqual({ reason: 'The blacksmith is closed tonight' });
    const decided = await screen.findByTestId('decided-request');
    expect(decided).toHaveTextContent('1 × Longsword');
    expect(decided).toHaveTextContent('Declined');
    expect(decided).toHaveTextContent('Declined by mira');
    expect(decided).toHaveTextContent('Reason: The blacksmith is closed tonight');
  }, 20_000);

  it('keeps the keyboard on the next request after a decision, then on the empty list', async () => {
    let pending = [
      buildShopRequest(),
      buildShopRequest({ id: 'request-2', item_name: 'Shield', total_price_cp: 1000, formatted: '10 gp' }),
    ];
    mockFetch(({ url, init }) => {
      const { pathname, searchParams } = new URL(url, 'http://test');
      if (pathname === '/api/v1/shop_instances/shop-1/requests' && searchParams.get('status') === 'pending')
        return success(pending);
      if (pathname === '/api/v1/shop_instances/shop-1/requests') return success([]);
      const decided = pathname.match(/^\/api\/v1\/shop_requests\/(request-\d)\/(approve|decline)$/);
      if (init.method === 'POST' && decided) {
        const request = pending.find((r) => r.id === decided[1]);
        pending = pending.filter((r) => r.id !== decided[1]);
        return success({ request: { ...request, status: 'approved' }, trade: null });
      }
      return failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${pathname}`);
    });
    const user = userEvent.setup();
    renderWithProviders(<ShopRequestsPanel shopId="shop-1" />);
    await user.click(
      await screen.findByRole('button', { name: 'Approve 1 × Longsword for Pip Thistledown' }),
    );
    await vi.waitFor(() =>
      expect(screen.getByRole('button', { name: 'Decline 1 × Shield for Pip Thistledown' })).toHaveFocus(),
    );
    await user.click(screen.getByRole('button', { name: 'Approve 1 × Shield for Pip Thistledown' }));
    await vi.waitFor(() =>
      expect(screen.getByRole('heading', { name: 'No purchases waiting' })).toHaveFocus(),
    );
    expect(screen.getByRole('heading', { name: 'No purchases waiting' })).toHaveAttribute('tabindex', '-1');
  }, 20_000);

  it('keeps the keyboard on the list when who asked cancels their last request', async () => {
    let pending = [buildShopRequest({ can_decide: false, can_cancel: true })];
    mockFetch(({ url, init }) => {
      const { pathname, searchParams } = new URL(url, 'http://test');
      if (pathname === '/api/v1/shop_instances/shop-1/requests' && searchParams.get('status') === 'pending')
        return success(pending);
      if (pathname === '/api/v1/shop_instances/shop-1/requests') return success([]);
      if (init.method === 'POST' && pathname === '/api/v1/shop_requests/request-1/cancel') {
        pending = [];
        return success({ request: buildShopRequest({ status: 'cancelled' }), trade: null });
      }
      return failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${pathname}`);
    });
    const user = userEvent.setup();
    renderWithProviders(<ShopRequestsPanel shopId="shop-1" />);
    await user.click(await screen.findByRole('button', { name: 'Cancel request for 1 × Longsword' }));
    await vi.waitFor(() =>
      expect(screen.getByRole('heading', { name: 'No purchases waiting' })).toHaveFocus(),
    );
  }, 20_000);

  it('heads its lists at level 2, under the shop page’s h1 (axe heading-order)', async () => {
    mockFetch(({ url }) => {
      const { pathname, searchParams } = new URL(url, 'http://test');
      if (pathname === '/api/v1/shop_instances/shop-1/requests' && searchParams.get('status') === 'pending')
        return success([]);
      if (pathname === '/api/v1/shop_instances/shop-1/requests')
        return success([buildShopRequest({ status: 'approved', can_decide: false })]);
      return failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${pathname}`);
    });
    renderWithProviders(<ShopRequestsPanel shopId="shop-1" />);
    expect(
      await screen.findByRole('heading', { level: 2, name: 'No purchases waiting' }),
    ).toBeInTheDocument();
    expect(await screen.findByRole('heading', { level: 2, name: 'Decided lately' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { level: 3 })).not.toBeInTheDocument();
  }, 20_000);

  it('shows an error with a retry when the requests cannot be loaded', async () => {
    mockFetch(() => failure(500, 'INTERNAL_SERVER_ERROR', 'boom'));
    renderWithProviders(<ShopRequestsPanel shopId="shop-1" />);
    expect(await screen.findByTestId('error-panel', {}, { timeout: 10_000 })).toHaveTextContent(
      'Could not load purchase requests',
    );
  }, 20_000);
});

describe('ShopRequestsPanel: the requests as lists', () => {
  it('reads the waiting and the decided requests as named lists, a line a request, and says it is loading', async () => {
    const rope = buildShopRequest({ id: 'request-2', item_name: 'Rope', quantity: 2, formatted: '2 gp' });
    const shield = buildShopRequest({
      id: 'request-3',
      item_name: 'Shield',
      status: 'declined',
      decided_by: { id: 'user-gm', name: 'mira' },
      decided_at: new Date().toISOString(),
      can_decide: false,
    });
    let answer: (response: Response) => void = () => {};
    mockFetch(({ url }) => {
      const { pathname, searchParams } = new URL(url, 'http://test');
      if (pathname === '/api/v1/shop_instances/shop-1/requests' && searchParams.get('status') === 'pending')
        return new Promise<Response>((resolve) => {
          answer = resolve;
        });
      if (pathname === '/api/v1/shop_instances/shop-1/requests') return success([shield]);
      return failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${pathname}`);
    });
    renderWithProviders(<ShopRequestsPanel shopId="shop-1" />);
    expect(await screen.findByRole('status')).toHaveTextContent('Loading purchase requests');
    answer(success([buildShopRequest(), rope]));
    const waiting = await screen.findByRole('list', { name: 'Purchase requests' });
    const lines = within(waiting).getAllByRole('listitem');
    expect(lines).toHaveLength(2);
    expect(
      within(lines[1] as HTMLElement).getByRole('button', { name: 'Approve 2 × Rope for Pip Thistledown' }),
    ).toBeInTheDocument();
    const decided = await screen.findByRole('list', { name: 'Decided lately' });
    expect(
      within(decided)
        .getAllByRole('listitem')
        .map((line) => line.textContent),
    ).toEqual([expect.stringContaining('Shield')]);
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  }, 20_000);
});

describe('ShopRequestsPanel on a slow or dropped connection', () => {
  it('keeps the waiting and the decided requests when their refresh fails, each list with a note', async () => {
    let connected = true;
    const declined = buildShopRequest({
      id: 'request-2',
      status: 'declined',
      reason: 'Too dear',
      decided_by: { id: 'user-gm', name: 'mira' },
      decided_at: new Date().toISOString(),
      can_decide: false,
    });
    mockFetch(({ url }) => {
      const { pathname, searchParams } = new URL(url, 'http://test');
      if (pathname !== '/api/v1/shop_instances/shop-1/requests')
        return failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${pathname}`);
      if (!connected) throw new TypeError('Failed to fetch');
      return success(searchParams.get('status') === 'pending' ? [buildShopRequest()] : [declined]);
    });
    const { queryClient } = renderWithProviders(<ShopRequestsPanel shopId="shop-1" />);
    expect(await screen.findByTestId('shop-request')).toHaveTextContent('1 × Longsword');
    const decided = await screen.findByTestId('decided-requests');
    connected = false;
    await queryClient.refetchQueries({ queryKey: shopKeys.instance('shop-1') });
    await waitFor(() => expect(screen.getAllByTestId('refresh-failed-note')).toHaveLength(2), {
      timeout: 5_000,
    });
    expect(within(decided).getByTestId('refresh-failed-note')).toBeVisible();
    expect(screen.getByTestId('shop-request')).toHaveTextContent('1 × Longsword');
    expect(within(decided).getByText('Too dear', { exact: false })).toBeInTheDocument();
    expect(screen.queryByText('Could not load purchase requests')).not.toBeInTheDocument();
    expect(screen.queryByText('Could not load decided requests')).not.toBeInTheDocument();
  }, 20_000);
});
