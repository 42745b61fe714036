import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { failure, jsonResponse, mockFetch, success } from '../../../test/fixtures';
import { pageMeta } from '../../../test/party-fixtures';
import { renderRoutes } from '../../../test/render';
import { buildContainer, buildItem } from '../../inventory/test/inventory-fixtures';
import { ShopInstancePage } from '../pages/shop-instance-page';
import { buildShopInstance, buildStockItem } from '../test/shop-fixtures';

const longsword = { name: 'Longsword', stack_size: 1, tags: [], metadata: {}, coin: null };
const stash = buildContainer({
  id: 'stash-1',
  name: 'Party Stash',
  owner: { type: 'party', id: 'party-1', name: 'The Lantern Bearers' },
  party_id: 'party-1',
});
const spare = buildItem({
  id: 'spare-sword',
  name: 'Longsword',
  quantity: 1,
  item_template_id: 'tpl-longsword',
  item_template: longsword,
  container_id: 'stash-1',
});
// The GM runs the shop and has no character in the party: Manage is theirs, trading is not.
const shop = buildShopInstance({
  can_manage: true,
  can_trade: false,
  container: {
    id: 'shop-container-1',
    name: 'Shop stock',
    item_instances: [
      buildStockItem({
        id: 'shelf-sword',
        name: 'Longsword',
        quantity: 5,
        item_template_id: 'tpl-longsword',
        item_template: longsword,
        buy_price_cp: 1500,
      }),
    ],
  },
});

const partyActions = 'inventory_actions_party_monthly';
type Allowance = 'spent' | 'open' | 'unlimited';

function limitAnswer(resource: string, allowance: Allowance) {
  if (allowance === 'unlimited') return { allowed: true, resource, limit: null, used: 250, remaining: null };
  return allowance === 'spent'
    ? { allowed: false, resource, limit: 200, used: 200, remaining: 0 }
    : { allowed: true, resource, limit: 200, used: 3, remaining: 197 };
}

/**
 * The shop and the party stash (with a spare Longsword); check_limit answers the party's allowance as
 * `party` says and the personal one as open; every change asked for is recorded (and refused).
 */
function server(party: Allowance) {
  const sent: string[] = [];
  const asked: { resource: string; party_id?: string }[] = [];
  mockFetch(({ url, init }) => {
    const { pathname } = new URL(url, 'http://test');
    const method = init.method ?? 'GET';
    if (pathname === '/api/v1/subscription/check_limit') {
      const body = JSON.parse(String(init.body)) as { resource: string; party_id?: string };
      asked.push(body);
      return success(limitAnswer(body.resource, body.resource === partyActions ? party : 'open'));
    }
    if (method === 'POST') {
      sent.push(pathname);
      return failure(403, 'LIMIT_EXCEEDED', 'Plan limit reached');
    }
    if (pathname === '/api/v1/shop_instances/shop-1') return success(shop);
    if (pathname === '/api/v1/shop_instances/shop-1/restock_schedule')
      return success({
        shop_instance_id: 'shop-1',
        restock_days: null,
        label: 'Never',
        next_restock_at: null,
        last_restock_at: null,
      });
    if (pathname === '/api/v1/characters')
      return jsonResponse(200, { status: 'success', data: [], meta: pageMeta(0, 100) });
    if (pathname === '/api/v1/parties/party-1/containers') return success([stash]);
    if (pathname === '/api/v1/containers/stash-1/items')
      return jsonResponse(200, { status: 'success', data: [spare], meta: pageMeta(1, 20) });
    return failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${method} ${pathname}`);
  });
  return { sent, asked };
}

async function openManage() {
  const user = userEvent.setup();
  renderRoutes([{ path: '/shops/instances/:id', element: <ShopInstancePage /> }], '/shops/instances/shop-1');
  await user.click(await screen.findByRole('tab', { name: 'Manage' }));
  return user;
}

const reason = 'No party inventory actions left this month';

describe('The Manage panel at the month’s limit of the party’s inventory actions', {
  timeout: 20_000,
}, () => {
  it('keeps Put on the Shelf and Take Back… in place, disabled with why and the upgrade link, and sends nothing', async () => {
    // Stocking and taking back spend the party's allowance in the shop's party (shops.service stockItem,
    // unstockItem), whoever runs the shop.
    const { sent, asked } = server('spent');
    const user = await openManage();
    await user.click(await screen.findByRole('combobox', { name: 'Item' }));
    await user.click(await screen.findByRole('option', { name: 'Longsword ×1' }));
    const stock = screen.getByRole('button', { name: 'Put on the Shelf' });
    await waitFor(() => expect(stock).toHaveAttribute('aria-disabled', 'true'));
    expect(asked).toContainEqual({ resource: partyActions, party_id: 'party-1' });
    expect(stock).not.toBeDisabled();
    expect(stock).toHaveAccessibleDescription(`${reason}.`);
    const stockNote = screen.getByTestId('stock-allowance-refusal');
    expect(stockNote).toHaveTextContent(`${reason}.`);
    expect(within(stockNote).getByRole('link', { name: 'See upgrade options' })).toHaveAttribute(
      'href',
      `/subscription/upgrade?resource=${partyActions}`,
    );
    stock.focus();
    expect(stock).toHaveFocus();
    await user.click(stock);
    await user.keyboard('{Enter}');

    await user.click(screen.getByRole('combobox', { name: 'Item on the shelf' }));
    await user.click(await screen.findByRole('option', { name: /^Longsword ×5/ }));
    const takeBack = screen.getByRole('button', { name: 'Take Back…' });
    expect(takeBack).toHaveAttribute('aria-disabled', 'true');
    expect(takeBack).not.toBeDisabled();
    expect(takeBack).toHaveAccessibleDescription(`${reason}.`);
    const takeNote = screen.getByTestId('take-back-allowance-refusal');
    expect(within(takeNote).getByRole('link', { name: 'See upgrade options' })).toHaveAttribute(
      'href',
      `/subscription/upgrade?resource=${partyActions}`,
    );
    await user.click(takeBack);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(sent).toEqual([]);
  });

  it.each([
    ['some of the party’s allowance is left', 'open'],
    ['the plan has no limit', 'unlimited'],
  ] as const)('keeps both open when %s', async (_case, party) => {
    const { asked } = server(party);
    const user = await openManage();
    await waitFor(() => expect(asked).toContainEqual({ resource: partyActions, party_id: 'party-1' }));
    await user.click(await screen.findByRole('combobox', { name: 'Item' }));
    await user.click(await screen.findByRole('option', { name: 'Longsword ×1' }));
    const stock = screen.getByRole('button', { name: 'Put on the Shelf' });
    await waitFor(() => expect(stock).toBeEnabled());
    expect(stock).not.toHaveAttribute('aria-disabled');
    await user.click(screen.getByRole('combobox', { name: 'Item on the shelf' }));
    await user.click(await screen.findByRole('option', { name: /^Longsword ×5/ }));
    const takeBack = screen.getByRole('button', { name: 'Take Back…' });
    expect(takeBack).toBeEnabled();
    expect(takeBack).not.toHaveAttribute('aria-disabled');
    expect(screen.queryByTestId('stock-allowance-refusal')).not.toBeInTheDocument();
    expect(screen.queryByTestId('take-back-allowance-refusal')).not.toBeInTheDocument();
    await user.click(takeBack);
    expect(await screen.findByRole('dialog', { name: 'Take stock back' })).toBeInTheDocument();
  });
});
