import { shopMessages } from '@haversack/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { failure, jsonResponse, mockFetch, success } from '../../../test/fixtures';
import { buildCharacter, buildParty, pageMeta } from '../../../test/party-fixtures';
import { buildContainer, buildItem, renderWithProviders } from '../../inventory/test/inventory-fixtures';
import { buildShopInstance, buildStockItem } from '../test/shop-fixtures';
import { ShopSourceView } from './shop-source-view';

const shop = buildShopInstance();

/** The party's one shop and its characters, none of them mine, at the network boundary. */
function shopServer(shop = buildShopInstance(), role: 'player' | 'observer' = 'player') {
  return mockFetch(({ url }) => {
    const { pathname } = new URL(url, 'http://test');
    if (pathname === `/api/v1/parties/${shop.party_id}`) {
      return success(buildParty({ id: shop.party_id, user_role: role, is_gm: false }));
    }
    if (pathname === '/api/v1/shop_instances') {
      return jsonResponse(200, { status: 'success', data: { instances: [shop] }, meta: pageMeta(1, 100) });
    }
    if (pathname === `/api/v1/shop_instances/${shop.id}`) return success(shop);
    if (pathname === '/api/v1/characters') {
      return jsonResponse(200, { status: 'success', data: [], meta: pageMeta(0, 100) });
    }
    return failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${pathname}`);
  });
}

describe('ShopSourceView (the workspace’s Shop tab)', () => {
  it('says once that trading needs a character in the party', async () => {
    shopServer();
    renderWithProviders(
      <ShopSourceView
        partyId={shop.party_id}
        shopId={shop.id}
        onSelect={() => undefined}
        draggable
        onTrade={() => undefined}
      />,
    );
    expect(await screen.findByTestId('cannot-trade')).toHaveTextContent(shopMessages.cannotTrade);
    await waitFor(() => expect(screen.getByRole('button', { name: /^Buy / })).toBeDisabled());
    expect(screen.getAllByText(shopMessages.cannotTrade)).toHaveLength(1);
    // Nothing to drag into either: no hint to drag.
    expect(screen.queryByText(/^Drag an item onto your container/)).not.toBeInTheDocument();
    // Nor anything to sell from: the Buy or Sell switch stays away.
    expect(screen.queryByRole('radiogroup', { name: 'Buy or sell' })).not.toBeInTheDocument();
    expect(screen.queryByTestId('workspace-shop-side')).not.toBeInTheDocument();
  });

  it('tells an observer it is their role that keeps them from trading, as the server does', async () => {
    // DESIGN §4: observers only read, whether or not they have a character in the party.
    const watched = buildShopInstance({ can_trade: false });
    shopServer(watched, 'observer');
    renderWithProviders(
      <ShopSourceView
        partyId={watched.party_id}
        shopId={watched.id}
        onSelect={() => undefined}
        draggable
        onTrade={() => undefined}
      />,
    );
    expect(await screen.findByText(shopMessages.observerCannotTrade)).toBeInTheDocument();
    expect(screen.queryByText(shopMessages.cannotTrade)).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: /^Buy / })).toBeDisabled();
  });
});

describe('ShopSourceView: an unpriced line', () => {
  const bag = buildStockItem({ id: 'stock-bag', name: 'Bag of Holding', quantity: 1, buy_price_cp: null });
  const rope = buildStockItem({ id: 'stock-rope', name: 'Rope', item_template_id: 'template-rope' });
  const unpricedShop = (canManage: boolean) => {
    const base = buildShopInstance({ can_manage: canManage });
    return { ...base, container: { ...base.container, item_instances: [bag, rope] } };
  };
  const renderTab = (canManage: boolean) => {
    const shown = unpricedShop(canManage);
    shopServer(shown);
    renderWithProviders(
      <ShopSourceView
        partyId={shown.party_id}
        shopId={shown.id}
        onSelect={() => undefined}
        draggable
        onTrade={() => undefined}
      />,
    );
  };
  const rowOf = (name: string) =>
    screen.getAllByTestId('shop-stock-item').find((row) => row.dataset.itemName === name);

  it('shows it as unpriced, with the reason and no Buy button, to a player', async () => {
    renderTab(false);
    await screen.findByRole('button', { name: 'Buy Rope' });
    expect(rowOf('Bag of Holding')).toHaveTextContent('Unpriced');
    expect(rowOf('Bag of Holding')).toHaveTextContent(shopMessages.unpricedNotForSale);
    expect(rowOf('Bag of Holding')).not.toHaveTextContent('0 cp');
    expect(screen.queryByRole('button', { name: 'Buy Bag of Holding' })).not.toBeInTheDocument();
  });

  it('shows the GM how to price it, and the line’s Set price opens its dialog', async () => {
    renderTab(true);
    await screen.findByRole('button', { name: 'Buy Rope' });
    expect(rowOf('Bag of Holding')).toHaveTextContent(shopMessages.unpricedOnShelfGm);
    await userEvent.click(screen.getByRole('button', { name: 'Set price of Bag of Holding' }));
    const dialog = await screen.findByRole('dialog', { name: 'Set price: Bag of Holding' });
    expect(within(dialog).getByRole('textbox', { name: 'Own price (gp)' })).toHaveFocus();
  });

  it('offers a player no Set price', async () => {
    renderTab(false);
    await screen.findByRole('button', { name: 'Buy Rope' });
    expect(screen.queryByRole('button', { name: /^Set price/ })).not.toBeInTheDocument();
  });
});

describe('ShopSourceView at the month’s inventory-action limit', () => {
  it('keeps Buy in place, disabled with why and the upgrade link, and trades nothing', async () => {
    const aria = buildCharacter({ id: 'ch-aria', name: 'Aria', party_id: shop.party_id });
    const backpack = buildContainer({
      id: 'c-pack',
      name: 'Backpack',
      owner: { type: 'character', id: 'ch-aria', name: 'Aria' },
      character_id: 'ch-aria',
      party_id: shop.party_id,
    });
    mockFetch(({ url, init }) => {
      const { pathname } = new URL(url, 'http://test');
      if (pathname === '/api/v1/subscription/check_limit') {
        const { resource } = JSON.parse(String(init.body)) as { resource: string };
        const spent = resource === 'inventory_actions_party_monthly';
        return success({ allowed: !spent, resource, limit: 200, used: spent ? 200 : 3, remaining: 0 });
      }
      if (pathname === `/api/v1/shop_instances/${shop.id}`) return success(shop);
      if (pathname === '/api/v1/shop_instances')
        return jsonResponse(200, { status: 'success', data: { instances: [shop] }, meta: pageMeta(1, 100) });
      if (pathname === '/api/v1/characters')
        return jsonResponse(200, { status: 'success', data: [aria], meta: pageMeta(1, 100) });
      if (pathname === '/api/v1/characters/ch-aria/containers') return success([backpack]);
      if (pathname === '/api/v1/containers/c-pack/items')
        return jsonResponse(200, { status: 'success', data: [], meta: pageMeta(0, 100) });
      return failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${pathname}`);
    });
    const onTrade = vi.fn();
    renderWithProviders(
      <ShopSourceView
        partyId={shop.party_id}
        shopId={shop.id}
        onSelect={() => undefined}
        draggable
        onTrade={onTrade}
      />,
    );
    const buy = await screen.findByRole('button', { name: /^Buy / });
    await waitFor(() => expect(buy).toHaveAttribute('aria-disabled', 'true'));
    expect(buy).not.toBeDisabled();
    expect(buy).toHaveAccessibleDescription('No party inventory actions left this month.');
    expect(
      within(screen.getByTestId('trade-allowance-refusal')).getByRole('link', {
        name: 'See upgrade options',
      }),
    ).toHaveAttribute('href', '/subscription/upgrade?resource=inventory_actions_party_monthly');
    await userEvent.click(buy);
    expect(onTrade).not.toHaveBeenCalled();
  });
});

describe('ShopSourceView: selling', () => {
  it('shows what the shop pays for one, never more than it asks, as the shop page and the server do', async () => {
    // Daggers (2 gp) on sale here at their own price of 1 gp 5 sp, bought back at full value: 1 gp 5 sp.
    const capped = buildShopInstance({ sell_modifier: 1, own_prices_cp: { 'template-dagger': 150 } });
    const aria = buildCharacter({ id: 'ch-aria', name: 'Aria', party_id: capped.party_id });
    const backpack = buildContainer({
      id: 'c-pack',
      name: 'Backpack',
      owner: { type: 'character', id: 'ch-aria', name: 'Aria' },
      character_id: 'ch-aria',
      party_id: capped.party_id,
    });
    const dagger = buildItem({
      id: 'item-dagger',
      name: 'Dagger',
      item_template_id: 'template-dagger',
      quantity: 1,
      value_cp: 200,
      container_id: 'c-pack',
    });
    mockFetch(({ url, init }) => {
      const { pathname } = new URL(url, 'http://test');
      if (pathname === '/api/v1/subscription/check_limit') {
        const { resource } = JSON.parse(String(init.body)) as { resource: string };
        return success({ allowed: true, resource, limit: 200, used: 3, remaining: 197 });
      }
      if (pathname === `/api/v1/shop_instances/${capped.id}`) return success(capped);
      if (pathname === '/api/v1/shop_instances')
        return jsonResponse(200, {
          status: 'success',
          data: { instances: [capped] },
          meta: pageMeta(1, 100),
        });
      if (pathname === '/api/v1/characters')
        return jsonResponse(200, { status: 'success', data: [aria], meta: pageMeta(1, 100) });
      if (pathname === '/api/v1/characters/ch-aria/containers') return success([backpack]);
      if (pathname === '/api/v1/containers/c-pack/items')
        return jsonResponse(200, { status: 'success', data: [dagger], meta: pageMeta(1, 100) });
      return failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${pathname}`);
    });
    const onTrade = vi.fn();
    renderWithProviders(
      <ShopSourceView
        partyId={capped.party_id}
        shopId={capped.id}
        onSelect={() => undefined}
        draggable
        onTrade={onTrade}
      />,
    );
    const user = userEvent.setup();
    await user.click(await screen.findByRole('radio', { name: 'Sell' }));
    const sell = await screen.findByRole('button', { name: 'Sell Dagger' });
    expect(screen.getByTestId('sell-price')).toHaveTextContent(/^1 gp 5 sp$/);
    await waitFor(() => expect(sell).toBeEnabled());
    await user.click(sell);
    expect(onTrade).toHaveBeenCalledWith(expect.objectContaining({ side: 'sell', unitCp: 150 }));
  });
});

describe('ShopSourceView with no shops in the party', () => {
  /** A party without shops, in which I have `role`. */
  function noShops(role: 'gm' | 'manager' | 'player' | 'observer') {
    return mockFetch(({ url }) => {
      const { pathname } = new URL(url, 'http://test');
      if (pathname === '/api/v1/parties/party-1')
        return success(buildParty({ id: 'party-1', user_role: role, is_gm: role === 'gm' }));
      if (pathname === '/api/v1/shop_instances')
        return jsonResponse(200, { status: 'success', data: { instances: [] }, meta: pageMeta(0, 100) });
      return failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${pathname}`);
    });
  }

  const renderEmpty = () =>
    renderWithProviders(
      <ShopSourceView
        partyId="party-1"
        shopId={null}
        onSelect={() => undefined}
        draggable
        onTrade={() => undefined}
      />,
    );

  it.each(['gm', 'manager'] as const)('offers Deploy Shop Template to a %s, who may deploy', async (role) => {
    noShops(role);
    renderEmpty();
    const empty = await screen.findByTestId('workspace-no-shops');
    expect(await within(empty).findByRole('link', { name: 'Deploy Shop Template' })).toHaveAttribute(
      'href',
      '/shops',
    );
    expect(empty).toHaveTextContent(shopMessages.noPartyShops);
  });

  it.each(['player', 'observer'] as const)(
    'offers no Deploy Shop Template to a member (%s) who may not deploy',
    async (role) => {
      // Live review: a player was offered a deployment only the GM or a manager may make.
      noShops(role);
      renderEmpty();
      const empty = await screen.findByTestId('workspace-no-shops');
      await waitFor(() => expect(empty).toHaveTextContent(shopMessages.noPartyShopsForMember));
      expect(within(empty).queryByRole('link', { name: 'Deploy Shop Template' })).not.toBeInTheDocument();
      expect(empty).not.toHaveTextContent('Deploy a shop template');
    },
  );
});

describe('ShopSourceView with more shops than one page', () => {
  it('offers every shop of the party in its picker, the 101st too', async () => {
    // A GM with 120 shops saw the first 100 (one page of the list) and could not pick the others.
    const shops = Array.from({ length: 120 }, (_, index) =>
      buildShopInstance({ id: `shop-${index + 1}`, name: `Shop ${index + 1}` }),
    );
    const asked: string[] = [];
    mockFetch(({ url }) => {
      const { pathname, searchParams } = new URL(url, 'http://test');
      if (pathname === '/api/v1/shop_instances') {
        asked.push(searchParams.toString());
        const page = Number(searchParams.get('page') ?? 1);
        const perPage = Number(searchParams.get('per_page') ?? 20);
        const instances = shops.slice((page - 1) * perPage, page * perPage);
        return jsonResponse(200, {
          status: 'success',
          data: { instances },
          meta: pageMeta(shops.length, perPage, page),
        });
      }
      const found = shops.find((s) => pathname === `/api/v1/shop_instances/${s.id}`);
      if (found) return success(found);
      if (pathname === '/api/v1/characters') {
        return jsonResponse(200, { status: 'success', data: [], meta: pageMeta(0, 100) });
      }
      return failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${pathname}`);
    });
    const onSelect = vi.fn();
    renderWithProviders(
      <ShopSourceView
        partyId={shop.party_id}
        shopId="shop-1"
        onSelect={onSelect}
        draggable
        onTrade={() => undefined}
      />,
    );
    const user = userEvent.setup();
    await user.click(await screen.findByRole('combobox', { name: 'Shop' }));
    // By its text, not its role: naming 120 options by role takes seconds in jsdom.
    const listbox = await screen.findByRole('listbox');
    expect(listbox.querySelectorAll('[role="option"]')).toHaveLength(120);
    await user.click(within(listbox).getByText(/^Shop 101 · /));
    expect(onSelect).toHaveBeenCalledWith('shop-101');
    // Each page asked of the party's shops alone.
    expect(asked.every((search) => search.includes(`party_id=${shop.party_id}`))).toBe(true);
  });
});
