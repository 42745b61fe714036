import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { failure, jsonResponse, mockFetch, success } from '../../../test/fixtures';
import { buildCharacter, pageMeta } from '../../../test/party-fixtures';
import { renderRoutes } from '../../../test/render';
import { buildContainer, buildItem } from '../../inventory/test/inventory-fixtures';
import { buildShopInstance, buildStockItem } from '../test/shop-fixtures';
import { ShopInstancePage } from './shop-instance-page';

const shop = (() => {
  const base = buildShopInstance();
  const arrows = buildStockItem({ id: 'stock-arrow', name: 'Arrow', quantity: 20, buy_price_cp: 5 });
  return { ...base, can_trade: true, container: { ...base.container, item_instances: [arrows] } };
})();
const aria = buildCharacter({ id: 'ch-aria', name: 'Aria', party_id: 'party-1' });
const backpack = buildContainer({
  id: 'c-pack',
  name: 'Backpack',
  owner: { type: 'character', id: 'ch-aria', name: 'Aria' },
  character_id: 'ch-aria',
  party_id: 'party-1',
});
const dagger = buildItem({
  id: 'item-dagger',
  name: 'Dagger',
  item_template_id: 'template-dagger',
  quantity: 1,
  value_cp: 200,
  container_id: 'c-pack',
});

const personal = 'inventory_actions_personal_monthly';
const partyActions = 'inventory_actions_party_monthly';

/**
 * The shop, Aria and her backpack; check_limit answers each allowance as `allowances` says (`spent`: none
 * left, `open`: some left, `unlimited`: no limit), and every trade asked for is recorded (and refused).
 */
function server(allowances: { personal: Allowance; party: Allowance }) {
  const trades: string[] = [];
  const asked: { resource: string; party_id?: string }[] = [];
  mockFetch(({ url, init }) => {
    const { pathname, searchParams } = new URL(url, 'http://test');
    const method = init.method ?? 'GET';
    if (pathname === '/api/v1/subscription/check_limit') {
      const body = JSON.parse(String(init.body)) as { resource: string; party_id?: string };
      asked.push(body);
      return success(
        limitAnswer(body.resource, allowances[body.resource === personal ? 'personal' : 'party']),
      );
    }
    if (method === 'POST') {
      trades.push(pathname);
      return failure(403, 'LIMIT_EXCEEDED', 'Plan limit reached');
    }
    if (pathname === '/api/v1/shop_instances/shop-1') return success(shop);
    if (pathname === '/api/v1/characters' && searchParams.get('party_id') === 'party-1')
      return jsonResponse(200, { status: 'success', data: [aria], meta: pageMeta(1, 100) });
    if (pathname === '/api/v1/characters/ch-aria/containers') return success([backpack]);
    if (pathname === '/api/v1/containers/c-pack/items')
      return jsonResponse(200, { status: 'success', data: [dagger], meta: pageMeta(1, 100) });
    return failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${method} ${pathname}`);
  });
  return { trades, asked };
}

type Allowance = 'spent' | 'open' | 'unlimited';

function limitAnswer(resource: string, allowance: Allowance) {
  if (allowance === 'unlimited') return { allowed: true, resource, limit: null, used: 250, remaining: null };
  const limit = resource === personal ? 100 : 200;
  return allowance === 'spent'
    ? { allowed: false, resource, limit, used: limit, remaining: 0 }
    : { allowed: true, resource, limit, used: 3, remaining: limit - 3 };
}

function renderPage() {
  return renderRoutes(
    [{ path: '/shops/instances/:id', element: <ShopInstancePage /> }],
    '/shops/instances/shop-1',
  );
}

const reason = 'No party inventory actions left this month';

describe('ShopInstancePage at the month’s inventory-action limit', { timeout: 20_000 }, () => {
  it('offers Buy and Sell disabled but focusable, says why with the upgrade link, and sends nothing', async () => {
    // A trade spends the party's allowance (shops.service), whatever is left of the personal one.
    const { trades, asked } = server({ personal: 'open', party: 'spent' });
    const user = userEvent.setup();
    renderPage();
    const buy = await screen.findByRole('button', { name: 'Buy Arrow' });
    await waitFor(() => expect(buy).toHaveAttribute('aria-disabled', 'true'));
    expect(buy).not.toBeDisabled();
    expect(asked).toContainEqual({ resource: partyActions, party_id: 'party-1' });
    const note = screen.getByTestId('trade-allowance-refusal');
    expect(note).toHaveTextContent(`${reason}.`);
    expect(buy).toHaveAccessibleDescription(`${reason}.`);
    expect(within(note).getByRole('link', { name: 'See upgrade options' })).toHaveAttribute(
      'href',
      `/subscription/upgrade?resource=${partyActions}`,
    );
    buy.focus();
    expect(buy).toHaveFocus();
    await user.click(buy);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

    await user.click(screen.getByRole('tab', { name: 'Sell' }));
    const sell = await screen.findByRole('button', { name: 'Sell Dagger' });
    expect(sell).toHaveAttribute('aria-disabled', 'true');
    expect(sell).toHaveAccessibleDescription(`${reason}.`);
    await user.click(sell);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(trades).toEqual([]);
  });

  it.each([
    ['some of the party’s allowance is left', 'open'],
    ['the plan has no limit', 'unlimited'],
  ] as const)('keeps Buy and Sell open when %s', async (_case, party) => {
    const { asked } = server({ personal: 'spent', party });
    const user = userEvent.setup();
    renderPage();
    const buy = await screen.findByRole('button', { name: 'Buy Arrow' });
    await waitFor(() => expect(asked).toContainEqual({ resource: partyActions, party_id: 'party-1' }));
    await waitFor(() => expect(buy).toBeEnabled());
    await user.click(buy);
    expect(await screen.findByRole('dialog', { name: 'Buy Arrow' })).toBeInTheDocument();
    expect(buy).not.toHaveAttribute('aria-disabled');
    expect(screen.queryByTestId('trade-allowance-refusal')).not.toBeInTheDocument();
  });

  it('keeps Buy open when the allowance cannot be read: the server decides', async () => {
    mockFetch(({ url, init }) => {
      const { pathname, searchParams } = new URL(url, 'http://test');
      if (pathname === '/api/v1/subscription/check_limit')
        return failure(500, 'INTERNAL_SERVER_ERROR', 'boom');
      if (pathname === '/api/v1/shop_instances/shop-1') return success(shop);
      if (pathname === '/api/v1/characters' && searchParams.get('party_id') === 'party-1')
        return jsonResponse(200, { status: 'success', data: [aria], meta: pageMeta(1, 100) });
      if (pathname === '/api/v1/characters/ch-aria/containers') return success([backpack]);
      if (pathname === '/api/v1/containers/c-pack/items')
        return jsonResponse(200, { status: 'success', data: [], meta: pageMeta(0, 100) });
      return failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${init.method ?? 'GET'} ${pathname}`);
    });
    renderPage();
    const buy = await screen.findByRole('button', { name: 'Buy Arrow' });
    await waitFor(() => expect(buy).toBeEnabled());
    expect(buy).not.toHaveAttribute('aria-disabled');
    expect(screen.queryByTestId('trade-allowance-refusal')).not.toBeInTheDocument();
  });
});
